package dev.freshet.executor.operators.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link StreamDeduplicateOperator} batch by batch over a delta-file state store, rows
 * {@code (k VARCHAR, v INTEGER, ts TIMESTAMP)}: its state, its eviction by the watermark, an
 * aborted batch and a restart on the same state directory.
 */
class StreamDeduplicateOperatorTest {
  @TempDir Path dir;

  /** Keys on k; the least ts of a batch wins; ts is the watermark column (delay 5 s). */
  private static final DeduplicateSpec WITHIN_WATERMARK =
      new DeduplicateSpec(0, new int[] {0}, 2, false, 2, 2, 5_000);
  /** Keys on k, first arrival wins, no watermark: keys are kept forever. */
  private static final DeduplicateSpec FOREVER =
      new DeduplicateSpec(0, new int[] {0}, -1, false, -1, -1, 0);

  private final Collector out = new Collector();
  private StreamDeduplicateOperator operator;

  private void open(DeduplicateSpec spec) {
    operator = new StreamDeduplicateOperator(spec, new DeltaFileStateStoreProvider(
        new StateStoreSpec(new StateStoreId("q", 0, 0), dir.resolve("state/0/0"), 10, 100)),
        out);
  }

  private List<List<Object>> run(long id, long lateMs, long evictionMs, Object[]... rows) {
    BatchContext batch = new BatchContext(id, 0, lateMs, evictionMs);
    operator.startBatch(batch);
    for (Object[] row : rows) {
      operator.push(row);
    }
    operator.finishBatch(batch);
    return out.lastBatch;
  }

  private static Object[] row(String k, int v, long ts) {
    return new Object[] {k, v, ts};
  }

  private static List<Object> out(String k, int v, long ts) {
    return Arrays.asList(k, v, ts);
  }

  private void assertMetrics(long output, long total, long updated, long removed, long dropped) {
    assertEquals(new StateMetrics(output, total, updated, removed, dropped),
        operator.stateMetrics());
  }

  @Test void shouldEmitEachKeyOnceAndKeepItForeverWhenNoWatermark() {
    open(FOREVER);
    assertEquals(List.of(out("a", 1, 10), out("b", 2, 5)),
        run(0, 0, 0, row("a", 1, 10), row("b", 2, 5), row("a", 3, 1)));
    assertMetrics(2, 2, 2, 0, 0);
    assertEquals(List.of(out("c", 5, 1)),
        run(1, 0, 1_000_000, row("a", 4, 0), row("c", 5, 1), row("b", 6, 0)));
    assertMetrics(1, 3, 1, 0, 0);
    assertFalse(operator.needsNoDataBatch(Long.MAX_VALUE - 1));
  }

  @Test void shouldKeepTheLeastOrderValueOfABatchInTheOrderKeysFirstCame() {
    open(WITHIN_WATERMARK);
    assertEquals(List.of(out("b", 1, 9_000), out("a", 3, 1_000)),
        run(0, 0, 0, row("b", 1, 9_000), row("a", 2, 7_000), row("a", 3, 1_000),
            row("a", 4, 1_000)));
    // A later batch's row does not replace the emitted one, even with a smaller time.
    assertEquals(List.of(), run(1, 0, 0, row("a", 5, 500)));
  }

  @Test void shouldExpireAKeyOnceTheWatermarkPassesItsTimePlusTheDelayAndDropLateRows() {
    open(WITHIN_WATERMARK);
    assertEquals(List.of(out("a", 1, 10_000)), run(0, 0, 0, row("a", 1, 10_000)));
    // a expires at 15 s: not at watermark 14 s.
    assertFalse(operator.needsNoDataBatch(14_999));
    assertTrue(operator.needsNoDataBatch(15_000));
    assertEquals(List.of(out("b", 2, 20_000)),
        run(1, 0, 14_999, row("a", 2, 12_000), row("b", 2, 20_000)));
    assertMetrics(1, 2, 1, 0, 0);
    // The no-data batch at watermark 15 s forgets a; b stays until 25 s.
    assertEquals(List.of(), run(2, 14_999, 15_000));
    assertMetrics(0, 1, 0, 1, 0);
    assertFalse(operator.needsNoDataBatch(15_000));
    // a passes again; a row at or before the late-events watermark is dropped and counted.
    assertEquals(List.of(out("a", 3, 16_000)),
        run(3, 15_000, 15_000, row("a", 3, 16_000), row("c", 4, 15_000), row("b", 5, 15_500)));
    assertMetrics(1, 2, 1, 0, 1);
  }

  @Test void shouldRunAnAbortedBatchAgainFromTheCommittedState() {
    open(WITHIN_WATERMARK);
    run(0, 0, 0, row("a", 1, 10_000));
    BatchContext batch = new BatchContext(1, 0, 0, 0);
    operator.startBatch(batch);
    operator.push(row("b", 2, 11_000));
    operator.abortBatch(batch);
    assertEquals(1, out.aborted);
    // The aborted batch's b was never committed: its re-run emits it.
    assertEquals(List.of(out("b", 2, 11_000)), run(1, 0, 0, row("b", 2, 11_000)));
  }

  @Test void shouldRememberItsKeysAndExpiriesAfterARestart() {
    open(WITHIN_WATERMARK);
    run(0, 0, 0, row("a", 1, 10_000), row("b", 2, 30_000));
    operator.closeStores();
    open(WITHIN_WATERMARK);
    // Before reading its state, a restarted operator asks for a no-data batch to evict.
    assertTrue(operator.needsNoDataBatch(1));
    assertEquals(List.of(), run(1, 0, 0, row("a", 3, 11_000)));
    assertFalse(operator.needsNoDataBatch(14_999));
    assertEquals(List.of(), run(2, 0, 20_000));
    assertMetrics(0, 1, 0, 1, 0);
    assertEquals(List.of(out("a", 4, 21_000)), run(3, 20_000, 20_000, row("a", 4, 21_000),
        row("b", 5, 31_000)));
  }

  @Test void shouldFailABatchBeforeCommitWhenItsKeysOutgrowTheMemoryBudget() {
    open(FOREVER);
    // 50 keys of one column fit in 10 000 bytes (160 each); 70 do not.
    QueryResources resources = new QueryResources("q", 10_000,
        new MemoryPool(MemoryPool.UNLIMITED));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      rows.add(row("k" + i, i, 0));
    }
    BatchContext first = new BatchContext(0, 0, 0, 0, resources);
    operator.startBatch(first);
    rows.subList(0, 50).forEach(operator::push);
    operator.finishBatch(first);
    BatchContext second = new BatchContext(1, 0, 0, 0, resources);
    operator.startBatch(second);
    rows.subList(50, 70).forEach(operator::push);
    assertThrows(MemoryBudgetExceededException.class, () -> operator.finishBatch(second));
    operator.abortBatch(second);
    // The re-run within budget sees the committed keys of batch 0 only.
    assertEquals(List.of(out("k50", 50, 0)), run(1, 0, 0, rows.get(50), rows.get(3)));
    assertMetrics(1, 51, 1, 0, 0);
  }

  /** Keeps copies of the rows of each batch. */
  private static final class Collector implements Operator {
    private List<List<Object>> rows = new ArrayList<>();
    List<List<Object>> lastBatch = List.of();
    int aborted;

    @Override public void startBatch(BatchContext batch) {
      rows = new ArrayList<>();
    }

    @Override public void push(Object[] row) {
      rows.add(Arrays.asList(row.clone()));
    }

    @Override public void finishBatch(BatchContext batch) {
      lastBatch = rows;
      rows = new ArrayList<>();
    }

    @Override public void abortBatch(BatchContext batch) {
      aborted++;
      rows = new ArrayList<>();
    }
  }
}

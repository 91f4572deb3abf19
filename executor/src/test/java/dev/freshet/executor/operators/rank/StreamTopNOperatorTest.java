package dev.freshet.executor.operators.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.SortKey;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link StreamTopNOperator} batch by batch over a delta-file state store, rows
 * {@code (k VARCHAR, v INTEGER)}: the ranks it emits in UPDATE and COMPLETE mode, ties, an
 * aborted batch, a restart on the same state directory and the memory budget.
 */
class StreamTopNOperatorTest {
  @TempDir Path dir;

  /** The 3 largest v per k, UPDATE mode, with the new-rank flag. */
  private static final TopNSpec TOP3_DESC = new TopNSpec(0, new int[] {0},
      List.of(new SortKey(1, true, false)), 3, OutputMode.UPDATE, true);
  /** The 2 least v per k, COMPLETE mode. */
  private static final TopNSpec BOTTOM2_COMPLETE = new TopNSpec(0, new int[] {0},
      List.of(new SortKey(1, false, false)), 2, OutputMode.COMPLETE, false);

  private final Collector out = new Collector();
  private StreamTopNOperator operator;

  private void open(TopNSpec spec) {
    operator = new StreamTopNOperator(spec, new DeltaFileStateStoreProvider(
        new StateStoreSpec(new StateStoreId("q", 0, 0), dir.resolve("state/0/0"), 10, 100)),
        out);
  }

  private List<List<Object>> run(long id, Object[]... rows) {
    BatchContext batch = new BatchContext(id, 0, 0, 0);
    operator.startBatch(batch);
    for (Object[] row : rows) {
      operator.push(row);
    }
    operator.finishBatch(batch);
    return out.lastBatch;
  }

  private static Object[] row(String k, int v) {
    return new Object[] {k, v};
  }

  /** An UPDATE row: k, v, rank, new. */
  private static List<Object> up(String k, int v, long rank, boolean isNew) {
    return Arrays.asList(k, v, rank, isNew);
  }

  /** A COMPLETE row: k, v, rank. */
  private static List<Object> all(String k, int v, long rank) {
    return Arrays.asList(k, v, rank);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing((List<Object> r) -> (String) r.get(0))
        .thenComparing(r -> (Long) r.get(2)));
    return copy;
  }

  @Test void shouldEmitOnlyTheRanksABatchChanged() {
    open(TOP3_DESC);
    assertEquals(List.of(up("a", 10, 1, true), up("a", 5, 2, true), up("a", 1, 3, true),
            up("b", 7, 1, true)),
        run(0, row("a", 5), row("b", 7), row("a", 1), row("a", 10), row("a", 0)));
    assertEquals(new StateMetrics(4, 4, 4, 0, 0), operator.stateMetrics());
    // 6 enters a at rank 2: ranks 2 and 3 change, rank 1 does not; 0 stays out.
    assertEquals(List.of(up("a", 6, 2, false), up("a", 5, 3, false)),
        run(1, row("a", 6), row("a", 0)));
    assertEquals(new StateMetrics(2, 4, 2, 0, 0), operator.stateMetrics());
    // A row that ranks below the third changes nothing.
    assertEquals(List.of(), run(2, row("a", 2)));
  }

  @Test void shouldRankEqualRowsByArrival() {
    open(TOP3_DESC);
    run(0, row("a", 5), row("a", 5));
    // The earlier 5s keep ranks 1 and 2; the later 5 and the 5 of this batch come after.
    assertEquals(List.of(up("b", 1, 1, true), up("a", 5, 3, true)),
        run(1, row("b", 1), row("a", 5), row("a", 5)));
    assertEquals(List.of(up("a", 9, 1, false), up("a", 5, 2, false), up("a", 5, 3, false)),
        run(2, row("a", 9)));
  }

  @Test void shouldEmitEveryRankOfEveryGroupInCompleteMode() {
    open(BOTTOM2_COMPLETE);
    assertEquals(List.of(all("a", 3, 1), all("a", 4, 2), all("b", 1, 1)),
        sorted(run(0, row("a", 4), row("b", 1), row("a", 3), row("a", 9))));
    assertEquals(List.of(all("a", 2, 1), all("a", 3, 2), all("b", 1, 1)),
        sorted(run(1, row("a", 2))));
    assertEquals(List.of(all("a", 2, 1), all("a", 3, 2), all("b", 1, 1)), sorted(run(2)));
  }

  @Test void shouldRunAnAbortedBatchAgainFromTheCommittedState() {
    open(TOP3_DESC);
    run(0, row("a", 5));
    BatchContext batch = new BatchContext(1, 0, 0, 0);
    operator.startBatch(batch);
    operator.push(row("a", 8));
    operator.abortBatch(batch);
    assertEquals(1, out.aborted);
    assertEquals(List.of(up("a", 7, 1, false), up("a", 5, 2, true)), run(1, row("a", 7)));
  }

  @Test void shouldKeepItsRanksAfterARestart() {
    open(TOP3_DESC);
    run(0, row("a", 5), row("a", 3), row("a", 1));
    operator.closeStores();
    open(TOP3_DESC);
    assertEquals(List.of(up("a", 4, 2, false), up("a", 3, 3, false)), run(1, row("a", 4)));
    operator.closeStores();
    open(TOP3_DESC);
    assertEquals(List.of(), run(2, row("a", 2)));
  }

  @Test void shouldFailABatchBeforeCommitWhenItsRanksOutgrowTheMemoryBudget() {
    open(new TopNSpec(0, new int[] {0}, List.of(new SortKey(1, false, false)), 1,
        OutputMode.UPDATE, false));
    // A rank of one key column and a two-column row is estimated at 280 bytes: 30 fit in
    // 10 000 bytes, 40 do not.
    QueryResources resources = new QueryResources("q", 10_000,
        new MemoryPool(MemoryPool.UNLIMITED));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(row("k" + i, i));
    }
    BatchContext first = new BatchContext(0, 0, 0, 0, resources);
    operator.startBatch(first);
    rows.subList(0, 30).forEach(operator::push);
    operator.finishBatch(first);
    BatchContext second = new BatchContext(1, 0, 0, 0, resources);
    operator.startBatch(second);
    rows.subList(30, 40).forEach(operator::push);
    assertThrows(MemoryBudgetExceededException.class, () -> operator.finishBatch(second));
    operator.abortBatch(second);
    // The re-run sees the committed ranks of batch 0 only.
    assertEquals(List.of(Arrays.asList("k30", 30, 1L)), run(1, rows.get(30), rows.get(3)));
    assertEquals(new StateMetrics(1, 31, 1, 0, 0), operator.stateMetrics());
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

package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session window operator: rows {@code (k, window_start, window_end, v)} grouped by all
 * three, gap 5 s, computing {@code COUNT(*)} and {@code SUM(v)}; output
 * {@code (k, session_start, session_end, count, sum)}.
 */
class SessionWindowOperatorTest {
  private static SessionWindowSpec spec(OutputMode mode, int partitions) {
    return new SessionWindowSpec(0, new int[] {0, 1, 2}, 1, 2, 5_000,
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 3, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 3, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 4, ValueKind.LONG)),
        mode, partitions);
  }

  /** A row at {@code seconds} with its own session, as the plan's projection makes it. */
  private static Object[] in(String k, long seconds, Long v) {
    return new Object[] {k, seconds * 1000, seconds * 1000 + 5_000, v};
  }

  private static List<Object> out(String k, long start, long end, long count, Long sum) {
    return Arrays.asList(k, start * 1000, end * 1000, count, sum);
  }

  @Test void shouldMergeTwoSessionsThatARowBridgesWithTheirValues() {
    Harness h = new Harness(spec(OutputMode.COMPLETE, 2), this::memory);
    assertEquals(Set.of(out("a", 10, 15, 1, 1L), out("a", 20, 25, 1, 2L),
        out("b", 12, 17, 1, null)),
        h.run(0, 0, 0, in("a", 10, 1L), in("a", 20, 2L), in("b", 12, null)));
    // [15, 20) touches [10, 15) and [20, 25): one session of three rows.
    assertEquals(Set.of(out("a", 10, 25, 3, 6L), out("b", 12, 17, 1, null)),
        h.run(1, 0, 0, in("a", 15, 3L)));
    assertEquals(2, h.operator.stateMetrics().numTotalStateRows());
    // Within one batch too, and a row inside a session only extends its values.
    assertEquals(Set.of(out("a", 10, 25, 4, 10L), out("b", 12, 26, 4, 3L)),
        h.run(2, 0, 0, in("a", 12, 4L), in("b", 21, 1L), in("b", 14, 1L), in("b", 19, 1L)));
  }

  @Test void shouldEmitASessionOnceTheWatermarkPassesItsEndAndDropLateRows() {
    Harness h = new Harness(spec(OutputMode.APPEND, 1), this::memory);
    assertEquals(Set.of(), h.run(0, 0, 0, in("a", 10, 1L), in("a", 20, 2L)));
    assertEquals(Set.of(out("a", 10, 15, 1, 1L)), h.run(1, 0, 16_000));
    assertEquals(1, h.operator.stateMetrics().numTotalStateRows());
    // 11 + 5 <= 16: late, dropped and counted; 12 + 5 > 16 opens a session (Spark's rule).
    assertEquals(Set.of(), h.run(2, 16_000, 16_000, in("a", 11, 5L), in("a", 12, 7L)));
    assertEquals(1, h.operator.stateMetrics().numRowsDroppedByWatermark());
    assertEquals(Set.of(out("a", 12, 17, 1, 7L), out("a", 20, 25, 1, 2L)),
        h.run(3, 16_000, 30_000));
    assertEquals(1, h.operator.stateMetrics().numRemovedStateRows());
    assertEquals(0, h.operator.stateMetrics().numTotalStateRows());
  }

  @Test void shouldLeaveTheStateAsItWasWhenABatchAborts() {
    FailOnce fail = new FailOnce();
    Harness h = new Harness(spec(OutputMode.COMPLETE, 1), this::memory, fail);
    h.run(0, 0, 0, in("a", 10, 1L), in("a", 20, 2L));
    fail.armed = true;
    BatchContext batch = new BatchContext(1, 1_000, 0, 0);
    h.operator.startBatch(batch);
    h.operator.push(in("a", 15, 3L));
    assertThrows(IllegalStateException.class, () -> h.operator.finishBatch(batch));
    h.operator.abortBatch(batch);
    h.collect.takeRows();
    // The batch runs again on version 1, which the failed batch left as it was.
    assertEquals(Set.of(out("a", 10, 25, 3, 6L)), h.run(1, 0, 0, in("a", 15, 3L)));
  }

  @Test void shouldMergeIntoTheSessionsARestartedOperatorReadsFromItsCheckpoint(
      @TempDir Path dir) {
    Function<Integer, StateStoreProvider<Object, Object[]>> files =
        p -> new DeltaFileStateStoreProvider(new StateStoreSpec(new StateStoreId("q", 0, p),
            dir.resolve("state-" + p), StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, 2));
    Harness first = new Harness(spec(OutputMode.APPEND, 2), files);
    first.run(0, 0, 0, in("a", 10, 1L), in("a", 20, 2L), in("b", 12, 3L));
    first.operator.closeStores();
    Harness second = new Harness(spec(OutputMode.APPEND, 2), files);
    second.run(1, 0, 0, in("a", 15, 4L));
    assertEquals(Set.of(out("a", 10, 25, 3, 7L), out("b", 12, 17, 1, 3L)),
        second.run(2, 0, 40_000));
    second.operator.closeStores();
  }

  @Test void shouldFailABatchBeforeCommitWhenItsKeysOutgrowTheMemoryBudget() {
    Harness h = new Harness(spec(OutputMode.COMPLETE, 1), this::memory);
    // 360 bytes a key of three grouping columns and two aggregates: 27 fit in 10 000, 30 do not.
    QueryResources resources = new QueryResources("q", 10_000,
        new MemoryPool(MemoryPool.UNLIMITED));
    Object[][] first = new Object[20][];
    for (int i = 0; i < first.length; i++) {
      first[i] = in("k" + i, 10, 1L);
    }
    assertEquals(20, h.run(new BatchContext(0, 0, 0, 0, resources), first).size());
    BatchContext second = new BatchContext(1, 1_000, 0, 0, resources);
    h.operator.startBatch(second);
    for (int i = 20; i < 30; i++) {
      h.operator.push(in("k" + i, 10, 1L));
    }
    assertThrows(MemoryBudgetExceededException.class, () -> h.operator.finishBatch(second));
    h.operator.abortBatch(second);
    h.collect.takeRows();
    // The re-run within budget sees the committed keys of batch 0 only.
    assertEquals(21, h.run(new BatchContext(1, 1_000, 0, 0, resources), in("k20", 10, 1L))
        .size());
    assertEquals(21, h.operator.stateMetrics().numTotalStateRows());
  }

  @Test void shouldRefuseUpdateModeAndAGapThatIsNotPositive() {
    assertThrows(IllegalArgumentException.class, () -> spec(OutputMode.UPDATE, 1));
    assertThrows(IllegalArgumentException.class, () -> new SessionWindowSpec(0,
        new int[] {0, 1}, 1, -1, 0, List.of(), List.of(), OutputMode.APPEND, 1));
  }

  private StateStoreProvider<Object, Object[]> memory(int p) {
    return new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, p));
  }

  /** Throws on its first push once armed. */
  private static final class FailOnce implements Operator {
    Operator downstream;
    boolean armed;

    @Override public void startBatch(BatchContext batch) {
      downstream.startBatch(batch);
    }

    @Override public void push(Object[] row) {
      if (armed) {
        armed = false;
        throw new IllegalStateException("downstream failed");
      }
      downstream.push(row);
    }

    @Override public void finishBatch(BatchContext batch) {
      downstream.finishBatch(batch);
    }

    @Override public void abortBatch(BatchContext batch) {
      downstream.abortBatch(batch);
    }
  }

  /** Runs batches and collects the output rows as lists. */
  private static final class Harness {
    final CollectOperator collect = new CollectOperator();
    final SessionWindowOperator operator;

    Harness(SessionWindowSpec spec, Function<Integer, StateStoreProvider<Object, Object[]>> p) {
      this(spec, p, null);
    }

    Harness(SessionWindowSpec spec, Function<Integer, StateStoreProvider<Object, Object[]>> p,
        FailOnce fail) {
      List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
      for (int i = 0; i < spec.numPartitions(); i++) {
        providers.add(p.apply(i));
      }
      Operator downstream = collect;
      if (fail != null) {
        fail.downstream = collect;
        downstream = fail;
      }
      operator = new SessionWindowOperator(spec, providers, downstream);
    }

    Set<List<Object>> run(long batchId, long lateMs, long evictMs, Object[]... rows) {
      return run(new BatchContext(batchId, 1_000 * batchId, lateMs, evictMs), rows);
    }

    Set<List<Object>> run(BatchContext batch, Object[]... rows) {
      operator.startBatch(batch);
      for (Object[] row : rows) {
        operator.push(row);
      }
      operator.finishBatch(batch);
      List<List<Object>> out = new ArrayList<>();
      for (Object[] row : collect.takeRows()) {
        out.add(Arrays.asList(row));
      }
      assertEquals(out.size(), Set.copyOf(out).size(), "duplicate rows: " + out);
      return Set.copyOf(out);
    }
  }
}

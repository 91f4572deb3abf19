package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** State partitions processed on a thread pool give the results of partitions processed in turn. */
class ParallelPartitionsTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach void shutdown() {
    pool.shutdownNow();
  }

  private static StatefulAggregateSpec spec(OutputMode mode) {
    return new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        mode, 8);
  }

  private static List<StateStoreProvider<Object, Object[]>> providers() {
    List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
    for (int p = 0; p < 8; p++) {
      providers.add(new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, p)));
    }
    return providers;
  }

  private static Set<String> run(StatefulAggregateOperator op, CollectOperator out, long batchId,
      List<Object[]> rows) {
    BatchContext batch = new BatchContext(batchId, 0);
    op.startBatch(batch);
    rows.forEach(op::push);
    op.finishBatch(batch);
    Set<String> result = new TreeSet<>();
    for (Object[] row : out.takeRows()) {
      result.add(Arrays.toString(row));
    }
    return result;
  }

  @Test void shouldGiveTheSameRowsOnAPoolAsOnTheBatchThread() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (OutputMode mode : List.of(OutputMode.UPDATE, OutputMode.COMPLETE)) {
      CollectOperator serialOut = new CollectOperator();
      CollectOperator parallelOut = new CollectOperator();
      StatefulAggregateOperator serial =
          new StatefulAggregateOperator(spec(mode), providers(), serialOut);
      StatefulAggregateOperator parallel =
          new StatefulAggregateOperator(spec(mode), providers(), parallelOut, pool);
      for (long batch = 0; batch < 20; batch++) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = random.nextInt(200); i > 0; i--) {
          rows.add(new Object[] {"k" + random.nextInt(50), (long) random.nextInt(100)});
        }
        assertEquals(run(serial, serialOut, batch, rows), run(parallel, parallelOut, batch, rows),
            "seed " + seed + ", mode " + mode + ", batch " + batch);
        assertEquals(serial.metrics().numTotalStateRows(), parallel.metrics().numTotalStateRows());
      }
    }
  }

  @Test void shouldAbortEveryPartitionWhenOneFailsOnThePool() {
    List<StateStoreProvider<Object, Object[]>> providers = providers();
    CollectOperator out = new CollectOperator();
    StatefulAggregateOperator op = new StatefulAggregateOperator(spec(OutputMode.UPDATE),
        providers, out, pool);
    run(op, out, 0, List.<Object[]>of(new Object[] {"a", 1L}));
    // Batch 5 asks for state version 5, which no partition has: every partition fails to open.
    BatchContext wrong = new BatchContext(5, 0);
    op.startBatch(wrong);
    op.push(new Object[] {"a", 1L});
    assertThrows(StateStoreException.class, () -> op.finishBatch(wrong));
    op.abortBatch(wrong);
    assertEquals(Set.of("[a, 2, 3]"), run(op, out, 1, List.<Object[]>of(new Object[] {"a", 2L})));
  }
}

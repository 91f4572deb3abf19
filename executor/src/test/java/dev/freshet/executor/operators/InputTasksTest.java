package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A batch's rows pushed by several input tasks ({@link StatefulAggregateOperator#inputTask}) give
 * what the same rows pushed by one give: each key is restored, merged, saved and emitted once, with
 * the partial values of every task that saw it, and counted once.
 */
class InputTasksTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach void shutdown() {
    pool.shutdownNow();
  }

  /** Input (k, v BIGINT); GROUP BY k; COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), COUNT(DISTINCT v). */
  private static StatefulAggregateSpec spec(OutputMode mode, int partitions, boolean newKeyFlag) {
    return new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.COUNT, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MIN, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MAX, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.COUNT, 1, ValueKind.LONG, true, -1)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 3, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MIN, 4, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MAX, 5, ValueKind.LONG),
            new AggregateCall(AggregateFunction.COUNT, 6, ValueKind.LONG, true, -1)),
        mode, partitions, null, newKeyFlag);
  }

  private static List<StateStoreProvider<Object, Object[]>> providers(String query, int n) {
    List<StateStoreProvider<Object, Object[]>> providers = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      providers.add(new InMemoryStateStoreProvider<>(new StateStoreId(query, 0, p)));
    }
    return providers;
  }

  /** An operator and the rows it emits. */
  private record Aggregate(StatefulAggregateOperator operator, CollectOperator out) {
    static Aggregate of(StatefulAggregateSpec spec, String query, ExecutorService pool,
        int inputTasks) {
      CollectOperator out = new CollectOperator();
      return new Aggregate(new StatefulAggregateOperator(spec, providers(query,
          spec.numPartitions()), out, pool, inputTasks), out);
    }

    Operator input(int task) {
      return task == 0 ? operator : operator.inputTask(task);
    }

    /** Runs one batch whose rows {@code tasks[t]} input task {@code t} pushes, in turn. */
    List<String> batch(BatchContext batch, List<List<Object[]>> tasks) {
      operator.startBatch(batch);
      for (int t = 0; t < tasks.size(); t++) {
        tasks.get(t).forEach(input(t)::push);
      }
      operator.finishBatch(batch);
      return rows();
    }

    List<String> rows() {
      List<String> rows = new ArrayList<>();
      for (Object[] row : out.takeRows()) {
        rows.add(Arrays.toString(row));
      }
      rows.sort(null);
      return rows;
    }
  }

  private static List<Object[]> randomRows(Random random, int count) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      // Few keys, so that most keys reach several tasks; some null keys and values.
      Object key = random.nextInt(20) == 0 ? null : "k" + random.nextInt(30);
      Object value = random.nextInt(10) == 0 ? null : (long) random.nextInt(50) - 10;
      rows.add(new Object[] {key, value});
    }
    return rows;
  }

  @Test void shouldEmitWhatOneTaskEmitsWhenTheRowsAreSplitAcrossTasks() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (OutputMode mode : List.of(OutputMode.UPDATE, OutputMode.COMPLETE)) {
      for (int partitions : new int[] {1, 3}) {
        StatefulAggregateSpec spec = spec(mode, partitions, mode == OutputMode.UPDATE);
        Aggregate one = Aggregate.of(spec, "one", null, 1);
        Aggregate three = Aggregate.of(spec, "three", pool, 3);
        for (long b = 0; b < 12; b++) {
          List<Object[]> rows = randomRows(random, random.nextInt(300));
          // Cut the rows into three slices, some of them empty.
          int first = random.nextInt(rows.size() + 1);
          int second = first + random.nextInt(rows.size() - first + 1);
          List<List<Object[]>> slices = List.of(rows.subList(0, first),
              rows.subList(first, second), rows.subList(second, rows.size()));
          String context = "seed " + seed + ", " + mode + ", " + partitions + " partitions, batch "
              + b;
          BatchContext batch = new BatchContext(b, 0);
          assertEquals(one.batch(batch, List.of(rows)), three.batch(batch, slices), context);
          AggregateMetrics expected = one.operator().metrics();
          AggregateMetrics actual = three.operator().metrics();
          assertEquals(expected.numOutputRows(), actual.numOutputRows(), context);
          assertEquals(expected.numUpdatedStateRows(), actual.numUpdatedStateRows(), context);
          assertEquals(expected.numTotalStateRows(), actual.numTotalStateRows(), context);
        }
      }
    }
  }

  @Test void shouldEmitTheGlobalRowOnceWhenOnlyALaterTaskHasRows() {
    StatefulAggregateSpec global = new StatefulAggregateSpec(0, new int[0],
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 0, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 0, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    Aggregate aggregate = Aggregate.of(global, "global", pool, 2);
    assertEquals(List.of("[2, 7]"), aggregate.batch(new BatchContext(0, 0),
        List.of(List.of(), List.<Object[]>of(new Object[] {3L}, new Object[] {4L}))));
    assertEquals(List.of("[3, 8]"), aggregate.batch(new BatchContext(1, 0),
        List.of(List.<Object[]>of(new Object[] {1L}), List.of())));
  }

  @Test void shouldDropAndCountALateKeyOnceWhenSeveralTasksSawIt() {
    // Input (t BIGINT event time, v); GROUP BY t; COUNT(*); a group is late at or before 1000.
    StatefulAggregateSpec windows = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG)),
        OutputMode.UPDATE, 2, new EventTimeKey(0, 0));
    Aggregate aggregate = Aggregate.of(windows, "late", pool, 2);
    BatchContext batch = new BatchContext(0, 0, 1000, 1000);
    List<Object[]> rows = List.of(new Object[] {500L, 1L}, new Object[] {2000L, 1L});
    assertEquals(List.of("[2000, 2]"), aggregate.batch(batch, List.of(rows, rows)));
    assertEquals(1, aggregate.operator().metrics().numRowsDroppedByWatermark());
    assertEquals(1, aggregate.operator().metrics().numUpdatedStateRows());
  }

  @Test void shouldAggregateRowsPushedByTasksOnDifferentThreadsAtOnce() throws Exception {
    StatefulAggregateSpec spec = spec(OutputMode.UPDATE, 2, false);
    Aggregate one = Aggregate.of(spec, "serial", null, 1);
    Aggregate two = Aggregate.of(spec, "concurrent", pool, 2);
    Random random = new Random(7);
    for (long b = 0; b < 5; b++) {
      List<Object[]> first = randomRows(random, 50_000);
      List<Object[]> second = randomRows(random, 50_000);
      BatchContext batch = new BatchContext(b, 0);
      List<Object[]> all = new ArrayList<>(first);
      all.addAll(second);
      List<String> expected = one.batch(batch, List.of(all));
      two.operator().startBatch(batch);
      Future<?> other = pool.submit(() -> second.forEach(two.input(1)::push));
      first.forEach(two.input(0)::push);
      other.get();
      two.operator().finishBatch(batch);
      assertEquals(expected, two.rows(), "batch " + b);
    }
  }

  @Test void shouldRejectAnInputTaskTheOperatorWasNotCreatedWith() {
    Aggregate aggregate = Aggregate.of(spec(OutputMode.UPDATE, 1, false), "q", pool, 2);
    assertEquals(2, aggregate.operator().inputTasks());
    assertThrows(IndexOutOfBoundsException.class, () -> aggregate.operator().inputTask(0));
    assertThrows(IndexOutOfBoundsException.class, () -> aggregate.operator().inputTask(2));
    assertThrows(IllegalArgumentException.class, () -> Aggregate.of(
        spec(OutputMode.UPDATE, 1, false), "q", pool, 0));
  }

  @Test void shouldShareTheWatermarkOfAWatermarkOperatorWithItsCopies() {
    CollectOperator out = new CollectOperator();
    EventTimeWatermarkOperator original = new EventTimeWatermarkOperator(0, 100, out);
    EventTimeWatermarkOperator copy = original.copy(out);
    BatchContext batch = new BatchContext(0, 0);
    original.startBatch(batch);
    copy.startBatch(batch);
    original.push(new Object[] {1_000L});
    copy.push(new Object[] {5_000L});
    copy.finishBatch(batch);
    original.finishBatch(batch);
    assertEquals(4_900, original.watermarkMs());
    assertEquals(4_900, copy.watermarkMs());
    assertEquals(new TreeSet<>(List.of("[1000]", "[5000]")), new TreeSet<>(out.takeRows().stream()
        .map(Arrays::toString).toList()));
  }
}

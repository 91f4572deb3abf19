package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import dev.freshet.executor.vector.VectorBatch;
import dev.freshet.executor.vector.VectorType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The columnar input's groups merge into state straight from their primitive cells: on random
 * batches split over two input tasks and three state partitions, an aggregation fed vector
 * batches emits the same rows, in the same order, with the same metrics, as one fed the same rows
 * one by one (the row path's merge), for a one-column key, a key of two columns, and a key whose
 * event time makes groups late and evicts them.
 */
class VectorMergeTest {
  /** Input columns: k1 BIGINT, k2 INTEGER, x BIGINT, d DOUBLE, s VARCHAR; each may be NULL. */
  private static final VectorType[] TYPES =
      {VectorType.LONG, VectorType.INT, VectorType.LONG, VectorType.DOUBLE, VectorType.STRING};

  @Test void oneColumnKeyMergesAsTheRowPath() {
    compare(new int[] {0}, null, 50, 2_000, 5, false);
  }

  @Test void twoColumnKeyMergesAsTheRowPath() {
    compare(new int[] {1, 0}, null, 40, 3_000, 5, false);
  }

  @Test void eventTimeKeyDropsAndEvictsAsTheRowPath() {
    compare(new int[] {0, 1}, new EventTimeKey(0, 10), 400, 3_000, 5, true);
  }

  @Test void tasksOfMostlySeparateKeyRangesMergeAsTheRowPath() {
    // As input tasks reading slices of a sequence see them: a task's keys rarely in the other's.
    compare(new int[] {0}, null, 1_000, 4_000, 3, false, true);
    compare(new int[] {1, 0}, null, 1_000, 4_000, 3, false, true);
  }

  @Test void stringKeysMergeAsTheRowPath() {
    // Each task gives its strings ids of its own: another task's group is found by the string.
    compare(new int[] {4}, null, 300, 2_000, 5, false);
    compare(new int[] {4, 1}, null, 300, 2_000, 4, false);
  }

  @Test void manyGroupsMergeAsTheRowPath() {
    // Tables grown far past their first capacity, and each batch's more groups than the last's.
    compare(new int[] {0}, null, 1_000_000, 20_000, 3, false);
  }

  private static void compare(int[] keys, EventTimeKey eventTime, int keyRange, int rowsPerBatch,
      int batches, boolean watermarks) {
    compare(keys, eventTime, keyRange, rowsPerBatch, batches, watermarks, false);
  }

  /**
   * Compares the two paths over random batches; with {@code rangedTasks}, a row whose first
   * column is below half the key range goes to task 0 and the others to task 1, but for one in
   * twenty that goes to either.
   */
  private static void compare(int[] keys, EventTimeKey eventTime, int keyRange, int rowsPerBatch,
      int batches, boolean watermarks, boolean rangedTasks) {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    CollectOperator rowOut = new CollectOperator();
    CollectOperator vectorOut = new CollectOperator();
    StatefulAggregateOperator rowPath = aggregation(keys, eventTime, rowOut);
    StatefulAggregateOperator vectorPath = aggregation(keys, eventTime, vectorOut);
    for (int b = 0; b < batches; b++) {
      long watermark = watermarks ? b * (long) keyRange / batches : 0;
      BatchContext batch = new BatchContext(b, 0, watermark, watermark + keyRange / 10);
      List<List<Object[]>> tasks = List.of(new ArrayList<>(), new ArrayList<>());
      for (int r = 0; r < rowsPerBatch * (b + 1); r++) {
        Object[] row = row(random, keyRange);
        int task = random.nextInt(2);
        if (rangedTasks && row[0] != null && random.nextInt(20) != 0) {
          task = (Long) row[0] < keyRange / 2 ? 0 : 1;
        }
        tasks.get(task).add(row);
      }
      rowPath.startBatch(batch);
      vectorPath.startBatch(batch);
      for (int t = 0; t < 2; t++) {
        Operator rowInput = t == 0 ? rowPath : rowPath.inputTask(t);
        VectorOperator vectorInput = vectorPath.vectorInput(t, TYPES);
        VectorBatch vectors = VectorBatch.of(TYPES, 256);
        for (Object[] row : tasks.get(t)) {
          rowInput.push(row);
          vectors.appendRow(row);
          if (vectors.isFull()) {
            vectorInput.push(vectors);
            vectors.reset();
          }
        }
        if (vectors.size() > 0) {
          vectorInput.push(vectors);
        }
      }
      rowPath.finishBatch(batch);
      vectorPath.finishBatch(batch);
      String where = "batch " + b + " of seed " + seed;
      assertEquals(rows(rowOut.takeRows()), rows(vectorOut.takeRows()), where);
      AggregateMetrics expected = rowPath.metrics();
      AggregateMetrics actual = vectorPath.metrics();
      assertEquals(expected.numOutputRows(), actual.numOutputRows(), where);
      assertEquals(expected.numUpdatedStateRows(), actual.numUpdatedStateRows(), where);
      assertEquals(expected.numRemovedStateRows(), actual.numRemovedStateRows(), where);
      assertEquals(expected.numTotalStateRows(), actual.numTotalStateRows(), where);
      assertEquals(expected.numRowsDroppedByWatermark(), actual.numRowsDroppedByWatermark(),
          where);
    }
    rowPath.closeStores();
    vectorPath.closeStores();
  }

  private static Object[] row(Random random, int keyRange) {
    return new Object[] {
        random.nextInt(20) == 0 ? null : (long) random.nextInt(keyRange),
        random.nextInt(20) == 0 ? null : random.nextInt(3) - 1,
        random.nextInt(10) == 0 ? null : random.nextLong() >> 20,
        random.nextInt(10) == 0 ? null : random.nextInt(7) == 0 ? -0.0 : random.nextGaussian(),
        // A new String object each time, as rows from a source have.
        random.nextInt(20) == 0 ? null : new String("s" + random.nextInt(keyRange))};
  }

  private static List<List<Object>> rows(List<Object[]> rows) {
    List<List<Object>> list = new ArrayList<>();
    for (Object[] row : rows) {
      list.add(Arrays.asList(row));
    }
    return list;
  }

  private static StatefulAggregateOperator aggregation(int[] keys, EventTimeKey eventTime,
      CollectOperator out) {
    int k = keys.length;
    List<AggregateCall> partial = List.of(
        new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
        new AggregateCall(AggregateFunction.COUNT, 2, ValueKind.LONG),
        new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG),
        new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG),
        new AggregateCall(AggregateFunction.MIN, 2, ValueKind.LONG),
        new AggregateCall(AggregateFunction.MAX, 1, ValueKind.INT),
        new AggregateCall(AggregateFunction.SUM, 3, ValueKind.DOUBLE),
        new AggregateCall(AggregateFunction.SUM0, 3, ValueKind.DOUBLE),
        new AggregateCall(AggregateFunction.MIN, 3, ValueKind.DOUBLE),
        new AggregateCall(AggregateFunction.MAX, 3, ValueKind.DOUBLE));
    List<AggregateCall> merge = List.of(
        new AggregateCall(AggregateFunction.SUM0, k, ValueKind.LONG),
        new AggregateCall(AggregateFunction.SUM0, k + 1, ValueKind.LONG),
        new AggregateCall(AggregateFunction.SUM, k + 2, ValueKind.LONG),
        new AggregateCall(AggregateFunction.SUM0, k + 3, ValueKind.LONG),
        new AggregateCall(AggregateFunction.MIN, k + 4, ValueKind.LONG),
        new AggregateCall(AggregateFunction.MAX, k + 5, ValueKind.INT),
        new AggregateCall(AggregateFunction.SUM, k + 6, ValueKind.DOUBLE),
        new AggregateCall(AggregateFunction.SUM0, k + 7, ValueKind.DOUBLE),
        new AggregateCall(AggregateFunction.MIN, k + 8, ValueKind.DOUBLE),
        new AggregateCall(AggregateFunction.MAX, k + 9, ValueKind.DOUBLE));
    int partitions = 3;
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, keys, partial, merge,
        OutputMode.UPDATE, partitions, eventTime, true);
    List<StateStoreProvider<Object, Object[]>> stores = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      stores.add(new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, p)));
    }
    StatefulAggregateOperator aggregation =
        new StatefulAggregateOperator(spec, stores, out, null, 2);
    if (eventTime != null) {
      aggregation.emitGroupChanges();
    }
    return aggregation;
  }
}

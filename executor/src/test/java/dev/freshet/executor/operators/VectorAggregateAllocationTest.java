package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.runtime.ColumnarInput;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import dev.freshet.executor.vector.ArithmeticOp;
import dev.freshet.executor.vector.VectorExpression;
import dev.freshet.executor.vector.VectorExpressions;
import dev.freshet.executor.vector.VectorType;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The columnar hot loop allocates nothing per input row: W1's pipeline (a sequence read as
 * vector batches, {@code n % 1000} and {@code n} projected by kernels, {@code COUNT(*)} and
 * {@code SUM(n)} aggregated into primitive cells) over 1M rows, measured with the JVM's count of
 * the bytes this thread allocated.
 */
class VectorAggregateAllocationTest {
  private static final long ROWS = 1_000_000;

  @Test void shouldAllocateLessThanOneBytePerRow() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    CollectOperator output = new CollectOperator();
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 2);
    StatefulAggregateOperator aggregate = new StatefulAggregateOperator(spec, List.of(
        new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 0)),
        new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 1))), output);
    VectorType[] types = {VectorType.INT, VectorType.LONG};
    VectorExpression n = VectorExpressions.column(0, VectorType.LONG);
    VectorOperator calc = new VectorCalcOperator(null, new VectorExpression[] {
        VectorExpressions.arithmetic(ArithmeticOp.MOD, n,
            VectorExpressions.literal(1000, VectorType.INT), VectorType.INT), n},
        types, RowErrors.failing(), aggregate.vectorInput(0, types));
    ColumnarInput input = new ColumnarInput(new VectorType[] {VectorType.LONG}, List.of(calc));
    SequenceSource source = new SequenceSource(SequenceSpec.bounded("NUMS", ROWS * 3));
    QueryResources resources = QueryResources.unlimited("q");

    long allocated = 0;
    for (int batch = 0; batch < 3; batch++) {
      aggregate.startBatch(new BatchContext(batch, 0));
      long before = threads.getThreadAllocatedBytes(thread);
      long rows = input.read(source, 0, batch * ROWS, (batch + 1) * ROWS, resources);
      allocated = threads.getThreadAllocatedBytes(thread) - before;
      assertEquals(ROWS, rows);
      aggregate.finishBatch(new BatchContext(batch, 0));
      List<Object[]> out = output.takeRows();
      assertEquals(1000, out.size());
      // Key 7 of batch b: rows 7, 1007, ..., among rows 0..(b+1)M-1 so far.
      for (Object[] row : out) {
        if (row[0].equals(7)) {
          long count = (batch + 1) * ROWS / 1000;
          assertEquals(count, row[1]);
          assertEquals(7 * count + 1000 * count * (count - 1) / 2, row[2]);
        }
      }
    }
    // The first batch allocates the vectors and the group table; the third, measured, reuses
    // them: the reading's few objects are all it may allocate.
    assertTrue(allocated < ROWS, "allocated " + allocated + " bytes for " + ROWS + " rows");
  }

  /**
   * The same for a VARCHAR key: a memory stream's rows of 1,000 distinct strings, dictionary
   * encoded as they are read ({@code VectorBatch.appendRow}), grouped by their ids
   * ({@link StringKeyIds}), and handed to the state as the row path's String keys.
   */
  @Test void shouldAllocateLessThanOneBytePerRowForAStringKey() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    int rowsPerBatch = 300_000;
    String[] keys = new String[1000];
    for (int k = 0; k < keys.length; k++) {
      keys[k] = "key-\u00e9-" + k;
    }
    MemoryStream source = new MemoryStream("CLICKS", 2);
    for (int batch = 0; batch < 3; batch++) {
      List<Object[]> rows = new java.util.ArrayList<>();
      for (int i = batch * rowsPerBatch; i < (batch + 1) * rowsPerBatch; i++) {
        // A new String per row, as INSERT parses one: equal keys are not identical.
        rows.add(new Object[] {new String(keys[i % 1000]), (long) i});
      }
      source.addData(rows);
    }
    CollectOperator output = new CollectOperator();
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 2);
    StatefulAggregateOperator aggregate = new StatefulAggregateOperator(spec, List.of(
        new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 0)),
        new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 1))), output);
    VectorType[] types = {VectorType.STRING, VectorType.LONG};
    ColumnarInput input = new ColumnarInput(types, List.of(aggregate.vectorInput(0, types)));
    QueryResources resources = QueryResources.unlimited("q");

    long allocated = 0;
    for (int batch = 0; batch < 3; batch++) {
      aggregate.startBatch(new BatchContext(batch, 0));
      long before = threads.getThreadAllocatedBytes(thread);
      long rows = input.read(source, 0, batch, batch + 1, resources);
      allocated = threads.getThreadAllocatedBytes(thread) - before;
      assertEquals(rowsPerBatch, rows);
      aggregate.finishBatch(new BatchContext(batch, 0));
      List<Object[]> out = output.takeRows();
      assertEquals(1000, out.size());
      for (Object[] row : out) {
        if (row[0].equals(keys[7])) {
          long count = (batch + 1) * rowsPerBatch / 1000;
          assertEquals(count, row[1]);
          assertEquals(7 * count + 1000 * count * (count - 1) / 2, row[2]);
        }
      }
    }
    assertTrue(allocated < rowsPerBatch, "allocated " + allocated + " bytes for " + rowsPerBatch
        + " rows");
  }
}

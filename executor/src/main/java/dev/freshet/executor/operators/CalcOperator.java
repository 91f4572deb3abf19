package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * Stateless operator that filters and projects each row with a compiled {@link RowCalc}.
 *
 * <p>It reuses one output array for every row of a batch; downstream operators copy rows they
 * keep. The array is allocated by the batch's first row, on the thread pushing it (see
 * {@link Operator}).
 */
public final class CalcOperator implements Operator {
  private final RowCalc calc;
  private final int outputFieldCount;
  /** The output array of the current batch; null until its first row. */
  private Object[] out;
  private final Operator downstream;

  public CalcOperator(RowCalc calc, int outputFieldCount, Operator downstream) {
    this.calc = requireNonNull(calc, "calc");
    this.outputFieldCount = outputFieldCount;
    this.downstream = requireNonNull(downstream, "downstream");
  }

  @Override public void startBatch(BatchContext batch) {
    out = null;
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    Object[] out = this.out;
    if (out == null) {
      out = this.out = new Object[outputFieldCount];
    }
    if (calc.apply(row, out)) {
      downstream.push(out);
    }
  }

  @Override public void finishBatch(BatchContext batch) {
    downstream.finishBatch(batch);
  }

  @Override public void abortBatch(BatchContext batch) {
    downstream.abortBatch(batch);
  }

  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    return downstream.needsNoDataBatch(newWatermarkMs);
  }
}

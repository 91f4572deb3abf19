package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * Stateless operator that filters and projects each row with a compiled {@link RowCalc}.
 *
 * <p>It reuses one output array for every row; downstream operators copy rows they keep.
 */
public final class CalcOperator implements Operator {
  private final RowCalc calc;
  private final Object[] out;
  private final Operator downstream;

  public CalcOperator(RowCalc calc, int outputFieldCount, Operator downstream) {
    this.calc = requireNonNull(calc, "calc");
    this.out = new Object[outputFieldCount];
    this.downstream = requireNonNull(downstream, "downstream");
  }

  @Override public void startBatch(BatchContext batch) {
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
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

package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * Stateless operator that filters and projects each row with a compiled {@link RowCalc}.
 *
 * <p>It reuses one output array for every row of a batch; downstream operators copy rows they
 * keep. The array is allocated by the batch's first row, on the thread pushing it (see
 * {@link Operator}).
 */
public final class CalcOperator extends ForwardingOperator {
  private final RowCalc calc;
  private final int outputFieldCount;
  /** The output array of the current batch; null until its first row. */
  private Object[] out;
  /** Where a row whose expressions fail is counted; null to fail the batch. */
  private final RowErrors skipped;

  public CalcOperator(RowCalc calc, int outputFieldCount, Operator downstream) {
    this(calc, outputFieldCount, downstream, RowErrors.failing());
  }

  /**
   * Creates a calc that handles a row whose expressions fail as {@code rowErrors} says.
   *
   * @param rowErrors fails the batch, or drops and counts the row
   */
  public CalcOperator(RowCalc calc, int outputFieldCount, Operator downstream,
      RowErrors rowErrors) {
    super(downstream);
    this.calc = requireNonNull(calc, "calc");
    this.outputFieldCount = outputFieldCount;
    this.skipped = rowErrors.skips() ? rowErrors : null;
  }

  @Override public void startBatch(BatchContext batch) {
    out = null;
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    Object[] out = apply(row);
    if (out != null) {
      downstream.push(out);
    }
  }

  /**
   * Retracts the calc's output of {@code row}, if the row passes its condition: its addition
   * passed, or was dropped, the same way, by the same deterministic expressions.
   */
  @Override public void retract(Object[] row) {
    Object[] out = apply(row);
    if (out != null) {
      downstream.retract(out);
    }
  }

  /**
   * The calc's output of {@code row} in the batch's output array, or null if the row fails the
   * condition or, under a skipping row-error policy, its expressions fail (the row is counted).
   */
  private Object[] apply(Object[] row) {
    Object[] out = this.out;
    if (out == null) {
      out = this.out = new Object[outputFieldCount];
    }
    if (skipped == null) {
      return calc.apply(row, out) ? out : null;
    }
    try {
      return calc.apply(row, out) ? out : null;
    } catch (RuntimeException e) {
      // Deterministic: a batch that runs again drops the same rows.
      skipped.dropped(e);
      return null;
    }
  }
}

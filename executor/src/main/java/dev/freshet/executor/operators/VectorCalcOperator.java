package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.RowFailures;
import dev.freshet.executor.vector.VectorBatch;
import dev.freshet.executor.vector.VectorExpression;
import dev.freshet.executor.vector.VectorType;

/**
 * A filter and projections over vector batches: the columnar form of a {@link CalcOperator}.
 *
 * <pre>{@code
 * // WHERE n > 5, projecting n % 1000 and n
 * new VectorCalcOperator(greaterThan5, new VectorExpression[] {mod1000, n},
 *     new VectorType[] {VectorType.INT, VectorType.LONG}, RowErrors.failing(), aggregate);
 * }</pre>
 *
 * <p>The condition narrows the batch's selection; the projections are computed for the rows it
 * kept only, as the row path computes them only for rows that pass, and become the columns of an
 * output batch that shares the input's rows. A row whose projection fails (see
 * {@link RowFailures}) fails the batch with the row path's exception and message, or is dropped
 * and counted, as {@code rowErrors} says. The output batch and the failures are allocated by the
 * first batch, on the input task's thread.
 */
public final class VectorCalcOperator implements VectorOperator {
  private final VectorExpression condition;
  private final VectorExpression[] projections;
  private final VectorType[] outputTypes;
  private final VectorOperator downstream;
  /** Where a failing row is counted; null to fail the batch. */
  private final RowErrors skipped;
  private VectorBatch out;
  private RowFailures failures;

  /**
   * Creates the operator.
   *
   * @param condition a BOOLEAN expression; null to keep every row
   * @param projections the output columns' expressions
   * @param outputTypes their types
   * @param rowErrors fails the batch, or drops and counts a failing row
   * @param downstream receives the output batches
   */
  public VectorCalcOperator(VectorExpression condition, VectorExpression[] projections,
      VectorType[] outputTypes, RowErrors rowErrors, VectorOperator downstream) {
    if (condition != null && condition.type() != VectorType.BOOLEAN) {
      throw new IllegalArgumentException("a condition must be a BOOLEAN: " + condition.type());
    }
    this.condition = condition;
    this.projections = projections.clone();
    this.outputTypes = outputTypes.clone();
    this.downstream = requireNonNull(downstream, "downstream");
    this.skipped = rowErrors.skips() ? rowErrors : null;
  }

  /** In the batch being pushed, the first row that failed, or -1; and its message. */
  private int firstFailedRow;
  private String firstFailure;

  @Override public void push(VectorBatch in) {
    if (out == null || out.capacity() != in.capacity()) {
      out = VectorBatch.view(outputTypes, in.capacity());
      failures = new RowFailures(in.capacity());
    }
    firstFailedRow = -1;
    if (condition != null) {
      ColumnVector accepted = condition.evaluate(in, failures);
      if (failures.count() > 0) {
        dropFailures(in);
      }
      filter(in, accepted);
    }
    if (in.selectedCount() > 0) {
      for (int c = 0; c < projections.length; c++) {
        out.setColumn(c, projections[c].evaluate(in, failures));
      }
      if (failures.count() > 0) {
        dropFailures(in);
      }
    }
    if (firstFailedRow >= 0) {
      // The row path stops at the first row whose condition or projection fails.
      throw new ArithmeticException(firstFailure);
    }
    if (in.selectedCount() > 0) {
      out.shareRows(in);
      downstream.push(out);
    }
  }

  /** Keeps the selected rows whose condition is TRUE. */
  private static void filter(VectorBatch in, ColumnVector accepted) {
    int n = in.selectedCount();
    int[] sel = in.selection();
    boolean useSel = in.selectionInUse();
    long[] v = accepted.longs;
    int kept = 0;
    if (accepted.noNulls) {
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        sel[kept] = i;
        kept += (int) v[i];
      }
    } else {
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        if (!accepted.nulls[i] && v[i] == 1) {
          sel[kept++] = i;
        }
      }
    }
    in.select(kept);
  }

  /**
   * Takes the failed rows out of the selection: each dropped and counted, or, when failures
   * fail the batch, the first of them remembered, to be thrown once the batch's earlier rows
   * are known not to fail.
   */
  private void dropFailures(VectorBatch in) {
    int n = in.selectedCount();
    int[] sel = in.selection();
    boolean useSel = in.selectionInUse();
    int kept = 0;
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      if (failures.failed(i)) {
        if (skipped != null) {
          skipped.dropped(new ArithmeticException(failures.message(i)));
        } else if (firstFailedRow < 0 || i < firstFailedRow) {
          firstFailedRow = i;
          firstFailure = failures.message(i);
        }
      } else {
        sel[kept++] = i;
      }
    }
    in.select(kept);
    failures.clear();
  }
}

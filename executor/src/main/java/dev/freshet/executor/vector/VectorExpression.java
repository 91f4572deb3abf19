package dev.freshet.executor.vector;

/**
 * A kernel: computes one expression for every selected row of a {@link VectorBatch} at once, into
 * a vector it owns and reuses for every batch.
 *
 * <pre>{@code
 * VectorExpression k = VectorExpressions.arithmetic(ArithmeticOp.MOD,
 *     VectorExpressions.column(0, VectorType.LONG), VectorExpressions.literal(1000, VectorType.INT),
 *     VectorType.INT);                                   // n % 1000
 * ColumnVector keys = k.evaluate(batch, failures);       // keys.longs[row] for each selected row
 * }</pre>
 *
 * <p>Values of rows that are not selected are undefined. A tree of kernels belongs to one input
 * task: its vectors are allocated by its first batch, on the task's thread.
 */
public abstract class VectorExpression {
  private final VectorType type;
  private ColumnVector output;

  protected VectorExpression(VectorType type) {
    this.type = type;
  }

  /** The type of the values computed. */
  public final VectorType type() {
    return type;
  }

  /**
   * Computes the expression for the selected rows of {@code batch}.
   *
   * @param failures where rows whose value cannot be computed are recorded (their value is NULL)
   * @return the values; the expression's own vector or one of the batch's
   */
  public abstract ColumnVector evaluate(VectorBatch batch, RowFailures failures);

  /** Whether the expression can fail for a row (see {@link RowFailures}). */
  public boolean canFail() {
    return false;
  }

  /** This kernel's output vector, allocated at the first batch. */
  protected final ColumnVector output(VectorBatch batch) {
    ColumnVector out = output;
    if (out == null || out.capacity() < batch.capacity()) {
      out = output = ColumnVector.of(type, batch.capacity());
    }
    return out;
  }

  /**
   * Makes row {@code i} of {@code out} NULL, a row that failed; {@code noNulls} says whether
   * {@code out} had no NULL so far (then its mask is cleared first). Returns false, the new
   * {@code noNulls}.
   */
  protected static boolean markNull(VectorBatch batch, ColumnVector out, int i,
      boolean noNulls) {
    if (noNulls) {
      // The first NULL of the batch: the mask's old values go.
      java.util.Arrays.fill(out.nulls, 0, batch.size(), false);
      out.noNulls = false;
    }
    out.nulls[i] = true;
    return false;
  }

  /**
   * Makes the selected rows of {@code out} NULL where any of {@code inputs} is, as SQL's strict
   * operators are; returns whether no row is NULL, when the kernel can skip the mask.
   */
  protected static boolean propagateNulls(VectorBatch batch, ColumnVector out,
      ColumnVector a, ColumnVector b) {
    boolean aNulls = !a.noNulls;
    boolean bNulls = b != null && !b.noNulls;
    if (!aNulls && !bNulls) {
      out.noNulls = true;
      return true;
    }
    out.noNulls = false;
    int n = batch.selectedCount();
    int[] sel = batch.selection();
    boolean useSel = batch.selectionInUse();
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      out.nulls[i] = aNulls && a.nulls[i] || bNulls && b.nulls[i];
    }
    return false;
  }
}

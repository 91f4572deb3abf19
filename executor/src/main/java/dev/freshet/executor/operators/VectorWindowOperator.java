package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.VectorBatch;
import dev.freshet.executor.vector.VectorType;

/**
 * Assigns each row of a vector batch to its tumbling event-time window, appending
 * {@code window_start} and {@code window_end} columns: the columnar form of
 * {@link TimeWindowOperator} for windows whose slide is their size (a row is in exactly one).
 * Rows without event time are dropped from the selection, as the row operator drops them.
 *
 * <pre>{@code
 * new VectorWindowOperator(1, 10_000, 2, calc);   // TUMBLE(ts, INTERVAL '10' SECOND)
 * }</pre>
 */
public final class VectorWindowOperator implements VectorOperator {
  private final int eventTimeIndex;
  private final long sizeMs;
  private final int inputWidth;
  private final VectorOperator downstream;
  private VectorBatch out;
  private ColumnVector starts;
  private ColumnVector ends;

  /**
   * Creates the operator.
   *
   * @param eventTimeIndex the TIMESTAMP column (a long vector of milliseconds)
   * @param sizeMs the windows' size, positive
   * @param inputWidth number of input columns
   * @param downstream receives the input columns followed by window start and end
   */
  public VectorWindowOperator(int eventTimeIndex, long sizeMs, int inputWidth,
      VectorOperator downstream) {
    if (sizeMs <= 0) {
      throw new IllegalArgumentException("window size must be positive: " + sizeMs);
    }
    this.eventTimeIndex = eventTimeIndex;
    this.sizeMs = sizeMs;
    this.inputWidth = inputWidth;
    this.downstream = requireNonNull(downstream, "downstream");
  }

  @Override public void push(VectorBatch in) {
    if (out == null || out.capacity() != in.capacity()) {
      VectorType[] types = new VectorType[inputWidth + 2];
      for (int c = 0; c < inputWidth; c++) {
        types[c] = in.type(c);
      }
      types[inputWidth] = VectorType.LONG;
      types[inputWidth + 1] = VectorType.LONG;
      out = VectorBatch.view(types, in.capacity());
      starts = ColumnVector.ofLongs(in.capacity());
      ends = ColumnVector.ofLongs(in.capacity());
    }
    ColumnVector times = in.column(eventTimeIndex);
    int n = in.selectedCount();
    int[] sel = in.selection();
    boolean useSel = in.selectionInUse();
    if (!times.noNulls) {
      int kept = 0;
      for (int j = 0; j < n; j++) {
        int i = useSel ? sel[j] : j;
        if (!times.nulls[i]) {
          sel[kept++] = i;
        }
      }
      in.select(kept);
      n = kept;
      useSel = true;
    }
    long[] t = times.longs;
    long[] s = starts.longs;
    long[] e = ends.longs;
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      long start = t[i] - Math.floorMod(t[i], sizeMs);
      s[i] = start;
      e[i] = start + sizeMs;
    }
    for (int c = 0; c < inputWidth; c++) {
      out.setColumn(c, in.column(c));
    }
    out.setColumn(inputWidth, starts);
    out.setColumn(inputWidth + 1, ends);
    out.shareRows(in);
    if (n > 0) {
      downstream.push(out);
    }
  }
}

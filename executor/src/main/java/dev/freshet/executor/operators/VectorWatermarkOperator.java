package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.VectorBatch;

/**
 * Observes the event time of every row of a vector batch for the watermark, and passes the batch
 * on: the columnar form of {@link EventTimeWatermarkOperator}, feeding the watermark of its input
 * task's row operator, which folds it into the query's watermark as the batch finishes.
 *
 * <pre>{@code
 * new VectorWatermarkOperator(1, taskWatermark, calc);   // column 1 is the TIMESTAMP
 * }</pre>
 */
public final class VectorWatermarkOperator implements VectorOperator {
  private final int eventTimeIndex;
  private final EventTimeWatermarkOperator watermark;
  private final VectorOperator downstream;

  /**
   * Creates the operator.
   *
   * @param eventTimeIndex the TIMESTAMP column (a long vector of milliseconds)
   * @param watermark the row operator of the same node and input task
   * @param downstream receives every batch
   */
  public VectorWatermarkOperator(int eventTimeIndex, EventTimeWatermarkOperator watermark,
      VectorOperator downstream) {
    this.eventTimeIndex = eventTimeIndex;
    this.watermark = requireNonNull(watermark, "watermark");
    this.downstream = requireNonNull(downstream, "downstream");
  }

  @Override public void push(VectorBatch batch) {
    ColumnVector times = batch.column(eventTimeIndex);
    int n = batch.selectedCount();
    boolean useSel = batch.selectionInUse();
    int[] sel = batch.selection();
    long max = Long.MIN_VALUE;
    boolean seen = false;
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      if (!times.isNull(i)) {
        max = Math.max(max, times.longs[i]);
        seen = true;
      }
    }
    if (seen) {
      watermark.observe(max);
    }
    downstream.push(batch);
  }
}

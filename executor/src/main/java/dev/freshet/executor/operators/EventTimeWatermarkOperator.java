package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * Pass-through operator that observes the event time of every row, for the watermark: Spark's
 * {@code EventTimeWatermarkExec}.
 *
 * <p>It sits right above the source, so every row counts, including rows that a filter or the late
 * data check drops later. It never filters.
 */
public final class EventTimeWatermarkOperator implements Operator {
  private final int eventTimeIndex;
  private final long delayMs;
  private final Operator downstream;
  /** Largest event time (ms) seen in the current batch, or {@code Long.MIN_VALUE}. */
  private long batchMaxEventTime = Long.MIN_VALUE;
  /** This node's watermark; it never moves back. 0 until a row with event time was seen. */
  private long watermarkMs;

  /**
   * Creates the operator.
   *
   * @param eventTimeIndex the TIMESTAMP column (a {@code Long} of milliseconds) carrying event time
   * @param delayMs how late rows may arrive
   * @param downstream receives every row
   */
  public EventTimeWatermarkOperator(int eventTimeIndex, long delayMs, Operator downstream) {
    this.eventTimeIndex = eventTimeIndex;
    this.delayMs = delayMs;
    this.downstream = requireNonNull(downstream, "downstream");
  }

  @Override public void startBatch(BatchContext batch) {
    batchMaxEventTime = Long.MIN_VALUE;
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    Object ts = row[eventTimeIndex];
    if (ts != null) {
      long t = (Long) ts;
      if (t > batchMaxEventTime) {
        batchMaxEventTime = t;
      }
    }
    downstream.push(row);
  }

  @Override public void finishBatch(BatchContext batch) {
    if (batchMaxEventTime != Long.MIN_VALUE) {
      watermarkMs = Math.max(watermarkMs, batchMaxEventTime - delayMs);
    }
    downstream.finishBatch(batch);
  }

  @Override public void abortBatch(BatchContext batch) {
    batchMaxEventTime = Long.MIN_VALUE;
    downstream.abortBatch(batch);
  }

  /** This node's watermark after the batches finished so far. */
  public long watermarkMs() {
    return watermarkMs;
  }

  /** Restores the watermark recovered from a checkpoint; it never moves back. */
  public void advanceTo(long watermark) {
    watermarkMs = Math.max(watermarkMs, watermark);
  }

  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    return downstream.needsNoDataBatch(newWatermarkMs);
  }
}

package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

/**
 * Pass-through operator that observes the event time of every row, for the watermark: Spark's
 * {@code EventTimeWatermarkExec}.
 *
 * <p>It sits right above the source, so every row counts, including rows that a filter or the late
 * data check drops later. It never filters.
 *
 * <p>When a batch is read by several input tasks, each task's copy of the pipeline has a
 * {@link #copy} of this operator: the copies see their own rows and fold the largest event time
 * into one shared watermark as their batch finishes (the runtime finishes them on one thread).
 */
public final class EventTimeWatermarkOperator implements Operator {
  private final int eventTimeIndex;
  private final long delayMs;
  private final Operator downstream;
  /**
   * Largest event time seen in the current batch; null until the batch's first row, which
   * allocates it on the thread pushing it (see {@link Operator}).
   */
  private MaxEventTime batchMax;
  /** This node's watermark, shared with its copies; it never moves back. */
  private final Watermark watermark;

  /** A watermark in ms: 0 until a row with event time was seen. */
  private static final class Watermark {
    long ms;
  }

  /** The largest event time (ms) of a batch so far, or {@code Long.MIN_VALUE}. */
  private static final class MaxEventTime {
    long ms = Long.MIN_VALUE;
  }

  /**
   * Creates the operator.
   *
   * @param eventTimeIndex the TIMESTAMP column (a {@code Long} of milliseconds) carrying event time
   * @param delayMs how late rows may arrive
   * @param downstream receives every row
   */
  public EventTimeWatermarkOperator(int eventTimeIndex, long delayMs, Operator downstream) {
    this(eventTimeIndex, delayMs, downstream, new Watermark());
  }

  private EventTimeWatermarkOperator(int eventTimeIndex, long delayMs, Operator downstream,
      Watermark watermark) {
    this.eventTimeIndex = eventTimeIndex;
    this.delayMs = delayMs;
    this.downstream = requireNonNull(downstream, "downstream");
    this.watermark = watermark;
  }

  /**
   * Returns an operator that observes another input task's rows for this node's watermark and
   * pushes them to {@code downstream}.
   */
  public EventTimeWatermarkOperator copy(Operator downstream) {
    return new EventTimeWatermarkOperator(eventTimeIndex, delayMs, downstream, watermark);
  }

  @Override public void startBatch(BatchContext batch) {
    batchMax = null;
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    MaxEventTime max = batchMax;
    if (max == null) {
      max = batchMax = new MaxEventTime();
    }
    Object ts = row[eventTimeIndex];
    if (ts != null) {
      long t = (Long) ts;
      if (t > max.ms) {
        max.ms = t;
      }
    }
    downstream.push(row);
  }

  /**
   * Observes the largest event time of rows this operator's input task read as vector batches
   * (see {@link VectorWatermarkOperator}), as if they had been pushed here.
   */
  void observe(long eventTimeMs) {
    MaxEventTime max = batchMax;
    if (max == null) {
      max = batchMax = new MaxEventTime();
    }
    if (eventTimeMs > max.ms) {
      max.ms = eventTimeMs;
    }
  }

  @Override public void finishBatch(BatchContext batch) {
    if (batchMax != null && batchMax.ms != Long.MIN_VALUE) {
      watermark.ms = Math.max(watermark.ms, batchMax.ms - delayMs);
    }
    batchMax = null;
    downstream.finishBatch(batch);
  }

  @Override public void abortBatch(BatchContext batch) {
    batchMax = null;
    downstream.abortBatch(batch);
  }

  /** This node's watermark after the batches finished so far. */
  public long watermarkMs() {
    return watermark.ms;
  }

  /** Restores the watermark recovered from a checkpoint; it never moves back. */
  public void advanceTo(long watermark) {
    this.watermark.ms = Math.max(this.watermark.ms, watermark);
  }

  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    return downstream.needsNoDataBatch(newWatermarkMs);
  }
}

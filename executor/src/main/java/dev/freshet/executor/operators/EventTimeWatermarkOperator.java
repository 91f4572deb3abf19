package dev.freshet.executor.operators;

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
 *
 * <p><b>Idle timeout.</b> With {@code idleTimeoutMs > 0} (the stream's
 * {@code 'watermark.idle-timeout'}), once no row has reached this operator for that long, its
 * watermark may follow the clock: {@link #watermarkAt} is then the processing time minus the
 * delay, never less than the watermark so far. The runtime advances it ({@link #advanceIdle})
 * only in a batch that it records in the offset log, so that windows close when the data stops
 * and a restart replays the same batches. A row whose event time is before the advanced
 * watermark is late, as any other.
 *
 * <pre>{@code
 * EventTimeWatermarkOperator w = new EventTimeWatermarkOperator(2, 5_000, 30_000, downstream);
 * w.watermarkAt(now);   // max(watermark, now - 5 s) once no row came for 30 s
 * }</pre>
 */
public final class EventTimeWatermarkOperator extends ForwardingOperator {
  private final int eventTimeIndex;
  private final long delayMs;
  /** How long without rows before the watermark follows the clock; 0: never. */
  private final long idleTimeoutMs;
  /**
   * Largest event time seen in the current batch; null until the batch's first row, which
   * allocates it on the thread pushing it (see {@link Operator}).
   */
  private MaxEventTime batchMax;
  /** This node's watermark, shared with its copies; it never moves back. */
  private final Watermark watermark;

  /**
   * A watermark in ms: 0 until a row with event time was seen; and the processing time of the
   * last batch that had rows (or of the run's start), for the idle timeout.
   */
  private static final class Watermark {
    long ms;
    long lastRowsAtMs;
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
    this(eventTimeIndex, delayMs, 0, downstream);
  }

  /**
   * Creates the operator of a stream with an idle timeout.
   *
   * @param eventTimeIndex the TIMESTAMP column (a {@code Long} of milliseconds) carrying event time
   * @param delayMs how late rows may arrive
   * @param idleTimeoutMs how long without rows before the watermark follows the clock; 0: never
   * @param downstream receives every row
   */
  public EventTimeWatermarkOperator(int eventTimeIndex, long delayMs, long idleTimeoutMs,
      Operator downstream) {
    this(eventTimeIndex, delayMs, idleTimeoutMs, downstream, new Watermark());
  }

  private EventTimeWatermarkOperator(int eventTimeIndex, long delayMs, long idleTimeoutMs,
      Operator downstream, Watermark watermark) {
    super(downstream);
    if (idleTimeoutMs < 0) {
      throw new IllegalArgumentException("idle timeout must not be negative: " + idleTimeoutMs);
    }
    this.eventTimeIndex = eventTimeIndex;
    this.delayMs = delayMs;
    this.idleTimeoutMs = idleTimeoutMs;
    this.watermark = watermark;
  }

  /**
   * Returns an operator that observes another input task's rows for this node's watermark and
   * pushes them to {@code downstream}.
   */
  public EventTimeWatermarkOperator copy(Operator downstream) {
    return new EventTimeWatermarkOperator(eventTimeIndex, delayMs, idleTimeoutMs, downstream,
        watermark);
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
    if (batchMax != null) {
      // Rows came, whatever their event time: the stream is not idle.
      watermark.lastRowsAtMs = Math.max(watermark.lastRowsAtMs, batch.batchTimestampMs());
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

  /** How long without rows before the watermark follows the clock; 0: never. */
  public long idleTimeoutMs() {
    return idleTimeoutMs;
  }

  /**
   * Starts the idle clock at {@code nowMs}, as if rows had come then: when a query starts, the
   * time of the rows before it is not known, so the timeout counts from the start.
   */
  public void startIdleClock(long nowMs) {
    watermark.lastRowsAtMs = Math.max(watermark.lastRowsAtMs, nowMs);
  }

  /**
   * The watermark a batch starting at {@code nowMs} would have: once the stream has been idle
   * for the timeout, the processing time minus the delay, never less than {@link #watermarkMs};
   * otherwise {@link #watermarkMs}.
   */
  public long watermarkAt(long nowMs) {
    if (idleTimeoutMs == 0 || nowMs - watermark.lastRowsAtMs < idleTimeoutMs) {
      return watermark.ms;
    }
    return Math.max(watermark.ms, nowMs - delayMs);
  }

  /**
   * Milliseconds from {@code nowMs} until the stream is idle, 0 if it is, or
   * {@link Long#MAX_VALUE} without an idle timeout.
   */
  public long millisUntilIdle(long nowMs) {
    if (idleTimeoutMs == 0) {
      return Long.MAX_VALUE;
    }
    return Math.max(0, watermark.lastRowsAtMs + idleTimeoutMs - nowMs);
  }

  /** Advances the watermark to {@link #watermarkAt}{@code (nowMs)}, for a batch at that time. */
  public void advanceIdle(long nowMs) {
    watermark.ms = watermarkAt(nowMs);
  }
}

package dev.freshet.executor.operators;

/**
 * What a streaming query writes to its sink after each micro-batch, as in Spark Structured Streaming.
 *
 * <p>For {@code SELECT STREAM k, COUNT(*) FROM s GROUP BY k}:
 * {@link #UPDATE} emits one row per key changed by the batch, {@link #COMPLETE} the whole result,
 * and {@link #APPEND} only groups that can no longer change (it needs a watermark).
 *
 * <p>It belongs to the operators because {@link StatefulAggregateOperator} decides by it what to
 * emit; the planner and the runtime only pass it on.
 */
public enum OutputMode {
  /** Only rows that will never change again: finalized groups, or every row of a stateless query. */
  APPEND,
  /** Rows changed by the batch: one row per key touched, with its merged value. */
  UPDATE,
  /** The whole result after every batch. */
  COMPLETE;

  /** Returns the display name used in plans and messages, e.g. {@code Update}. */
  public String displayName() {
    String n = name();
    return n.charAt(0) + n.substring(1).toLowerCase(java.util.Locale.ROOT);
  }
}

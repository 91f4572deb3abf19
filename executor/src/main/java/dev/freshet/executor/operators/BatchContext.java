package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.QueryResources;

/**
 * Identity and watermarks of the micro-batch being executed.
 *
 * <p>Batch {@code N} reads state version {@code N} and commits version {@code N + 1}. As in Spark,
 * a batch drops input whose event time is at or before the watermark of the previous batch
 * ({@code lateEventsWatermarkMs}) and evicts state whose event time is at or before its own
 * watermark ({@code evictionWatermarkMs}); both are 0 until event time has been seen.
 *
 * @param batchId the batch id, 0 for the first batch of a query
 * @param batchTimestampMs the processing time of the batch, fixed when the batch is planned
 * @param lateEventsWatermarkMs rows at or before this event time are late
 * @param evictionWatermarkMs state at or before this event time is final
 * @param resources the query's cancellation flag and memory budget, which busy operators check
 *     every so many rows
 */
public record BatchContext(long batchId, long batchTimestampMs, long lateEventsWatermarkMs,
    long evictionWatermarkMs, QueryResources resources) {
  /** The resources of a batch that nothing limits or cancels. */
  private static final QueryResources UNLIMITED = QueryResources.unlimited("batch");

  /** Watermark of a bounded query, which reads everything at once: nothing is late or final. */
  public static final long NO_WATERMARK = Long.MIN_VALUE;

  public BatchContext {
    requireNonNull(resources, "resources");
    if (batchId < 0) {
      throw new IllegalArgumentException("batchId must not be negative: " + batchId);
    }
  }

  /** A batch without limits and that nothing cancels. */
  public BatchContext(long batchId, long batchTimestampMs, long lateEventsWatermarkMs,
      long evictionWatermarkMs) {
    this(batchId, batchTimestampMs, lateEventsWatermarkMs, evictionWatermarkMs, UNLIMITED);
  }

  /** A batch before any event time was seen: watermarks 0, as in Spark. */
  public BatchContext(long batchId, long batchTimestampMs) {
    this(batchId, batchTimestampMs, 0, 0);
  }

  /** The state version that this batch reads. */
  public long stateVersion() {
    return batchId;
  }
}

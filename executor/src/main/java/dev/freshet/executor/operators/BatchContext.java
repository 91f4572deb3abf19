package dev.freshet.executor.operators;

/**
 * Identity of the micro-batch being executed.
 *
 * <p>Batch {@code N} reads state version {@code N} and commits version {@code N + 1}.
 *
 * @param batchId the batch id, 0 for the first batch of a query
 * @param batchTimestampMs the processing time of the batch, fixed when the batch is planned
 */
public record BatchContext(long batchId, long batchTimestampMs) {
  public BatchContext {
    if (batchId < 0) {
      throw new IllegalArgumentException("batchId must not be negative: " + batchId);
    }
  }

  /** The state version that this batch reads. */
  public long stateVersion() {
    return batchId;
  }
}

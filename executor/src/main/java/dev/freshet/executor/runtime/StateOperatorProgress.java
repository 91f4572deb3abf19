package dev.freshet.executor.runtime;

/**
 * What one stateful operator did in one batch, with the names of Spark's
 * {@code StateOperatorProgress}, and what bounds its state.
 *
 * @param operatorName e.g. {@code stateStoreSave}
 * @param numRowsTotal keys in state after the batch
 * @param numRowsUpdated keys written by the batch
 * @param numRowsRemoved keys evicted by the watermark or expired by the state TTL
 * @param numRowsDroppedByWatermark late partial groups dropped (one per key and batch)
 * @param numShufflePartitions state partitions
 * @param kind what state it keeps, e.g. {@code aggregation}, {@code join} (see
 *     {@link dev.freshet.executor.operators.StatefulOperator#stateKind()})
 * @param bound {@code BOUNDED BY WATERMARK}, {@code BOUNDED BY TTL} or {@code UNBOUNDED}
 * @param stateBytes an estimate of the heap its state takes
 */
public record StateOperatorProgress(String operatorName, long numRowsTotal, long numRowsUpdated,
    long numRowsRemoved, long numRowsDroppedByWatermark, int numShufflePartitions, String kind,
    String bound, long stateBytes) {
  /** The progress of an operator whose kind and bound are not known (e.g. run on Spark). */
  public StateOperatorProgress(String operatorName, long numRowsTotal, long numRowsUpdated,
      long numRowsRemoved, long numRowsDroppedByWatermark, int numShufflePartitions) {
    this(operatorName, numRowsTotal, numRowsUpdated, numRowsRemoved, numRowsDroppedByWatermark,
        numShufflePartitions, operatorName, "UNKNOWN", 0);
  }
}

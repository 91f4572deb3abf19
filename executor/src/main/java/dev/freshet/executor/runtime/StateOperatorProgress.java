package dev.freshet.executor.runtime;

/**
 * What one stateful operator did in one batch, with the names of Spark's
 * {@code StateOperatorProgress}.
 *
 * @param operatorName e.g. {@code stateStoreSave}
 * @param numRowsTotal keys in state after the batch
 * @param numRowsUpdated keys written by the batch
 * @param numRowsRemoved keys evicted by the watermark
 * @param numRowsDroppedByWatermark late partial groups dropped (one per key and batch)
 * @param numShufflePartitions state partitions
 */
public record StateOperatorProgress(String operatorName, long numRowsTotal, long numRowsUpdated,
    long numRowsRemoved, long numRowsDroppedByWatermark, int numShufflePartitions) {
}

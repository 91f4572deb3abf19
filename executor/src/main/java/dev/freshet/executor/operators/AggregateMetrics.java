package dev.freshet.executor.operators;

/**
 * Counters of a stateful aggregation for the last batch, named as in Spark's state operator progress.
 */
public final class AggregateMetrics {
  long numOutputRows;
  long numUpdatedStateRows;
  long numTotalStateRows;
  long numRemovedStateRows;
  long numRowsDroppedByWatermark;
  long partialAggregateProbes;

  void reset() {
    numOutputRows = 0;
    numUpdatedStateRows = 0;
    numTotalStateRows = 0;
    numRemovedStateRows = 0;
    numRowsDroppedByWatermark = 0;
    partialAggregateProbes = 0;
  }

  /** Keys removed from state because the watermark passed them. */
  public long numRemovedStateRows() {
    return numRemovedStateRows;
  }

  /** Partial groups dropped as late (one per key and batch, as in Spark). */
  public long numRowsDroppedByWatermark() {
    return numRowsDroppedByWatermark;
  }

  /** Rows emitted downstream. */
  public long numOutputRows() {
    return numOutputRows;
  }

  /** Keys written to state. */
  public long numUpdatedStateRows() {
    return numUpdatedStateRows;
  }

  /** Keys in state after the commit, over all partitions. */
  public long numTotalStateRows() {
    return numTotalStateRows;
  }

  /**
   * Slots the batch's partial aggregation looked at in its hash tables beyond the first of each
   * lookup: a few per row when the keys' hashes spread, and the square of the number of groups
   * if they all collided. Not one of Spark's metrics; for tests, which cannot time work.
   */
  public long partialAggregateProbes() {
    return partialAggregateProbes;
  }
}

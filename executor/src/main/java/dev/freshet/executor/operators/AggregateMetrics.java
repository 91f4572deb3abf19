package dev.freshet.executor.operators;

/**
 * Counters of a stateful aggregation for the last batch, named as in Spark's state operator progress.
 */
public final class AggregateMetrics {
  long numOutputRows;
  long numUpdatedStateRows;
  long numTotalStateRows;

  void reset() {
    numOutputRows = 0;
    numUpdatedStateRows = 0;
    numTotalStateRows = 0;
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
}

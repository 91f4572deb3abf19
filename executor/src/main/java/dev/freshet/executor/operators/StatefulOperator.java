package dev.freshet.executor.operators;

/**
 * An operator that keeps state in state stores: what the runtime needs to report its progress and
 * to release its stores when the query stops.
 *
 * <pre>{@code
 * for (StatefulOperator op : pipeline.statefulOperators()) {
 *   StateMetrics m = op.stateMetrics();
 *   progress.add(new StateOperatorProgress(op.operatorName(), m.numTotalStateRows(),
 *       m.numUpdatedStateRows(), m.numRemovedStateRows(), m.numRowsDroppedByWatermark(),
 *       op.numPartitions()));
 * }
 * }</pre>
 */
public interface StatefulOperator extends Operator {
  /** Spark's short name of the operator in progress reports, e.g. {@code stateStoreSave}. */
  String operatorName();

  /** What the last batch did. */
  StateMetrics stateMetrics();

  /** Number of state partitions. */
  int numPartitions();

  /** Closes the state store providers; the operator is not used afterwards. */
  void closeStores();

  /**
   * What kind of state it keeps, as {@code sys.state_operators} names it: {@code aggregation},
   * {@code window aggregation}, {@code session window}, {@code join}, {@code deduplication} or
   * {@code top-n}.
   */
  default String stateKind() {
    return operatorName();
  }

  /** What bounds its state: the watermark, its TTL, or nothing. */
  default StateBound stateBound() {
    return StateBound.UNBOUNDED;
  }

  /**
   * Makes keys not written for {@code ttlMs} of processing time expire (see {@link StateExpiry});
   * called before the first batch, 0 for none. An operator that cannot expire its keys (a
   * session window, which the watermark closes) keeps them, and its {@link #stateBound()} says
   * what bounds them.
   */
  default void expireStateAfter(long ttlMs) {
  }

  /**
   * The processing time at which keys may expire, so that a batch should run even without new
   * data: {@link Long#MAX_VALUE} for never (see {@link StateExpiry#nextExpiryMs()}).
   */
  default long nextExpiryMs() {
    return Long.MAX_VALUE;
  }

  /** An estimate of the heap its state takes after the last batch, in bytes. */
  default long stateBytes() {
    return 0;
  }
}

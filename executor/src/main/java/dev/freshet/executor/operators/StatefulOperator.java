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
}

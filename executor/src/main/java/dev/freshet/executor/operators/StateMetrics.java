package dev.freshet.executor.operators;

/**
 * What one stateful operator did in its last batch, with the names of Spark's state operator
 * progress; the same record for every kind of stateful operator, so that the runtime reports them
 * alike.
 *
 * <pre>{@code
 * StateMetrics m = operator.stateMetrics();
 * progress.add(new StateOperatorProgress(operator.operatorName(), m.numTotalStateRows(), ...));
 * }</pre>
 *
 * @param numOutputRows rows emitted downstream
 * @param numTotalStateRows state rows after the commit, over all partitions
 * @param numUpdatedStateRows state rows written
 * @param numRemovedStateRows state rows the watermark removed
 * @param numRowsDroppedByWatermark input dropped as late
 */
public record StateMetrics(long numOutputRows, long numTotalStateRows, long numUpdatedStateRows,
    long numRemovedStateRows, long numRowsDroppedByWatermark) {
}

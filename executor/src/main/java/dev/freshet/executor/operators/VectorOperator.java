package dev.freshet.executor.operators;

import dev.freshet.executor.vector.VectorBatch;

/**
 * One step of an input task's columnar pipeline: takes the selected rows of a {@link VectorBatch}
 * at once, as an {@link Operator} takes one row.
 *
 * <pre>{@code
 * VectorOperator aggregate = aggregation.vectorInput(0, inputTypes);
 * VectorOperator calc = new VectorCalcOperator(null, projections, types, rowErrors, aggregate);
 * source.readVectors(start, end, batch, calc::push);
 * }</pre>
 *
 * <p>A columnar pipeline has no batch lifecycle of its own: it feeds a
 * {@link StatefulAggregateOperator}, which the runtime starts and finishes through the row
 * pipeline of task 0, and which merges what its vector inputs gathered with its other partial
 * aggregates. Batches are only valid during the call; an operator may narrow the selection of
 * the batch it is given.
 */
public interface VectorOperator {
  /** Processes the selected rows of {@code batch}. */
  void push(VectorBatch batch);
}

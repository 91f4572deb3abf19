package dev.freshet.executor.operators;

/**
 * One step of a micro-batch pipeline; rows are pushed through a chain of operators.
 *
 * <p>For every micro-batch the runtime calls {@link #startBatch}, then {@link #push} once per row,
 * then {@link #finishBatch}. An operator forwards each call to its downstream operator, after doing
 * its own work: a stateful operator emits its output rows during {@code finishBatch}.
 *
 * <p>Rows passed to {@code push} are only valid during the call: an operator that keeps a row
 * must copy it, so that upstream operators may reuse their output arrays.
 */
public interface Operator {
  /** Starts a micro-batch. */
  void startBatch(BatchContext batch);

  /** Processes one row of the current batch. */
  void push(Object[] row);

  /** Ends the current micro-batch; stateful operators commit their state here. */
  void finishBatch(BatchContext batch);

  /** Gives up the current batch after a failure; stateful operators abort their stores. */
  default void abortBatch(BatchContext batch) {
  }

  /**
   * Whether a batch without new data should run because the watermark advanced to
   * {@code newWatermarkMs}: true when a stateful operator would then evict or finalize state.
   */
  default boolean needsNoDataBatch(long newWatermarkMs) {
    return false;
  }
}

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
 *
 * <p>A batch's rows may be pushed by several input tasks at once, each into its own copy of the
 * operators below an aggregation. What an operator writes for every row (a reused output array, a
 * running maximum) it therefore allocates on the pushing thread, at the batch's first row, not in
 * its constructor or {@code startBatch}: objects allocated by one thread, or moved by a garbage
 * collection, lie side by side, and two threads writing one cache line for every row run at
 * half speed.
 */
public interface Operator {
  /** Starts a micro-batch. */
  void startBatch(BatchContext batch);

  /** Processes one row of the current batch. */
  void push(Object[] row);

  /**
   * Takes back one row pushed in this or an earlier batch: the input reads the changes of a view,
   * whose updated or deleted rows retract their old values ({@link ChangelogInput}). Row-by-row
   * operators forward the retraction as they would the row; an aggregation over a retracting
   * input inverts it. The planner lets only those read a retracting input, so the default
   * refuses.
   *
   * <pre>{@code
   * calc.retract(oldRow);   // the calc's output of oldRow is retracted downstream
   * }</pre>
   */
  default void retract(Object[] row) {
    throw new UnsupportedOperationException(getClass().getSimpleName()
        + " cannot take back a row: only calcs and an aggregation read a view's changes");
  }

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

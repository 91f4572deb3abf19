package dev.freshet.executor.runtime;

import java.util.List;

/**
 * Destination of a streaming query's output, handed the rows of each micro-batch.
 *
 * <p>A batch id is handed over at most once per run of a query; a sink that outlives restarts must
 * ignore a batch id it already has, which is what makes the output exactly-once.
 */
public interface Sink {
  /**
   * Takes the output rows of batch {@code batchId}; the sink owns the rows afterwards.
   * Called from the query's batch thread.
   */
  void addBatch(long batchId, List<Object[]> rows);

  /**
   * Called once batch {@code batchId}'s commit is durable ({@code commits/N} written, for a query
   * with a checkpoint), after {@link #addBatch}: what a sink shows readers only once no crash can
   * make the batch run again goes here. Called from the query's batch thread.
   */
  default void batchCommitted(long batchId) {
  }

  /** A short description for progress reports, e.g. {@code MaterializedView[V]}. */
  default String description() {
    return getClass().getSimpleName();
  }

  /**
   * Called on the batch thread before a query that failed with a recoverable error resumes from
   * its checkpoint ({@link RestartStrategy}): a sink whose connections may be broken opens them
   * again here. The batch that failed was not committed, so it is handed over again.
   *
   * @throws RuntimeException if the target is still unreachable: the attempt failed, and the
   *     query waits for the next one
   */
  default void restart() {
  }

  /**
   * Called once when the query stops, with the error that stopped it, or null if it was stopped
   * on request.
   */
  default void queryTerminated(Throwable error) {
  }
}

package dev.freshet.executor.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * What runs a continuous query's batches, as Spark's {@code StreamExecution}: Freshet's own
 * {@link MicroBatchExecution}, or another engine's (Spark's, in {@code engine-spark}). The engine
 * registers, shows and stops queries through this, whichever runs them.
 *
 * <pre>{@code
 * StreamExecution execution = MicroBatchExecution.builder(id, name, pipeline, sink).build();
 * execution.start();
 * execution.lastProgress().map(StreamingQueryProgress::numInputRows);
 * }</pre>
 */
public interface StreamExecution extends StreamingQuery {
  /** Starts running batches; returns at once. */
  StreamingQuery start();

  /**
   * Waits until the query has stopped, by itself, on request or by failure.
   *
   * @return whether it stopped within {@code timeout}
   */
  boolean awaitTermination(Duration timeout) throws InterruptedException;

  /** The progress of the last batch, if one ran. */
  Optional<StreamingQueryProgress> lastProgress();

  /**
   * Whether batches are read as vector batches (Freshet's columnar path), not as rows; false for
   * an engine that reads its own way.
   */
  default boolean readsVectors() {
    return false;
  }

  /**
   * The number of the restart the query is in or waits for ({@link QueryStatus#RESTARTING}):
   * restarts since its last committed batch, 0 while batches commit. See
   * {@link RestartStrategy}.
   */
  default int restartAttempt() {
    return 0;
  }

  /** Restarts since the query started, also those it recovered from. */
  default long restarts() {
    return 0;
  }

  /**
   * The most recent failure: the one the query is restarting from, the one it failed with, or
   * the last one it recovered from; empty if none.
   */
  default Optional<Throwable> lastFailure() {
    return exception();
  }
}

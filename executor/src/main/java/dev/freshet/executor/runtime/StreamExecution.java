package dev.freshet.executor.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * What runs a continuous query's batches, as Spark's {@code StreamExecution}: Freshet's own
 * {@link MicroBatchExecution}, or another engine's (Spark's, in {@code engine-spark}). The engine
 * registers, shows and stops queries through this, whichever runs them.
 *
 * <pre>{@code
 * StreamExecution execution = new MicroBatchExecution(...);
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
}

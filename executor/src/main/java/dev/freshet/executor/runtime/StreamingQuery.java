package dev.freshet.executor.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * Handle of a running continuous query.
 *
 * <pre>{@code
 * StreamingQuery q = execution.start();
 * q.processAllAvailable();   // wait until every row available now has been processed
 * q.stop();
 * }</pre>
 */
public interface StreamingQuery {
  /** Stable id of the query. */
  String id();

  /** Name given by the user, or the id. */
  String name();

  /** Current status. */
  QueryStatus status();

  /** Id of the last batch that completed, or -1 if none. */
  long lastBatchId();

  /** The error that stopped the query, if any. */
  Optional<Throwable> exception();

  /**
   * Blocks until every row that sources had when this method was called has been processed, or the
   * query stopped.
   *
   * @return whether that data was processed (false if the query stopped first or time ran out)
   */
  boolean processAllAvailable(Duration timeout) throws InterruptedException;

  /** The progress of the most recent batches, oldest first (at most 100). */
  java.util.List<StreamingQueryProgress> recentProgress();

  /** Every batch of this run added up: unlike {@link #recentProgress()}, none left out. */
  ProgressTotals progressTotals();

  /** Stops the query and waits for its batch thread to end; idempotent. */
  void stop();
}

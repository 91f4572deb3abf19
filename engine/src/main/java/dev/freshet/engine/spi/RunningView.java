package dev.freshet.engine.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * A view's query on another engine, as its {@link ViewRunner} prepared it: started, watched and
 * stopped by Freshet's engine, which registers and lists it as one of its own queries (its
 * progress reaches the engine through the job's {@link ViewProgressListener}), plus the
 * engine's own plan for EXPLAIN.
 *
 * <pre>{@code
 * RunningView running = runner.prepare(job);
 * running.start();
 * running.explain();   // e.g. Spark's physical plan with StateStoreRestore/StateStoreSave
 * }</pre>
 */
public interface RunningView {
  /** The engine that runs it, as views name it in {@code WITH ('engine' = ...)}. */
  String engine();

  /**
   * Starts the query on the engine, resuming from its checkpoint if it has one; returns at once.
   *
   * @throws IllegalStateException with the SQLException (e.g. 42KDE) as its cause if the engine
   *     refuses the query
   */
  void start();

  /** Where the query stands. */
  ViewStatus status();

  /**
   * The last batch the query ran, or, before its first in this run, the last one its view
   * applied; -1 if none.
   */
  long lastBatchId();

  /** Why the query failed (an SQLException with the SQLSTATE of the failed batch), if it did. */
  Optional<Throwable> exception();

  /**
   * Waits, at most {@code timeout}, until the engine has run every batch that the data available
   * now calls for, and reported their progress.
   *
   * @return whether it did (false if the query stopped or failed first or time ran out)
   */
  boolean processAllAvailable(Duration timeout) throws InterruptedException;

  /**
   * Waits until the query has stopped, on request or by failure.
   *
   * @return whether it stopped within {@code timeout}
   */
  boolean awaitTermination(Duration timeout) throws InterruptedException;

  /** The engine's physical plan of the query, as text; what it would run if not started yet. */
  String explain();

  /** Stops the query (its checkpoint stays, to resume from) and releases what it holds. */
  void stop();

  /**
   * Deletes the engine's checkpoint of the query: its view was dropped. Only after
   * {@link #stop()}.
   */
  void deleteCheckpoint();
}

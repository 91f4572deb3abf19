package dev.freshet.engine.spi;

import dev.freshet.executor.runtime.StreamExecution;

/**
 * A view's query on another engine: registered, listed and stopped like a query Freshet's own
 * executor runs ({@link StreamExecution}), plus the engine's own plan for EXPLAIN.
 *
 * <pre>{@code
 * RunningView running = runner.prepare(job);
 * running.start();
 * running.explain();   // e.g. Spark's physical plan with StateStoreRestore/StateStoreSave
 * }</pre>
 */
public interface RunningView extends StreamExecution {
  /** The engine that runs it, as views name it in {@code WITH ('engine' = ...)}. */
  String engine();

  /** The engine's physical plan of the query, as text; what it would run if not started yet. */
  String explain();

  /**
   * Deletes the engine's checkpoint of the query: its view was dropped. Only after
   * {@link #stop()}.
   */
  void deleteCheckpoint();
}

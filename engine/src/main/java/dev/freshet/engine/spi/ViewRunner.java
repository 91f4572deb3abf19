package dev.freshet.engine.spi;

import java.sql.SQLException;

/**
 * Runs materialized views' queries on another engine for one Freshet engine; Freshet keeps the
 * views' results, which the runner feeds batch by batch ({@link ViewBatchSink}).
 *
 * <pre>{@code
 * RunningView running = runner.prepare(job);   // translated and checked: no job started yet
 * running.start();
 * }</pre>
 */
public interface ViewRunner extends AutoCloseable {
  /**
   * Translates {@code job}'s query for the runner's engine, without starting anything on it.
   *
   * @throws SQLException (0A000) if the engine cannot run the query, saying what and how to run
   *     it instead; before any job of the engine starts
   */
  RunningView prepare(ViewJob job) throws SQLException;

  /** Stops what the runner still runs and releases its resources. */
  @Override void close();
}

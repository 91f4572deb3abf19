package dev.freshet.engine.spi;

/**
 * Where a {@link RunningView} stands; the engine shows it as its own queries' status.
 *
 * <pre>{@code
 * if (running.status() == ViewStatus.FAILED) {
 *   running.exception();   // why, as an SQLException
 * }
 * }</pre>
 */
public enum ViewStatus {
  /** Prepared or started, and neither stopped nor failed. */
  ACTIVE,
  /** Stopped on request. */
  STOPPED,
  /** Stopped because a batch failed; see {@link RunningView#exception()}. */
  FAILED
}

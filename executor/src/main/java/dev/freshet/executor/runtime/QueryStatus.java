package dev.freshet.executor.runtime;

/** Life cycle of a streaming query. */
public enum QueryStatus {
  /** Created, not started. */
  INITIALIZING,
  /** Its batch thread runs. */
  ACTIVE,
  /**
   * A batch failed with a recoverable error (a database or broker away): the query waits its
   * backoff and then resumes from its checkpoint; see {@link RestartStrategy}.
   */
  RESTARTING,
  /** Stopped on request. */
  STOPPED,
  /** Stopped because a batch failed; see {@link StreamingQuery#exception()}. */
  FAILED;

  /** Whether the query has started and not ended: {@link #ACTIVE} or {@link #RESTARTING}. */
  public boolean isRunning() {
    return this == ACTIVE || this == RESTARTING;
  }
}

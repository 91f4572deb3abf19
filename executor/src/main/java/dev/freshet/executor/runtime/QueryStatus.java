package dev.freshet.executor.runtime;

/** Life cycle of a streaming query. */
public enum QueryStatus {
  /** Created, not started. */
  INITIALIZING,
  /** Its batch thread runs. */
  ACTIVE,
  /** Stopped on request. */
  STOPPED,
  /** Stopped because a batch failed; see {@link StreamingQuery#exception()}. */
  FAILED
}

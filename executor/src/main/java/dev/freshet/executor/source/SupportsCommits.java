package dev.freshet.executor.source;

/**
 * Source that hears which offsets its query has committed, as Spark's {@code Source.commit(end)}
 * and {@code MicroBatchStream.commit}: after a batch's commit log entry is written, the query
 * tells the source that it will never ask for the offsets up to {@code end} again, so the source
 * may let them go (a {@link MemoryStream} drops them from memory, and deletes log segments that
 * every reader has committed past).
 *
 * <pre>{@code
 * if (input instanceof SupportsCommits committing) {
 *   committing.commit(end);   // after the commit log holds the batch
 * }
 * }</pre>
 */
public interface SupportsCommits extends Source {
  /**
   * The query has committed every offset up to {@code end}: also called once with the offset a
   * restarted query resumes after. Never fails the query: a source logs what it cannot do.
   */
  void commit(long end);

  /** Names the query that reads the source, for messages; called before the first batch. */
  default void queryStarted(String queryName) {
  }
}

package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.Sink;
import dev.freshet.executor.runtime.StreamingQuery;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The subscriber's end of a continuous query: rows of each micro-batch, in order, as soon as the
 * batch completes.
 *
 * <pre>{@code
 * Object[] row = push.next(Duration.ofSeconds(1));   // null if no row came within a second
 * push.close();                                      // stops the query
 * }</pre>
 *
 * <p>Thread-safe: the query's batch thread adds rows while one reader takes them.
 */
public final class PushQuery implements AutoCloseable {
  /** Queue element that ends the stream of rows; {@code error} is null after a normal stop. */
  private record End(Throwable error) {
  }

  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private StreamingQuery query;
  /** Set when the reader has taken the end marker; later reads return it again. */
  private volatile End end;

  PushQuery() {
  }

  void attach(StreamingQuery query) {
    this.query = requireNonNull(query, "query");
  }

  /** The continuous query behind this result. */
  public StreamingQuery query() {
    return query;
  }

  /** The sink that the continuous query writes into. */
  Sink sink() {
    return new Sink() {
      @Override public void addBatch(long batchId, List<Object[]> rows) {
        queue.addAll(rows);
      }

      @Override public void queryTerminated(Throwable error) {
        queue.add(new End(error));
      }

      @Override public String description() {
        return "PushQuery[" + (query == null ? "" : query.name()) + "]";
      }
    };
  }

  /**
   * Returns the next row, waiting at most {@code timeout}; returns null if none arrived in time or
   * the query has stopped ({@link #isClosed()} tells which).
   *
   * @throws SQLException if the query failed; the cause is the failure
   */
  public Object[] next(Duration timeout) throws SQLException {
    End ended = end;
    if (ended == null) {
      Object element;
      try {
        element = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("Interrupted while waiting for the next row of query "
            + query.name(), "HY008", e);
      }
      if (element == null) {
        return null;
      }
      if (element instanceof Object[]) {
        return (Object[]) element;
      }
      ended = (End) element;
      end = ended;
    }
    if (ended.error() != null) {
      throw new SQLException("Continuous query " + query.name() + " failed: "
          + ended.error(), "58000", ended.error());
    }
    return null;
  }

  /** Whether the query has stopped and every row before the stop has been read. */
  public boolean isClosed() {
    return end != null;
  }

  /** Stops the continuous query; rows not yet read are dropped. Idempotent. */
  @Override public void close() {
    if (query != null) {
      query.stop();
    }
  }
}

package dev.freshet.jdbc.remote;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.Meta.Frame;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;

/**
 * The rows of a remote result, fetched frame by frame without looking ahead: {@code hasNext()}
 * fetches until a row or the final frame arrives, and {@code next()} returns that row at once.
 *
 * <p>Avatica's own iterator fetches the frame after a row before it returns the row, so over a
 * never-ending result each row is held back until the next one exists; a push query's last update
 * would wait for an unrelated later one. This one never fetches more than the row asked for needs.
 * The server's long-poll (an empty, non-final frame after a bounded wait) keeps the loop in
 * {@code hasNext()} from spinning.
 */
final class FrameRowIterable implements Iterable<Object> {
  private final Meta meta;
  private final Meta.StatementHandle handle;
  private final Frame firstFrame;
  private final IntSupplier fetchSize;
  private final BooleanSupplier cancelled;
  /** The query timeout, or null for none. */
  private final Duration timeout;
  /** {@link System#nanoTime()} at which the timeout passes; meaningless without one. */
  private final long deadlineNanos;

  /**
   * Creates the rows of the result whose first frame is {@code firstFrame} (or null, for a result
   * whose rows are all still on the server).
   */
  FrameRowIterable(Meta meta, Meta.StatementHandle handle, Frame firstFrame, IntSupplier fetchSize,
      BooleanSupplier cancelled) {
    this(meta, handle, firstFrame, fetchSize, cancelled, null);
  }

  /**
   * Creates the rows of a result that ends with SQLSTATE HYT00 once {@code timeout} (if not null)
   * has passed: the check comes before each fetch, so it is late by at most one long-poll.
   */
  FrameRowIterable(Meta meta, Meta.StatementHandle handle, Frame firstFrame, IntSupplier fetchSize,
      BooleanSupplier cancelled, Duration timeout) {
    this.timeout = timeout;
    this.deadlineNanos = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
    this.meta = requireNonNull(meta, "meta");
    this.handle = requireNonNull(handle, "handle");
    this.firstFrame = firstFrame == null ? Frame.MORE : firstFrame;
    this.fetchSize = requireNonNull(fetchSize, "fetchSize");
    this.cancelled = requireNonNull(cancelled, "cancelled");
  }

  @Override public Iterator<Object> iterator() {
    return new Iterator<>() {
      private Frame frame = firstFrame;
      private Iterator<Object> rows = firstFrame.rows.iterator();
      /** Offset of the next row to return: the client's position, which the server checks. */
      private long offset = firstFrame.offset;

      @Override public boolean hasNext() {
        while (!rows.hasNext()) {
          if (cancelled.getAsBoolean()) {
            throw new RuntimeException(new SQLException("Statement canceled",
                ClientSqlState.OPERATION_CANCELED.code()));
          }
          if (frame.done) {
            rows = Collections.emptyIterator();
            return false;
          }
          if (timeout != null && System.nanoTime() - deadlineNanos >= 0) {
            expire();
          }
          frame = fetch();
          rows = frame.rows.iterator();
        }
        return true;
      }

      @Override public Object next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        offset++;
        return rows.next();
      }

      private void expire() {
        try {
          meta.closeStatement(handle);
        } catch (RuntimeException e) {
          // Then the server's idle timeout stops the query; the reader ends here either way.
        }
        throw new RuntimeException(new SQLException("The query ran for its query timeout of "
            + timeout.toSeconds() + " s and was stopped on the server. Raise"
            + " Statement.setQueryTimeout, or set it to 0 for no timeout",
            ClientSqlState.TIMEOUT_EXPIRED.code()));
      }

      private Frame fetch() {
        try {
          return meta.fetch(handle, offset, fetchSize.getAsInt());
        } catch (NoSuchStatementException | MissingResultsException e) {
          if (cancelled.getAsBoolean()) {
            // The cancel reached the server while this fetch was on its way: it is a cancel.
            throw new RuntimeException(new SQLException("Statement canceled",
                ClientSqlState.OPERATION_CANCELED.code(), e));
          }
          // Avatica's iterator would re-execute the statement; a push query would then start
          // over and repeat rows the reader already has.
          throw new RuntimeException(new SQLException("The server no longer has this result"
              + " (it was restarted, or the statement was closed or cancelled); execute the"
              + " query again", ClientSqlState.INVALID_CURSOR_STATE.code(), e));
        }
      }
    };
  }
}

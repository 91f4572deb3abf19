package dev.freshet.jdbc;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.push.PushQuery;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BooleanSupplier;

/**
 * Rows of a push query as the embedded result set reads them: {@code hasNext()} blocks until the
 * next row exists and never reads ahead, so {@code ResultSet.next()} returns each row as soon as
 * its batch completes. With a row limit ({@code Statement.setMaxRows}) the rows end there and the
 * query stops.
 */
final class PushRowIterable implements Iterable<Object> {
  /** How long one wait lasts before the iterator re-checks for cancellation. */
  private static final Duration POLL = Duration.ofMillis(200);

  private final PushQuery push;
  private final BooleanSupplier cancelled;
  /** Rows to return in all; 0 for no limit. */
  private final long maxRows;

  PushRowIterable(PushQuery push, BooleanSupplier cancelled, long maxRows) {
    this.push = push;
    this.cancelled = cancelled;
    this.maxRows = maxRows;
  }

  @Override public Iterator<Object> iterator() {
    return new Iterator<>() {
      private Object[] pending;
      private long returned;

      @Override public boolean hasNext() {
        if (pending == null && maxRows > 0 && returned >= maxRows) {
          push.close();
          return false;
        }
        while (pending == null) {
          if (cancelled.getAsBoolean()) {
            throw new RuntimeException(
                Errors.of(SqlState.OPERATION_CANCELED, "Statement canceled"));
          }
          if (push.isClosed()) {
            return false;
          }
          try {
            pending = push.next(POLL);
          } catch (SQLException e) {
            throw new RuntimeException(e);
          }
        }
        return true;
      }

      @Override public Object next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Object[] row = pending;
        pending = null;
        returned++;
        return row;
      }
    };
  }
}

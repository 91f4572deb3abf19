package dev.freshet.jdbc;

import dev.freshet.engine.PushQuery;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BooleanSupplier;

/**
 * Rows of a push query as the embedded result set reads them: {@code hasNext()} blocks until the
 * next row exists and never reads ahead, so {@code ResultSet.next()} returns each row as soon as
 * its batch completes.
 */
final class PushRowIterable implements Iterable<Object> {
  /** How long one wait lasts before the iterator re-checks for cancellation. */
  private static final Duration POLL = Duration.ofMillis(200);

  private final PushQuery push;
  private final BooleanSupplier cancelled;

  PushRowIterable(PushQuery push, BooleanSupplier cancelled) {
    this.push = push;
    this.cancelled = cancelled;
  }

  @Override public Iterator<Object> iterator() {
    return new Iterator<>() {
      private Object[] pending;

      @Override public boolean hasNext() {
        while (pending == null) {
          if (cancelled.getAsBoolean()) {
            throw new RuntimeException(new SQLException("Statement canceled", "HY008"));
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
        return row;
      }
    };
  }
}

package dev.freshet.common.errors;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;

/**
 * The one place an {@link SqlState} becomes a JDBC {@link SQLException}, for every module: the
 * engine, the drivers, the server and the Spark engine report their errors through it, so a
 * state always reaches a client with the same JDBC subclass and a bounded message.
 *
 * <pre>{@code
 * throw SqlErrors.of(SqlState.OBJECT_NOT_FOUND,
 *     "Stream 'clicks' not found. Create it with CREATE STREAM clicks (...)");
 * }</pre>
 */
public final class SqlErrors {
  /**
   * The longest message an error carries: a statement or value quoted in it is cut, so that a
   * 10 MB statement is not echoed back whole.
   */
  public static final int MAX_MESSAGE_LENGTH = 2_000;

  private SqlErrors() {
  }

  /** {@code message}, cut to {@link #MAX_MESSAGE_LENGTH} characters, saying how much was cut. */
  public static String capped(String message) {
    if (message == null || message.length() <= MAX_MESSAGE_LENGTH) {
      return message;
    }
    String tail = " ... (" + (message.length() - MAX_MESSAGE_LENGTH) + " more characters)";
    int end = MAX_MESSAGE_LENGTH - tail.length();
    if (Character.isHighSurrogate(message.charAt(end - 1))) {
      end--;
    }
    return message.substring(0, end) + tail;
  }

  /** An error with {@code state}; {@code message} says what is wrong and how to fix it. */
  public static SQLException of(SqlState state, String message) {
    return of(state, message, null);
  }

  /**
   * An error with {@code state} and the failure that showed it ({@code cause} may be null). The
   * subclass follows the JDBC specification's table of SQLSTATE classes (0A, 08, 22, 23, 42), so
   * that a tool can tell a syntax error from a missing feature without reading codes; timeouts
   * are {@link SQLTimeoutException}, the rest plain {@link SQLException}s.
   */
  public static SQLException of(SqlState state, String message, Throwable cause) {
    String code = state.code();
    String text = capped(message);
    if (state == SqlState.TIMEOUT_EXPIRED) {
      return new SQLTimeoutException(text, code, cause);
    }
    switch (state.sqlClass()) {
    case "0A":
      return new SQLFeatureNotSupportedException(text, code, cause);
    case "08":
      return new SQLNonTransientConnectionException(text, code, cause);
    case "22":
      return new SQLDataException(text, code, cause);
    case "23":
      return new SQLIntegrityConstraintViolationException(text, code, cause);
    case "42":
      return new SQLSyntaxErrorException(text, code, cause);
    default:
      return new SQLException(text, code, cause);
    }
  }
}

package dev.freshet.planner;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;

/**
 * Factory of the errors the planner and the engine report, each with a SQLSTATE, what is wrong and
 * how to fix it.
 *
 * <p>SQLSTATEs: {@code 42000} syntax error, {@code 42S01} object exists, {@code 42S02} object not
 * found, {@code 42S22} column not found, {@code 42KDE} query not valid on a stream or in its output
 * mode (as Spark), {@code 0A000} not supported yet, {@code 22000} bad data.
 */
public final class PlannerErrors {
  private PlannerErrors() {
  }

  /** A parse error at a position. */
  public static SQLException parseError(String message, int line, int column, Throwable cause) {
    return new SQLSyntaxErrorException("Syntax error at line " + line + ", column " + column
        + ": " + message, "42000", cause);
  }

  /** A validation error reported by Calcite's validator, with its position. */
  public static SQLException validationError(String message, String sqlState, Throwable cause) {
    return new SQLSyntaxErrorException(message, sqlState, cause);
  }

  /** A stream that already exists. */
  public static SQLException streamExists(String name) {
    return new SQLException("Stream '" + name + "' already exists. Use CREATE STREAM IF NOT EXISTS,"
        + " or DROP STREAM " + name + " first.", "42S01");
  }

  /** A stream that does not exist. */
  public static SQLException streamNotFound(String name) {
    return new SQLException("Stream '" + name + "' not found. See SHOW STREAMS, or create it with"
        + " CREATE STREAM " + name + " (...) WITH (connector = 'memory').", "42S02");
  }

  /** An output mode that a query cannot run in; {@code rule} names the rule, {@code fix} the fix. */
  public static SQLException outputModeNotSupported(String rule, String fix) {
    return new SQLException(rule + ". " + fix, "42KDE");
  }

  /**
   * An operation that a continuous query cannot have in any output mode, as Spark rejects it on a
   * stream; {@code rule} names the rule, {@code fix} the fix.
   */
  public static SQLException notValidOnStream(String rule, String fix) {
    return new SQLException(rule + ". " + fix, "42KDE");
  }

  /** A statement, query shape or option Freshet does not support. */
  public static SQLException notSupported(String what) {
    return new SQLFeatureNotSupportedException(what, "0A000");
  }

  /**
   * A query shape Freshet does not support yet; {@code what} names it, {@code fix} says how to
   * change the query.
   */
  public static SQLException notSupported(String what, String fix) {
    return new SQLFeatureNotSupportedException(what + ". " + fix, "0A000");
  }

  /** A malformed value, e.g. in an option or a watermark declaration. */
  public static SQLException invalidDefinition(String message) {
    return new SQLException(message, "42000");
  }
}

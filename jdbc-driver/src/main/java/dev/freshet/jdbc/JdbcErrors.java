package dev.freshet.jdbc;

import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.errors.SqlState;
import java.sql.SQLException;

/**
 * Recovers the engine's own {@link SQLException} (with its SQLSTATE and message) from the wrappers
 * that Avatica's statement classes put around exceptions.
 */
final class JdbcErrors {
  private JdbcErrors() {
  }

  /** The first SQLException with a SQLSTATE in {@code e}'s cause chain, else a new one. */
  static SQLException unwrap(Throwable e, String context) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException && ((SQLException) t).getSQLState() != null) {
        return (SQLException) t;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    if (e instanceof SQLException) {
      return (SQLException) e;
    }
    return Errors.of(SqlState.GENERAL_ERROR, context + ": " + e, e);
  }
}

package dev.freshet.engine.errors;

import dev.freshet.common.errors.SqlState;
import java.sql.SQLException;

/**
 * The errors of a connection's transaction settings: writes on a read-only connection.
 *
 * <pre>{@code
 * throw TransactionErrors.readOnly("INSERT");   // SQLSTATE 25006
 * }</pre>
 */
public final class TransactionErrors {
  private TransactionErrors() {
  }

  /**
   * A write on a read-only connection (25006).
   *
   * @param statement what the statement is, e.g. {@code INSERT} or {@code CREATE STREAM}
   */
  public static SQLException readOnly(String statement) {
    return Errors.of(SqlState.READ_ONLY_SQL_TRANSACTION, "The connection is read-only"
        + " (Connection.setReadOnly(true)), so it cannot run " + statement + "; call"
        + " setReadOnly(false) or run it on a connection that is not read-only");
  }
}

package dev.freshet.pgwire.catalog;

import java.sql.SQLException;
import org.h2.api.ErrorCode;

/**
 * The errors of catalog statements, with PostgreSQL's SQLSTATEs in place of H2's, so that a
 * client reads the code it knows (42P01 for a missing relation, ...).
 *
 * <pre>{@code
 * throw CatalogErrors.of(h2Error, sql);   // SQLSTATE 42P01: relation "pg_foo" does not exist
 * }</pre>
 */
final class CatalogErrors {
  private CatalogErrors() {
  }

  /** The error a client gets for {@code error}, which H2 raised running {@code sql}. */
  static SQLException of(SQLException error, String sql) {
    // A catalog function's own error (42P01 from 'x'::regclass, ...) comes wrapped by H2.
    for (Throwable t = error.getCause(); t != null; t = t.getCause()) {
      if (t instanceof SQLException own && own.getSQLState() != null
          && own.getErrorCode() == 0) {
        return new SQLException(own.getMessage(), own.getSQLState(), error);
      }
    }
    String state;
    switch (error.getErrorCode()) {
    case ErrorCode.TABLE_OR_VIEW_NOT_FOUND_1:
    case ErrorCode.TABLE_OR_VIEW_NOT_FOUND_WITH_CANDIDATES_2:
    case ErrorCode.TABLE_OR_VIEW_NOT_FOUND_DATABASE_EMPTY_1:
      state = "42P01";
      break;
    case ErrorCode.COLUMN_NOT_FOUND_1:
      state = "42703";
      break;
    case ErrorCode.FUNCTION_NOT_FOUND_1:
      state = "42883";
      break;
    case ErrorCode.SCHEMA_NOT_FOUND_1:
      state = "3F000";
      break;
    case ErrorCode.SYNTAX_ERROR_1:
    case ErrorCode.SYNTAX_ERROR_2:
      state = "42601";
      break;
    case ErrorCode.DATA_CONVERSION_ERROR_1:
      state = "22P02";
      break;
    case ErrorCode.DIVISION_BY_ZERO_1:
      state = "22012";
      break;
    default:
      state = "XX000";
      break;
    }
    String message = error.getMessage();
    int cut = message == null ? -1 : message.indexOf("; SQL statement:");
    if (cut >= 0) {
      message = message.substring(0, cut);
    }
    return new SQLException("catalog query failed: " + message
        + " (Freshet answers pg_catalog and information_schema with the tables and functions"
        + " PostgreSQL clients use; statement: " + sql.strip() + ")", state, error);
  }
}

package dev.freshet.jdbc;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.Failures;
import java.sql.SQLException;

/**
 * Recovers the engine's own {@link SQLException} (with its SQLSTATE and message) from the wrappers
 * that Avatica's statement classes put around exceptions.
 */
final class JdbcErrors {
  private JdbcErrors() {
  }

  /**
   * The first SQLException with a SQLSTATE in {@code e}'s cause chain, or the condition behind it
   * (a division by zero, a stack overflow: see {@link Failures}), else a new one naming
   * {@code context}.
   */
  static SQLException unwrap(Throwable e, String context) {
    SQLException mapped = Failures.toSqlException(e);
    boolean madeForUnknownFailure = mapped != e && mapped.getCause() == e
        && SqlState.INTERNAL_ERROR.code().equals(mapped.getSQLState());
    if (!madeForUnknownFailure) {
      return mapped;
    }
    // Not one the engine raised: say what the driver was doing.
    return Errors.of(SqlState.GENERAL_ERROR, context + ": " + e, e);
  }
}

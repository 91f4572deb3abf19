package dev.freshet.spark.source;

import java.sql.SQLException;

/**
 * Failure of the Freshet source inside one of Spark's callbacks, which cannot throw a checked
 * exception: it carries the {@link SQLException} (with Freshet's SQLSTATE) that JDBC reports.
 *
 * <pre>{@code
 * catch (StreamingQueryException e) {
 *   // walk the causes to the FreshetSourceException, then:
 *   throw source.sqlException();     // e.g. SQLSTATE 42S02
 * }
 * }</pre>
 */
public final class FreshetSourceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  FreshetSourceException(SQLException error) {
    super(error.getMessage(), error);
  }

  /** The error as JDBC reports it: its SQLSTATE and message. */
  public SQLException sqlException() {
    return (SQLException) getCause();
  }
}

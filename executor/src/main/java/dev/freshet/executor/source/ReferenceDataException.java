package dev.freshet.executor.source;

/**
 * A reference table's rows could not be read: the database is down, the table is gone. The batch
 * that needed them fails, and runs again when the query is restarted.
 */
public final class ReferenceDataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ReferenceDataException(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.freshet.connectors.sink;

/**
 * A sink's target failed to take a batch; nothing of the batch was applied, and the query fails
 * (a restart runs the batch again).
 *
 * <pre>{@code
 * throw new SinkException("Sink OUT cannot write batch 7 to table totals: ...", e);
 * }</pre>
 */
public final class SinkException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure {@code message} explains. */
  public SinkException(String message, Throwable cause) {
    super(message, cause);
  }
}

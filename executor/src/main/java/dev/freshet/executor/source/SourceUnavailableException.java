package dev.freshet.executor.source;

/**
 * A source that cannot be reached or has lost data a query needs (a broker down for longer than
 * the source waits, offsets deleted by retention): the message says which and what to do.
 *
 * <pre>{@code
 * throw new SourceUnavailableException("Kafka at localhost:9092 did not answer within 60 s", e);
 * }</pre>
 */
public final class SourceUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A source failure that {@code message} explains. */
  public SourceUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.freshet.executor.source;

/**
 * A record of a source that cannot be read as a row of its stream: the message names the record
 * (topic, partition and offset, or file and line) and what is wrong with it.
 *
 * <pre>{@code
 * throw new SourceRecordException("The record at offset 17 of partition 1 of topic orders is not"
 *     + " valid JSON: ...");
 * }</pre>
 */
public final class SourceRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A record that cannot be read: {@code message} names it and says why. */
  public SourceRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.freshet.connectors.format;

/**
 * Fills a row's value columns from one record's bytes. Not thread-safe: one per reading thread.
 *
 * <pre>{@code
 * Object[] row = new Object[columns.size()];
 * decoder.decode(record.value(), row);   // throws IllegalArgumentException saying what is wrong
 * }</pre>
 */
public interface RecordDecoder {
  /**
   * Sets every column of {@code row} that the value fills (not the metadata columns).
   *
   * @throws IllegalArgumentException if the bytes are not a row of the columns: the message
   *     says what is wrong (not valid JSON, a field of the wrong type, a NOT NULL column left
   *     empty)
   */
  void decode(byte[] value, Object[] row);
}

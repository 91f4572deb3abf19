package dev.freshet.connectors.format;

import java.util.List;
import java.util.Locale;

/**
 * How a record's value becomes a row: {@code json} (an object whose fields match columns by name,
 * ignoring case) or {@code csv} (fields in the order of the columns).
 *
 * <pre>{@code
 * RecordDecoder decoder = RecordFormat.JSON.decoder(columns);
 * decoder.decode(valueBytes, row);   // fills the value columns of row
 * }</pre>
 */
public enum RecordFormat {
  JSON, CSV;

  /** The format as {@code 'format' = '...'} names it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A decoder of values into rows of {@code columns}; one per reading thread. */
  public RecordDecoder decoder(List<SourceColumn> columns) {
    return this == JSON ? new JsonRecordDecoder(columns) : new CsvRecordDecoder(columns);
  }
}

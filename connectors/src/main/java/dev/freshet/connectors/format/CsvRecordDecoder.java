package dev.freshet.connectors.format;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one CSV line (RFC 4180 quoting, Jackson's CSV parser) into a row: its fields fill the
 * value columns in declared order; an empty unquoted field is NULL. A line with more or fewer
 * fields than there are value columns is refused.
 *
 * <pre>{@code
 * new CsvRecordDecoder(columns).decode("1,\"tea, green\",2.5".getBytes(UTF_8), row);
 * }</pre>
 */
final class CsvRecordDecoder implements RecordDecoder {
  private static final ObjectReader READER = new CsvMapper()
      .enable(CsvParser.Feature.WRAP_AS_ARRAY)
      .enable(CsvParser.Feature.EMPTY_STRING_AS_NULL)
      .readerFor(String[].class);

  private final List<SourceColumn> columns;
  /** The indexes of the value's columns in the row, in declared order. */
  private final int[] valueColumns;

  CsvRecordDecoder(List<SourceColumn> columns) {
    this.columns = List.copyOf(columns);
    List<Integer> indexes = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).metadata().isEmpty()) {
        indexes.add(i);
      }
    }
    this.valueColumns = indexes.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override public void decode(byte[] value, Object[] row) {
    if (value == null) {
      throw new IllegalArgumentException("the record has no value (a tombstone); expected a CSV"
          + " line");
    }
    String[] fields;
    try (MappingIterator<String[]> lines = READER.readValues(value)) {
      if (!lines.hasNext()) {
        throw new IllegalArgumentException("the value is empty; expected a CSV line of "
            + valueColumns.length + " fields");
      }
      fields = lines.next();
      if (lines.hasNext()) {
        throw new IllegalArgumentException("the value holds more than one CSV line");
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException known && known.getCause() == null) {
        throw known;
      }
      throw new IllegalArgumentException("the value is not a CSV line: " + e.getMessage(), e);
    }
    if (fields.length != valueColumns.length) {
      throw new IllegalArgumentException("the CSV line has " + fields.length + " fields, but the"
          + " stream has " + valueColumns.length + " columns to fill");
    }
    for (int f = 0; f < fields.length; f++) {
      SourceColumn column = columns.get(valueColumns[f]);
      String text = fields[f];
      if (text == null) {
        if (!column.nullable()) {
          throw new IllegalArgumentException("field " + (f + 1) + " (column " + column.name()
              + ") is empty, but the column is NOT NULL");
        }
        row[valueColumns[f]] = null;
        continue;
      }
      try {
        row[valueColumns[f]] = column.type().fromText(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("field " + (f + 1) + " (column " + column.name()
            + "): " + e.getMessage(), e);
      }
    }
  }
}

package dev.freshet.connectors.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a JSON object into a row with Jackson's streaming parser: each field whose name matches a
 * column (ignoring case) sets it; other fields are ignored; a missing or {@code null} field is
 * NULL, which a NOT NULL column refuses. Nested objects and arrays are refused for the column
 * they would fill.
 *
 * <pre>{@code
 * new JsonRecordDecoder(columns).decode("{\"id\":1,\"item\":\"tea\"}".getBytes(UTF_8), row);
 * }</pre>
 */
final class JsonRecordDecoder implements RecordDecoder {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final List<SourceColumn> columns;
  /** Lower-cased column name to its index, for the value's columns only. */
  private final Map<String, Integer> byName = new HashMap<>();
  /**
   * Field names as records spell them to their column's index, or -1 for none: Jackson hands out
   * one canonical String per name, so after the first record a field costs one lookup, no
   * lower-casing.
   */
  private final Map<String, Integer> bySpelling = new HashMap<>();
  /** The most spellings kept: a producer writing a new field name per record cannot grow it. */
  private static final int MAX_SPELLINGS = 1024;

  JsonRecordDecoder(List<SourceColumn> columns) {
    this.columns = List.copyOf(columns);
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).metadata().isEmpty()) {
        byName.put(columns.get(i).name().toLowerCase(Locale.ROOT), i);
      }
    }
  }

  @Override public void decode(byte[] value, Object[] row) {
    if (value == null) {
      throw new IllegalArgumentException("the record has no value (a tombstone); expected a JSON"
          + " object");
    }
    try (JsonParser parser = FACTORY.createParser(value)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("the value is not a JSON object");
      }
      for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME;
          token = parser.nextToken()) {
        String field = parser.currentName();
        int index = columnOf(field);
        JsonToken valueToken = parser.nextToken();
        if (index < 0) {
          parser.skipChildren();
          continue;
        }
        SourceColumn column = columns.get(index);
        try {
          row[index] = switch (valueToken) {
            case VALUE_NULL -> null;
            case VALUE_STRING -> column.type().fromText(parser.getText());
            case VALUE_NUMBER_INT -> parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                ? column.type().fromNumber(parser.getDecimalValue())
                : column.type().fromLong(parser.getLongValue());
            case VALUE_NUMBER_FLOAT -> column.type().fromNumber(parser.getDecimalValue());
            case VALUE_TRUE -> column.type().fromBoolean(true);
            case VALUE_FALSE -> column.type().fromBoolean(false);
            default -> throw new IllegalArgumentException("a nested " + (valueToken
                == JsonToken.START_ARRAY ? "array" : "object") + " is not " + column.type()
                .expected());
          };
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("field \"" + field + "\" (column " + column.name()
              + "): " + e.getMessage(), e);
        }
      }
      if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
        throw new IllegalArgumentException("the value is not one JSON object");
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the value is not valid JSON: "
          + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException("the value is not valid JSON: " + e.getMessage(), e);
    }
    for (int i = 0; i < row.length; i++) {
      SourceColumn column = columns.get(i);
      if (row[i] == null && !column.nullable() && column.metadata().isEmpty()) {
        throw new IllegalArgumentException("column " + column.name() + " is NOT NULL, but the"
            + " object has no field \"" + column.name().toLowerCase(Locale.ROOT)
            + "\" or it is null");
      }
    }
  }

  /** The column field {@code field} fills, ignoring case, or -1. */
  private int columnOf(String field) {
    Integer index = bySpelling.get(field);
    if (index == null) {
      Integer byLowerCase = byName.get(field.toLowerCase(Locale.ROOT));
      index = byLowerCase == null ? -1 : byLowerCase;
      if (bySpelling.size() < MAX_SPELLINGS) {
        bySpelling.put(field, index);
      }
    }
    return index;
  }
}

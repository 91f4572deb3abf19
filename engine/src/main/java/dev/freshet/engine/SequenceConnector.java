package dev.freshet.engine;

import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.planner.catalog.StreamTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The {@code sequence} connector of {@code CREATE STREAM}: checks the stream's columns and options
 * and describes the {@link SequenceSource} that generates its rows.
 *
 * <pre>{@code
 * CREATE STREAM nums (n BIGINT, ts TIMESTAMP(3),     -- any names; VALUE must be quoted
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
 * WITH (connector = 'sequence', 'end' = '5000000', 'rows.per.second' = '1000',
 *   'rows.per.batch' = '100000', 'start.time' = '1767225600000')
 * }</pre>
 *
 * <p>The stream keeps nothing, in memory or in the data directory: row {@code i} is
 * {@code (i[, event time])}, computed when a batch reads it. Its offsets count rows, so a stream
 * declared again after a restart (with the same options) gives a resumed query the same rows.
 */
final class SequenceConnector {
  /** Option: the number of rows; without it the sequence has no end. */
  static final String END = "end";
  /** Option: rows a second, counted from {@code CREATE STREAM}; without it all rows at once. */
  static final String ROWS_PER_SECOND = "rows.per.second";
  /** Option: the most rows one micro-batch takes. */
  static final String ROWS_PER_BATCH = "rows.per.batch";
  /** Option: the event time of row 0, in epoch milliseconds. */
  static final String START_TIME = "start.time";
  /** Every option the connector accepts, in the order messages list them. */
  static final List<String> OPTIONS =
      List.of(StreamTable.CONNECTOR_OPTION, END, ROWS_PER_SECOND, ROWS_PER_BATCH, START_TIME);

  private SequenceConnector() {
  }

  /**
   * The sequence that stream {@code stream} declares.
   *
   * @param stream the stream's name, for messages
   * @param rowType the declared columns
   * @param options the {@code WITH} options, keys in lower case
   * @throws SQLException {@code 42000} naming the column or option that is wrong and what is
   *     allowed
   */
  static SequenceSpec spec(String stream, RelDataType rowType, Map<String, String> options)
      throws SQLException {
    StreamConnector.SEQUENCE.checkOptions(stream, options);
    int valueField = -1;
    int timestampField = -1;
    List<String> columns = new ArrayList<>();
    boolean shapeOk = true;
    for (RelDataTypeField field : rowType.getFieldList()) {
      columns.add(field.getName() + " " + StreamDdl.typeName(field.getType()));
      SqlTypeName type = field.getType().getSqlTypeName();
      if (type == SqlTypeName.BIGINT && valueField < 0) {
        valueField = field.getIndex();
      } else if (type == SqlTypeName.TIMESTAMP && timestampField < 0) {
        timestampField = field.getIndex();
      } else {
        shapeOk = false;
      }
    }
    if (!shapeOk || valueField < 0) {
      throw StreamErrors.sequenceColumns(stream, columns);
    }
    OptionalLong end = option(stream, options, END, 0, Long.MAX_VALUE,
        "a whole number of rows, 0 or more, such as '1000000'");
    OptionalLong rowsPerSecond = option(stream, options, ROWS_PER_SECOND, 1,
        SequenceSpec.MAX_ROWS_PER_SECOND, "a whole number of rows a second from 1 to "
            + SequenceSpec.MAX_ROWS_PER_SECOND + ", such as '1000'");
    long rowsPerBatch = option(stream, options, ROWS_PER_BATCH, 1, Long.MAX_VALUE,
        "a whole number of rows, 1 or more, such as '100000'")
        .orElse(SequenceSpec.DEFAULT_ROWS_PER_BATCH);
    long startTimeMs = option(stream, options, START_TIME, SequenceSpec.MIN_START_TIME_MS,
        SequenceSpec.MAX_START_TIME_MS, "the event time of the first row in milliseconds since"
            + " 1970-01-01 00:00:00 UTC, from " + SequenceSpec.MIN_START_TIME_MS + " (year 1) to "
            + SequenceSpec.MAX_START_TIME_MS + " (year 9999), such as '1767225600000'")
        .orElse(0);
    if (end.isEmpty() && rowsPerSecond.isEmpty()) {
      throw StreamErrors.sequenceWithoutEndOrPace(stream);
    }
    return new SequenceSpec(stream, valueField,
        timestampField < 0 ? OptionalInt.empty() : OptionalInt.of(timestampField), end,
        rowsPerSecond, rowsPerBatch, startTimeMs);
  }

  /** Option {@code key} as a whole number from {@code min} to {@code max}, if given. */
  private static OptionalLong option(String stream, Map<String, String> options, String key,
      long min, long max, String expected) throws SQLException {
    String text = options.get(key);
    if (text == null) {
      return OptionalLong.empty();
    }
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw StreamErrors.badStreamOption(stream, key, text, expected, e);
    }
    if (value < min || value > max) {
      throw StreamErrors.badStreamOption(stream, key, text, expected, null);
    }
    return OptionalLong.of(value);
  }
}

package dev.freshet.server.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.freshet.engine.query.ResultColumn;
import java.math.BigDecimal;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Base64;
import java.util.List;

/**
 * Turns result rows into JSON arrays: numbers as JSON numbers, strings, booleans and null as
 * themselves, and the engine's internal date-time values as ISO-8601 text in UTC.
 *
 * <pre>{@code
 * SqlValues.row(columns, new Object[] {"u1", 3L, 0L});   // ["u1",3,"1970-01-01T00:00:00Z"]
 * }</pre>
 */
final class SqlValues {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private SqlValues() {
  }

  /** The columns as {@code [{"name", "type"}]}. */
  static ArrayNode columns(List<ResultColumn> columns) {
    ArrayNode array = NODES.arrayNode();
    for (ResultColumn column : columns) {
      array.addObject().put("name", column.name()).put("type", column.typeName());
    }
    return array;
  }

  /** One row, as {@code [v, ...]}. */
  static ArrayNode row(List<ResultColumn> columns, Object[] row) {
    ArrayNode array = NODES.arrayNode();
    for (int i = 0; i < columns.size(); i++) {
      add(array, columns.get(i), row[i]);
    }
    return array;
  }

  private static void add(ArrayNode array, ResultColumn column, Object value) {
    if (value == null) {
      array.addNull();
      return;
    }
    // The engine's rows hold Calcite's internal values: TIMESTAMP as epoch milliseconds, DATE
    // as days since the epoch, TIME as milliseconds of the day (see ResultColumn).
    switch (column.jdbcType()) {
    case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE:
      if (value instanceof Number n) {
        array.add(Instant.ofEpochMilli(n.longValue()).toString());
        return;
      }
      break;
    case Types.DATE:
      if (value instanceof Number n) {
        array.add(LocalDate.ofEpochDay(n.longValue()).toString());
        return;
      }
      break;
    case Types.TIME, Types.TIME_WITH_TIMEZONE:
      if (value instanceof Number n) {
        array.add(LocalTime.ofNanoOfDay(n.longValue() * 1_000_000L).toString());
        return;
      }
      break;
    default:
      break;
    }
    if (value instanceof Boolean b) {
      array.add(b);
    } else if (value instanceof BigDecimal d) {
      array.add(d);
    } else if (value instanceof Double || value instanceof Float) {
      array.add(((Number) value).doubleValue());
    } else if (value instanceof Number n) {
      array.add(n.longValue());
    } else if (value instanceof byte[] bytes) {
      array.add(Base64.getEncoder().encodeToString(bytes));
    } else {
      array.add(value.toString());
    }
  }
}

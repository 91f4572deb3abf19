package dev.freshet.engine.sink;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.SqlTypes;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A result value as a sink writes it: Calcite's internal representation (epoch milliseconds for
 * TIMESTAMP, days for DATE, ...) turned into what JDBC and JSON expect.
 *
 * <pre>{@code
 * SinkValues.forJdbc(SqlTypeName.TIMESTAMP, 0L);   // LocalDateTime 1970-01-01T00:00
 * SinkValues.forJson(SqlTypeName.TIMESTAMP, 0L);   // "1970-01-01 00:00:00.000"
 * }</pre>
 */
final class SinkValues {
  private SinkValues() {
  }

  /** The value a JDBC driver takes with {@code setObject} ({@link SqlType#toJdbc}). */
  static Object forJdbc(SqlTypeName type, Object value) {
    SqlType sqlType = SqlTypes.of(type);
    return value == null || sqlType == null ? value : sqlType.toJdbc(value);
  }

  /** The value as JSON text would show it, for dates and times; else the value itself. */
  static Object forJson(SqlTypeName type, Object value) {
    SqlType sqlType = SqlTypes.of(type);
    return value == null || sqlType == null || !sqlType.isDatetime() ? value
        : sqlType.format(value);
  }
}

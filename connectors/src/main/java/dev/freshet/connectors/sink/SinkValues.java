package dev.freshet.connectors.sink;

import dev.freshet.common.types.SqlType;

/**
 * A result value as a sink writes it: Calcite's internal representation (epoch milliseconds for
 * TIMESTAMP, days for DATE, ...) turned into what JDBC and JSON expect.
 *
 * <pre>{@code
 * SinkValues.forJdbc(SqlType.TIMESTAMP, 0L);   // LocalDateTime 1970-01-01T00:00
 * SinkValues.forJson(SqlType.TIMESTAMP, 0L);   // "1970-01-01 00:00:00.000"
 * }</pre>
 */
public final class SinkValues {
  private SinkValues() {
  }

  /** The value a JDBC driver takes with {@code setObject} ({@link SqlType#toJdbc}). */
  public static Object forJdbc(SqlType type, Object value) {
    return value == null ? null : type.toJdbc(value);
  }

  /** The value as JSON text would show it, for dates and times; else the value itself. */
  public static Object forJson(SqlType type, Object value) {
    return value == null || !type.isDatetime() ? value : type.format(value);
  }
}

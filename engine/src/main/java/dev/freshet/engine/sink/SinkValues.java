package dev.freshet.engine.sink;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A result value as a sink writes it: Calcite's internal representation (epoch milliseconds for
 * TIMESTAMP, days for DATE, ...) turned into what JDBC and JSON expect.
 *
 * <pre>{@code
 * SinkValues.forJdbc(SqlTypeName.TIMESTAMP, 0L);   // LocalDateTime 1970-01-01T00:00
 * SinkValues.text(SqlTypeName.TIMESTAMP, 0L);      // "1970-01-01 00:00:00.000"
 * }</pre>
 */
final class SinkValues {
  /** SQL's timestamp form, as Flink's JSON format writes it. */
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

  private SinkValues() {
  }

  /** The value a JDBC driver takes with {@code setObject}. */
  static Object forJdbc(SqlTypeName type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type) {
      case TIMESTAMP -> LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) value)
          .longValue()), ZoneOffset.UTC);
      case DATE -> LocalDate.ofEpochDay(((Number) value).longValue());
      case TIME -> LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000);
      default -> value;
    };
  }

  /** The value as JSON text would show it, for dates and times; else the value itself. */
  static Object forJson(SqlTypeName type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type) {
      case TIMESTAMP -> TIMESTAMP.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(
          ((Number) value).longValue()), ZoneOffset.UTC));
      case DATE -> LocalDate.ofEpochDay(((Number) value).longValue()).toString();
      case TIME -> LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000).toString();
      default -> value;
    };
  }
}

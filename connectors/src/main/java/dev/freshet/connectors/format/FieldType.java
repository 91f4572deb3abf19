package dev.freshet.connectors.format;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The type of a column that a record format fills, with the value each gives a row: the Java
 * value the planner's compiled code expects of the SQL type (Long for BIGINT, Integer days for
 * DATE, Long epoch milliseconds for TIMESTAMP, ...).
 *
 * <pre>{@code
 * FieldType.TIMESTAMP.fromText("2026-12-01 10:00:00.000");   // 1796119200000L
 * FieldType.TIMESTAMP.fromText("2026-12-01T10:00:00Z");      // the same
 * }</pre>
 */
public enum FieldType {
  BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL, VARCHAR, DATE, TIME,
  TIMESTAMP;

  /**
   * SQL's {@code 2026-12-01 10:00:00[.fff]} (Flink's default JSON timestamp) and ISO-8601's
   * {@code 2026-12-01T10:00:00[.fff]}, both without a zone, read as UTC.
   */
  private static final DateTimeFormatter LOCAL_TIMESTAMP = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .append(DateTimeFormatter.ISO_LOCAL_TIME)
      .toFormatter(Locale.ROOT);

  /**
   * The value of text {@code text} (a CSV field, a JSON string).
   *
   * @throws IllegalArgumentException saying what the text should look like
   */
  public Object fromText(String text) {
    try {
      return switch (this) {
        case BOOLEAN -> parseBoolean(text);
        case TINYINT -> Byte.valueOf(text.trim());
        case SMALLINT -> Short.valueOf(text.trim());
        case INTEGER -> Integer.valueOf(text.trim());
        case BIGINT -> Long.valueOf(text.trim());
        case REAL -> Float.valueOf(text.trim());
        case DOUBLE -> Double.valueOf(text.trim());
        case DECIMAL -> new BigDecimal(text.trim());
        case VARCHAR -> text;
        case DATE -> (int) LocalDate.parse(text.trim()).toEpochDay();
        case TIME -> (int) (LocalTime.parse(text.trim()).toNanoOfDay() / 1_000_000);
        case TIMESTAMP -> parseTimestamp(text.trim());
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(quote(text) + " is not " + expected(), e);
    }
  }

  /**
   * The value of a JSON number: integers for the integer types (no fraction, in range), any
   * number for REAL, DOUBLE and DECIMAL, epoch milliseconds for TIMESTAMP.
   *
   * @throws IllegalArgumentException saying what the value should be
   */
  public Object fromNumber(BigDecimal number) {
    try {
      return switch (this) {
        case TINYINT -> number.byteValueExact();
        case SMALLINT -> number.shortValueExact();
        case INTEGER -> number.intValueExact();
        case BIGINT, TIMESTAMP -> number.longValueExact();
        case REAL -> number.floatValue();
        case DOUBLE -> number.doubleValue();
        case DECIMAL -> number;
        case VARCHAR -> number.toPlainString();
        case BOOLEAN, DATE, TIME -> throw new IllegalArgumentException(
            "the number " + number + " is not " + expected());
      };
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("the number " + number + " is not " + expected(), e);
    }
  }

  /**
   * The value of a JSON whole number that fits a {@code long}: {@link #fromNumber} without
   * making a BigDecimal, for the common case.
   */
  public Object fromLong(long number) {
    return switch (this) {
      case BIGINT, TIMESTAMP -> number;
      case INTEGER -> number == (int) number ? (Object) (int) number : fromNumber(
          java.math.BigDecimal.valueOf(number));
      case DOUBLE -> (double) number;
      default -> fromNumber(java.math.BigDecimal.valueOf(number));
    };
  }

  /** The value of a JSON {@code true} or {@code false}. */
  public Object fromBoolean(boolean value) {
    return switch (this) {
      case BOOLEAN -> value;
      case VARCHAR -> Boolean.toString(value);
      default -> throw new IllegalArgumentException(value + " is not " + expected());
    };
  }

  /** What a value of this type looks like, for messages. */
  public String expected() {
    return switch (this) {
      case BOOLEAN -> "a BOOLEAN (true or false)";
      case TINYINT, SMALLINT, INTEGER, BIGINT -> "a whole number that fits " + name();
      case REAL, DOUBLE, DECIMAL -> "a number";
      case VARCHAR -> "a string";
      case DATE -> "a DATE such as 2026-12-01";
      case TIME -> "a TIME such as 10:00:00";
      case TIMESTAMP -> "a TIMESTAMP such as 2026-12-01 10:00:00.000, 2026-12-01T10:00:00Z or"
          + " epoch milliseconds";
    };
  }

  private static Boolean parseBoolean(String text) {
    String t = text.trim();
    if (t.equalsIgnoreCase("true")) {
      return Boolean.TRUE;
    }
    if (t.equalsIgnoreCase("false")) {
      return Boolean.FALSE;
    }
    throw new NumberFormatException("not a boolean");
  }

  private static long parseTimestamp(String text) {
    char last = text.isEmpty() ? ' ' : text.charAt(text.length() - 1);
    boolean zoned = last == 'Z' || last == 'z' || text.lastIndexOf('+') > 10
        || text.lastIndexOf('-') > 10;
    if (zoned) {
      return OffsetDateTime.parse(text.replace(' ', 'T')).toInstant().toEpochMilli();
    }
    LocalDateTime local = LocalDateTime.parse(text, LOCAL_TIMESTAMP);
    return local.toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  static String quote(String text) {
    String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
    return "'" + shown + "'";
  }
}

package dev.freshet.common.types;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One SQL type that Freshet keeps in a row, and everything each part of Freshet needs to know of
 * it: its name, its {@link java.sql.Types} code, the Java class of its value in a row (Calcite's
 * internal representation: {@code Integer} days for DATE, {@code Long} epoch milliseconds for
 * TIMESTAMP), its binary form ({@link ValueCodec}), how it is read from text (CSV, JSON, Kafka)
 * and written as text and as a JDBC value (sinks), its PostgreSQL type OID, and the name of its
 * Spark SQL type. A part that handles a type asks the descriptor instead of switching over types.
 *
 * <pre>{@code
 * SqlType t = SqlType.forName("TIMESTAMP");           // from Calcite's SqlTypeName.name()
 * long ms = (Long) t.parse("2026-12-01 10:00:00");    // 1796119200000L
 * t.format(ms);                                       // "2026-12-01 10:00:00.000"
 * t.toJdbc(ms);                                       // LocalDateTime 2026-12-01T10:00
 * t.codec().write(out, ms);                           // 8 bytes
 * }</pre>
 *
 * <p>Calcite's {@code SqlTypeName} stays the planner's type; the planner's {@code SqlTypes} looks
 * a Calcite type up here. The precision and scale of a type (DECIMAL(10, 2)) belong to the
 * column, not to the descriptor.
 */
public enum SqlType {
  BOOLEAN(Types.BOOLEAN, Boolean.class, ValueCodec.BOOLEAN, 16, "boolean"),
  /** PostgreSQL has no one-byte integer: its {@code int2}. */
  TINYINT(Types.TINYINT, Byte.class, ValueCodec.BYTE, 21, "tinyint"),
  SMALLINT(Types.SMALLINT, Short.class, ValueCodec.SHORT, 21, "smallint"),
  INTEGER(Types.INTEGER, Integer.class, ValueCodec.INT, 23, "int"),
  BIGINT(Types.BIGINT, Long.class, ValueCodec.LONG, 20, "bigint"),
  REAL(Types.REAL, Float.class, ValueCodec.FLOAT, 700, "float"),
  /** DOUBLE, and FLOAT, which has double precision in Calcite. */
  DOUBLE(Types.DOUBLE, Double.class, ValueCodec.DOUBLE, 701, "double"),
  DECIMAL(Types.DECIMAL, BigDecimal.class, ValueCodec.DECIMAL, 1700, "decimal"),
  /** A fixed-length string, blank-padded by Calcite. */
  CHAR(Types.CHAR, String.class, ValueCodec.STRING, 1042, "string"),
  VARCHAR(Types.VARCHAR, String.class, ValueCodec.STRING, 1043, "string"),
  /**
   * Rows hold Calcite's {@code ByteString}, which this module cannot name; the codec and the
   * JDBC value are {@code byte[]}. Not on Spark yet, and not read from text.
   */
  BINARY(Types.BINARY, byte[].class, ValueCodec.BYTES, 17, null),
  /** As {@link #BINARY}. */
  VARBINARY(Types.VARBINARY, byte[].class, ValueCodec.BYTES, 17, null),
  /** Days since 1970-01-01. */
  DATE(Types.DATE, Integer.class, ValueCodec.INT, 1082, "date"),
  /** Milliseconds of the day. Spark has no TIME type. */
  TIME(Types.TIME, Integer.class, ValueCodec.INT, 1083, null),
  /** Milliseconds since 1970-01-01 00:00 of the wall clock, read as UTC. */
  TIMESTAMP(Types.TIMESTAMP, Long.class, ValueCodec.LONG, 1114, "timestamp"),
  /** Milliseconds of the day, a time in the session's zone. JDBC's code is Calcite's. */
  TIME_WITH_LOCAL_TIME_ZONE(Types.TIME, Integer.class, ValueCodec.INT, 1266, null),
  /** Milliseconds since the epoch, an instant. JDBC's code is Calcite's. */
  TIMESTAMP_WITH_LOCAL_TIME_ZONE(Types.TIMESTAMP, Long.class, ValueCodec.LONG, 1184,
      "timestamp"),
  /** INTERVAL YEAR, YEAR TO MONTH and MONTH: months. */
  INTERVAL_YEAR_MONTH(Types.OTHER, Integer.class, ValueCodec.INT, 1186, null),
  /** INTERVAL DAY to SECOND and their parts: milliseconds. */
  INTERVAL_DAY_SECOND(Types.OTHER, Long.class, ValueCodec.LONG, 1186, null);

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
  /** SQL's timestamp form, as Flink's JSON format writes it. */
  private static final DateTimeFormatter TIMESTAMP_TEXT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS", Locale.ROOT);
  private static final Map<String, SqlType> BY_NAME = byName();

  private final int jdbcType;
  private final Class<?> javaClass;
  private final ValueCodec codec;
  private final int postgresOid;
  private final String sparkTypeName;

  SqlType(int jdbcType, Class<?> javaClass, ValueCodec codec, int postgresOid,
      String sparkTypeName) {
    this.jdbcType = jdbcType;
    this.javaClass = javaClass;
    this.codec = codec;
    this.postgresOid = postgresOid;
    this.sparkTypeName = sparkTypeName;
  }

  /**
   * The descriptor of the type named {@code name} (case ignored), or null if Freshet keeps no
   * such type: Calcite's {@code SqlTypeName} names ({@code TIMESTAMP_WITH_LOCAL_TIME_ZONE},
   * {@code INTERVAL_DAY_HOUR}, ...), FLOAT (a DOUBLE) and TIMESTAMP_LTZ.
   */
  public static SqlType forName(String name) {
    return BY_NAME.get(name.toUpperCase(Locale.ROOT));
  }

  private static Map<String, SqlType> byName() {
    Map<String, SqlType> map = new HashMap<>();
    for (SqlType type : values()) {
      map.put(type.name(), type);
    }
    map.put("FLOAT", DOUBLE);
    map.put("TIMESTAMP_LTZ", TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    for (String unit : new String[] {"YEAR", "YEAR_MONTH", "MONTH"}) {
      map.put("INTERVAL_" + unit, INTERVAL_YEAR_MONTH);
    }
    for (String unit : new String[] {"DAY", "DAY_HOUR", "DAY_MINUTE", "DAY_SECOND", "HOUR",
        "HOUR_MINUTE", "HOUR_SECOND", "MINUTE", "MINUTE_SECOND", "SECOND"}) {
      map.put("INTERVAL_" + unit, INTERVAL_DAY_SECOND);
    }
    return Map.copyOf(map);
  }

  /** The type's {@link java.sql.Types} code, as JDBC metadata reports it. */
  public int jdbcType() {
    return jdbcType;
  }

  /** The class of a non-null value of this type in a row ({@code byte[]} for the binaries). */
  public Class<?> javaClass() {
    return javaClass;
  }

  /** The binary form of a non-null value. */
  public ValueCodec codec() {
    return codec;
  }

  /** The OID of the PostgreSQL type a client of the PostgreSQL protocol sees for this type. */
  public int postgresOid() {
    return postgresOid;
  }

  /**
   * The name of Spark SQL's type for this type ({@code "bigint"}, {@code "decimal"}, ...), or
   * null if Freshet does not run it on Spark. engine-spark maps the name to a {@code DataType}.
   */
  public String sparkTypeName() {
    return sparkTypeName;
  }

  /**
   * The characters JDBC's {@code getColumnDisplaySize} reports for a column of this type of
   * {@code precision} (-1 if it has none), or 0 for the types whose result columns JDBC
   * describes only generically (binaries, intervals, the zoned times).
   */
  public int displaySize(int precision) {
    return switch (this) {
      case BOOLEAN -> 5;
      case TINYINT -> 4;
      case SMALLINT -> 6;
      case INTEGER -> 11;
      case BIGINT -> 20;
      case REAL -> 14;
      case DOUBLE -> 24;
      // Digits, sign and point.
      case DECIMAL -> Math.max(precision, 1) + 2;
      case CHAR, VARCHAR -> precision > 0 ? precision : 255;
      case DATE -> 10;
      case TIME -> 12;
      case TIMESTAMP -> 23;
      default -> 0;
    };
  }

  /**
   * The type's name in a standard SQL {@code CREATE TABLE}, as H2 and PostgreSQL both read it,
   * for a column of {@code precision} and {@code scale} (-1 if it has none): a JDBC sink creates
   * its target table with these. TINYINT becomes SMALLINT (PostgreSQL has no one-byte integer),
   * DOUBLE is {@code DOUBLE PRECISION}, and a type without a standard counterpart (the
   * binaries, intervals, the zoned times) is written as text: {@code VARCHAR(precision)}, or
   * {@code VARCHAR(4096)} if the precision is unknown or 65,536 and more.
   *
   * <pre>{@code
   * SqlType.DECIMAL.ddlName(10, 2);    // "DECIMAL(10, 2)"
   * SqlType.VARCHAR.ddlName(-1, -1);   // "VARCHAR(4096)"
   * }</pre>
   */
  public String ddlName(int precision, int scale) {
    return switch (this) {
      case BOOLEAN, INTEGER, BIGINT, REAL, DATE, TIME, TIMESTAMP -> name();
      case TINYINT, SMALLINT -> "SMALLINT";
      case DOUBLE -> "DOUBLE PRECISION";
      case DECIMAL -> "DECIMAL(" + precision + ", " + scale + ")";
      default -> "VARCHAR(" + (precision > 0 && precision < 65_536 ? precision : 4096) + ")";
    };
  }

  /** Whether values of this type are read from text ({@link #parse}). */
  public boolean parsesText() {
    return this != BINARY && this != VARBINARY && this != INTERVAL_YEAR_MONTH
        && this != INTERVAL_DAY_SECOND && this != TIME_WITH_LOCAL_TIME_ZONE
        && this != TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  /**
   * The value of text {@code text} (a CSV field, a JSON string), as a row holds it. Numbers,
   * booleans and dates ignore surrounding blanks; strings are kept as they are. A TIMESTAMP is
   * SQL's {@code 2026-12-01 10:00:00[.fff]}, ISO-8601 with {@code T}, either with a zone
   * ({@code Z}, {@code +01:00}) or without, read as UTC.
   *
   * @throws IllegalArgumentException saying what the text should look like
   */
  public Object parse(String text) {
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
        case CHAR, VARCHAR -> text;
        case DATE -> (int) LocalDate.parse(text.trim()).toEpochDay();
        case TIME -> (int) (LocalTime.parse(text.trim()).toNanoOfDay() / 1_000_000);
        case TIMESTAMP -> parseTimestamp(text.trim());
        default -> throw new IllegalArgumentException("A " + name()
            + " value is not read from text");
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(quote(text) + " is not " + expected(), e);
    }
  }

  /** What a value of this type looks like, for messages: "a DATE such as 2026-12-01". */
  public String expected() {
    return switch (this) {
      case BOOLEAN -> "a BOOLEAN (true or false)";
      case TINYINT, SMALLINT, INTEGER, BIGINT -> "a whole number that fits " + name();
      case REAL, DOUBLE, DECIMAL -> "a number";
      case CHAR, VARCHAR -> "a string";
      case DATE -> "a DATE such as 2026-12-01";
      case TIME -> "a TIME such as 10:00:00";
      case TIMESTAMP -> "a TIMESTAMP such as 2026-12-01 10:00:00.000, 2026-12-01T10:00:00Z or"
          + " epoch milliseconds";
      default -> "a " + name();
    };
  }

  /** Whether this is TINYINT, SMALLINT, INTEGER or BIGINT: {@link #wholeNumber} makes values. */
  public boolean isWholeNumber() {
    return this == TINYINT || this == SMALLINT || this == INTEGER || this == BIGINT;
  }

  /**
   * For a {@linkplain #isWholeNumber whole-number type}, {@code number} as a row holds it if it
   * fits ({@code Byte}, {@code Short}, {@code Integer}, {@code Long}), else null; null for the
   * other types.
   *
   * <pre>{@code
   * SqlType.INTEGER.wholeNumber(7L);        // Integer 7
   * SqlType.INTEGER.wholeNumber(1L << 40);  // null
   * }</pre>
   */
  public Object wholeNumber(long number) {
    return switch (this) {
      case TINYINT -> number == (byte) number ? (Object) (byte) number : null;
      case SMALLINT -> number == (short) number ? (Object) (short) number : null;
      case INTEGER -> number == (int) number ? (Object) (int) number : null;
      case BIGINT -> number;
      default -> null;
    };
  }

  /**
   * The value of a JSON number for this type: a whole number in range for the whole-number
   * types, any number for REAL, DOUBLE and DECIMAL, epoch milliseconds for TIMESTAMP, the number
   * as written for CHAR and VARCHAR.
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
        case CHAR, VARCHAR -> number.toPlainString();
        default -> throw new IllegalArgumentException(
            "the number " + number + " is not " + expected());
      };
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("the number " + number + " is not " + expected(), e);
    }
  }

  /**
   * The value of a JSON whole number that fits a {@code long}: {@link #fromNumber} without
   * making a BigDecimal, for the common case.
   *
   * @throws IllegalArgumentException saying what the value should be
   */
  public Object fromLong(long number) {
    Object whole = wholeNumber(number);
    if (whole != null) {
      return whole;
    }
    return switch (this) {
      case TIMESTAMP -> number;
      case DOUBLE -> (double) number;
      default -> fromNumber(BigDecimal.valueOf(number));
    };
  }

  /**
   * The value of a JSON {@code true} or {@code false}: the boolean for BOOLEAN, its text for
   * CHAR and VARCHAR.
   *
   * @throws IllegalArgumentException for the other types
   */
  public Object fromBoolean(boolean value) {
    return switch (this) {
      case BOOLEAN -> value;
      case CHAR, VARCHAR -> Boolean.toString(value);
      default -> throw new IllegalArgumentException(value + " is not " + expected());
    };
  }

  /**
   * The value a JDBC driver takes with {@code setObject} for non-null {@code value} as a row
   * holds it: {@code LocalDateTime}, {@code LocalDate} and {@code LocalTime} for TIMESTAMP, DATE
   * and TIME; any other value as it is.
   */
  public Object toJdbc(Object value) {
    return switch (this) {
      case TIMESTAMP -> LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) value)
          .longValue()), ZoneOffset.UTC);
      case DATE -> LocalDate.ofEpochDay(((Number) value).longValue());
      case TIME -> LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000);
      default -> value;
    };
  }

  /**
   * The value a row holds for {@code value} as a JDBC driver gives or takes it, the inverse of
   * {@link #toJdbc}: days for a DATE's {@code LocalDate}, milliseconds for a TIME's
   * {@code LocalTime} and a TIMESTAMP's {@code LocalDateTime} (as UTC); any other type's value
   * as it is. Null if {@code value} is not of the class {@link #toJdbc} gives (a string for a
   * DATE, a Long for an INTEGER) or is null.
   */
  public Object fromJdbc(Object value) {
    return switch (this) {
      case TIMESTAMP -> value instanceof LocalDateTime t
          ? (Object) (t.toEpochSecond(ZoneOffset.UTC) * 1000L + t.getNano() / 1_000_000) : null;
      case DATE -> value instanceof LocalDate d ? (Object) Math.toIntExact(d.toEpochDay()) : null;
      case TIME -> value instanceof LocalTime t ? (Object) (int) (t.toNanoOfDay() / 1_000_000L)
          : null;
      default -> javaClass.isInstance(value) ? value : null;
    };
  }

  /**
   * Whether {@link #readJdbc} reads values of this type: the types whose values every JDBC
   * database returns (numbers, strings, booleans, dates, times and timestamps), not the
   * binaries, the intervals or the zoned times.
   */
  public boolean readsJdbc() {
    return parsesText();
  }

  /**
   * The value of column {@code index} (1-based) of the current row of {@code r} as a row holds
   * it, or null for SQL NULL: each number by its own getter, a string by {@code getString}, a
   * DATE, TIME or TIMESTAMP from the {@code java.time} value JDBC gives ({@link #fromJdbc}).
   *
   * @throws IllegalArgumentException for a type that is not {@link #readsJdbc read}
   */
  public Object readJdbc(ResultSet r, int index) throws SQLException {
    Object value = switch (this) {
      case BOOLEAN -> r.getBoolean(index);
      case TINYINT -> r.getByte(index);
      case SMALLINT -> r.getShort(index);
      case INTEGER -> r.getInt(index);
      case BIGINT -> r.getLong(index);
      case DECIMAL -> r.getBigDecimal(index);
      case REAL -> r.getFloat(index);
      case DOUBLE -> r.getDouble(index);
      case CHAR, VARCHAR -> r.getString(index);
      case DATE -> fromJdbc(r.getObject(index, LocalDate.class));
      case TIME -> fromJdbc(r.getObject(index, LocalTime.class));
      case TIMESTAMP -> fromJdbc(r.getObject(index, LocalDateTime.class));
      default -> throw new IllegalArgumentException("A " + name() + " value is not read from JDBC");
    };
    return r.wasNull() ? null : value;
  }

  /**
   * Whether {@link #format} writes a value of this type differently from its Java
   * {@code toString} (the date and time types, whose rows hold numbers).
   */
  public boolean isDatetime() {
    return this == DATE || this == TIME || this == TIMESTAMP;
  }

  /**
   * Non-null {@code value} as text that {@link #parse} reads back: TIMESTAMP as
   * {@code 2026-12-01 10:00:00.000}, DATE as {@code 2026-12-01}, TIME as
   * {@link LocalTime#toString} ({@code 10:00}, {@code 10:00:01.500}); other values by
   * {@code toString} (a decimal in plain notation).
   */
  public String format(Object value) {
    return switch (this) {
      case TIMESTAMP, DATE, TIME -> formatTime(value);
      case DECIMAL -> ((BigDecimal) value).toPlainString();
      default -> value.toString();
    };
  }

  private String formatTime(Object value) {
    Object jdbc = toJdbc(value);
    return this == TIMESTAMP ? TIMESTAMP_TEXT.format((LocalDateTime) jdbc) : jdbc.toString();
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

  /** {@code text} in quotes for a message, cut at 60 characters. */
  public static String quote(String text) {
    String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
    return "'" + shown + "'";
  }
}

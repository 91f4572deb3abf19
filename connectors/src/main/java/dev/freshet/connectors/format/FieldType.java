package dev.freshet.connectors.format;

import dev.freshet.common.types.SqlType;
import java.math.BigDecimal;

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
  BOOLEAN(SqlType.BOOLEAN), TINYINT(SqlType.TINYINT), SMALLINT(SqlType.SMALLINT),
  INTEGER(SqlType.INTEGER), BIGINT(SqlType.BIGINT), REAL(SqlType.REAL), DOUBLE(SqlType.DOUBLE),
  DECIMAL(SqlType.DECIMAL), VARCHAR(SqlType.VARCHAR), DATE(SqlType.DATE), TIME(SqlType.TIME),
  TIMESTAMP(SqlType.TIMESTAMP);

  private final SqlType sqlType;

  FieldType(SqlType sqlType) {
    this.sqlType = sqlType;
  }

  /**
   * The field type that fills a column of {@code type} (CHAR as a VARCHAR, whose values are
   * the same strings), or null if no record format reads that type yet.
   */
  public static FieldType of(SqlType type) {
    if (type == SqlType.CHAR) {
      return VARCHAR;
    }
    for (FieldType fieldType : values()) {
      if (fieldType.sqlType == type) {
        return fieldType;
      }
    }
    return null;
  }

  /** The descriptor of the column's SQL type. */
  public SqlType sqlType() {
    return sqlType;
  }

  /**
   * The value of text {@code text} (a CSV field, a JSON string): {@link SqlType#parse}.
   *
   * @throws IllegalArgumentException saying what the text should look like
   */
  public Object fromText(String text) {
    return sqlType.parse(text);
  }

  /**
   * The value of a JSON number: integers for the integer types (no fraction, in range), any
   * number for REAL, DOUBLE and DECIMAL, epoch milliseconds for TIMESTAMP
   * ({@link SqlType#fromNumber}).
   *
   * @throws IllegalArgumentException saying what the value should be
   */
  public Object fromNumber(BigDecimal number) {
    return sqlType.fromNumber(number);
  }

  /**
   * The value of a JSON whole number that fits a {@code long}: {@link #fromNumber} without
   * making a BigDecimal, for the common case ({@link SqlType#fromLong}).
   */
  public Object fromLong(long number) {
    return sqlType.fromLong(number);
  }

  /** The value of a JSON {@code true} or {@code false} ({@link SqlType#fromBoolean}). */
  public Object fromBoolean(boolean value) {
    return sqlType.fromBoolean(value);
  }

  /** What a value of this type looks like, for messages ({@link SqlType#expected}). */
  public String expected() {
    return sqlType.expected();
  }
}

package dev.freshet.executor.operators;

import dev.freshet.common.types.SqlType;
import java.math.BigDecimal;

/**
 * Java representation of a SQL value inside the executor (Calcite's internal representation).
 *
 * <pre>{@code
 * ValueKind.of(SqlType.SMALLINT);   // INT
 * ValueKind.of(SqlType.DATE);       // DATE
 * }</pre>
 */
public enum ValueKind {
  /** BOOLEAN as {@code Boolean}. */
  BOOLEAN,
  /** TINYINT, SMALLINT, INTEGER as {@code Byte}, {@code Short}, {@code Integer}. */
  INT,
  /** BIGINT as {@code Long}. */
  LONG,
  /** REAL, FLOAT, DOUBLE as {@code Float} or {@code Double}. */
  DOUBLE,
  /** DECIMAL as {@code BigDecimal}. */
  DECIMAL,
  /** CHAR, VARCHAR as {@code String}. */
  STRING,
  /** TIMESTAMP as {@code Long} milliseconds since the epoch. */
  TIMESTAMP,
  /** DATE as {@code Integer} days since the epoch; TIME as {@code Integer} milliseconds of the day. */
  DATE,
  /** Anything else, compared with {@link Comparable} where needed. */
  OTHER;

  /**
   * The kind of values of {@code type}, from the class its descriptor says a row holds; OTHER
   * for null (a type Freshet keeps no descriptor of), the binaries, the intervals and the zoned
   * times.
   */
  public static ValueKind of(SqlType type) {
    if (type == null) {
      return OTHER;
    }
    Class<?> c = type.javaClass();
    if (type.isWholeNumber()) {
      return c == Long.class ? LONG : INT;
    }
    if (type.isDatetime()) {
      return c == Long.class ? TIMESTAMP : DATE;
    }
    if (c == Boolean.class) {
      return BOOLEAN;
    }
    if (c == Float.class || c == Double.class) {
      return DOUBLE;
    }
    if (c == BigDecimal.class) {
      return DECIMAL;
    }
    return c == String.class ? STRING : OTHER;
  }
}

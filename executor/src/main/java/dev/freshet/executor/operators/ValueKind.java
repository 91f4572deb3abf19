package dev.freshet.executor.operators;

/**
 * Java representation of a SQL value inside the executor (Calcite's internal representation).
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
  OTHER
}

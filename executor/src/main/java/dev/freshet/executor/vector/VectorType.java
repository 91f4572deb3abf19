package dev.freshet.executor.vector;

/**
 * What a {@link ColumnVector} holds, and how its values are boxed where rows need objects.
 * VARCHAR columns are dictionary-encoded ({@link #STRING}).
 *
 * <p>Integers of both widths live in a {@code long[]}; the type says which SQL width the value has
 * (so that an INTEGER group key becomes an {@code Integer}, as on the row path).
 */
public enum VectorType {
  /** INTEGER: a 32-bit value in {@link ColumnVector#longs}, boxed as {@code Integer}. */
  INT,
  /** BIGINT or TIMESTAMP (epoch milliseconds): {@link ColumnVector#longs}, boxed as {@code Long}. */
  LONG,
  /** DOUBLE: {@link ColumnVector#doubles}, boxed as {@code Double}. */
  DOUBLE,
  /** BOOLEAN: 1 or 0 in {@link ColumnVector#longs}, boxed as {@code Boolean}. */
  BOOLEAN,
  /**
   * VARCHAR: a code per row in {@link ColumnVector#codes}, the row's {@code String} being
   * {@code dictionary.get(code)} ({@link StringDictionary}).
   */
  STRING;

  /** Whether values live in {@link ColumnVector#longs}. */
  public boolean isLong() {
    return this != DOUBLE && this != STRING;
  }

  /**
   * The object a row holds for {@code value} of this type.
   *
   * @throws IllegalStateException for {@link #STRING}, whose values are in a dictionary
   */
  public Object box(long value) {
    switch (this) {
    case STRING:
      throw new IllegalStateException("a STRING value is a dictionary entry");
    case INT:
      return (int) value;
    case BOOLEAN:
      return value != 0;
    default:
      return value;
    }
  }
}

package dev.freshet.executor.vector;

/**
 * One column of a {@link VectorBatch}: up to {@link #capacity()} values as primitives, and which
 * of them are NULL.
 *
 * <pre>{@code
 * ColumnVector v = ColumnVector.ofLongs(4096);
 * v.longs[0] = 42;                  // row 0 is 42
 * v.setNull(1);                     // row 1 is NULL; v.noNulls is false from now on
 * if (v.noNulls || !v.nulls[i]) { ... v.longs[i] ... }
 * }</pre>
 *
 * <p>A {@link VectorType#STRING} vector holds per row a code into its {@link #dictionary}:
 * {@code v.dictionary.get(v.codes[i])} is row {@code i}'s {@code String}; whoever writes the
 * codes (a source, a kernel) fills the dictionary, for the batch or for longer.
 *
 * <p>A vector is allocated once, at its batch's capacity, and overwritten by every batch, so a row
 * costs no allocation. {@link #noNulls} lets a kernel skip the null mask when a whole batch has no
 * NULL (every row of a sequence); a kernel that writes a vector sets it before its loop.
 */
public final class ColumnVector {
  /** Values of INT, LONG and BOOLEAN columns; null in a DOUBLE vector. */
  public final long[] longs;
  /** Values of DOUBLE columns; null in the others. */
  public final double[] doubles;
  /** Per row, the code of its string in {@link #dictionary}; null unless a STRING vector. */
  public final int[] codes;
  /** The strings {@link #codes} refer to; null unless a STRING vector. */
  public StringDictionary dictionary;
  /** Whether row {@code i} is NULL; only read when {@link #noNulls} is false. */
  public final boolean[] nulls;
  /** True when no row of the current batch is NULL. */
  public boolean noNulls = true;

  private ColumnVector(long[] longs, double[] doubles, int[] codes, int capacity) {
    this.longs = longs;
    this.doubles = doubles;
    this.codes = codes;
    this.nulls = new boolean[capacity];
  }

  /** A vector of {@code capacity} long values. */
  public static ColumnVector ofLongs(int capacity) {
    return new ColumnVector(new long[capacity], null, null, capacity);
  }

  /** A vector of {@code capacity} double values. */
  public static ColumnVector ofDoubles(int capacity) {
    return new ColumnVector(null, new double[capacity], null, capacity);
  }

  /** A vector of {@code capacity} strings' codes, with an empty dictionary of its own. */
  public static ColumnVector ofStrings(int capacity) {
    ColumnVector v = new ColumnVector(null, null, new int[capacity], capacity);
    v.dictionary = new StringDictionary();
    return v;
  }

  /** A vector for values of {@code type}. */
  public static ColumnVector of(VectorType type, int capacity) {
    if (type == VectorType.STRING) {
      return ofStrings(capacity);
    }
    return type.isLong() ? ofLongs(capacity) : ofDoubles(capacity);
  }

  /** How many rows the vector holds at most. */
  public int capacity() {
    return nulls.length;
  }

  /** Whether row {@code i} is NULL. */
  public boolean isNull(int i) {
    return !noNulls && nulls[i];
  }

  /** Row {@code i}'s string, of a STRING vector; null if the row is NULL. */
  public String string(int i) {
    return isNull(i) ? null : dictionary.get(codes[i]);
  }

  /** Makes row {@code i} NULL. */
  public void setNull(int i) {
    if (noNulls) {
      noNulls = false;
    }
    nulls[i] = true;
  }
}

package dev.freshet.executor.state;

import java.util.Arrays;

/**
 * Key of a group with zero or several columns; a group with one column is keyed by its value alone.
 *
 * <p>It lives with the state API because it is a state key: {@link StateCodec} writes it and the
 * state stores keep it, while the operators only build it (see {@code KeyExtractor}).
 *
 * <p>Its hash code is stable across JVMs (it combines the values' own stable hash codes), so a key
 * maps to the same state partition after a restart.
 */
public final class GroupKey {
  /** The key of the single group of a global aggregate ({@code GROUP BY ()}). */
  public static final GroupKey EMPTY = new GroupKey(new Object[0]);

  private final Object[] values;
  private final int hash;

  private GroupKey(Object[] values) {
    this.values = values;
    this.hash = Arrays.hashCode(values);
  }

  /** Creates a key holding a copy of {@code values}. */
  public static GroupKey of(Object... values) {
    return values.length == 0 ? EMPTY : new GroupKey(values.clone());
  }

  /**
   * Creates a key that takes over {@code values}, which nobody may change afterwards: the copy
   * that {@link #of} makes is saved for a caller that has just filled a fresh array.
   */
  public static GroupKey adopt(Object[] values) {
    return values.length == 0 ? EMPTY : new GroupKey(values);
  }

  /** Returns the value of key column {@code i}. */
  public Object get(int i) {
    return values[i];
  }

  /** Returns the number of key columns. */
  public int size() {
    return values.length;
  }

  @Override public boolean equals(Object o) {
    return o == this
        || o instanceof GroupKey && hash == ((GroupKey) o).hash
        && Arrays.equals(values, ((GroupKey) o).values);
  }

  @Override public int hashCode() {
    return hash;
  }

  @Override public String toString() {
    return Arrays.toString(values);
  }
}

package dev.freshet.executor.operators;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.KeyHash;

/**
 * Computes the grouping key of a row: the value itself for one key column, else a {@link GroupKey}.
 *
 * <p>Floating-point keys are normalized so that {@code -0.0} and {@code 0.0} form one group, as SQL
 * requires and as Spark does.
 */
public final class KeyExtractor {
  private final int[] keyIndexes;

  public KeyExtractor(int[] keyIndexes) {
    this.keyIndexes = keyIndexes.clone();
  }

  /** Returns the number of key columns. */
  public int keyCount() {
    return keyIndexes.length;
  }

  /** Returns the key of {@code row}; the result does not share the row's array. */
  public Object keyOf(Object[] row) {
    switch (keyIndexes.length) {
    case 0:
      return GroupKey.EMPTY;
    case 1:
      return normalize(row[keyIndexes[0]]);
    default:
      Object[] values = new Object[keyIndexes.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = normalize(row[keyIndexes[i]]);
      }
      return GroupKey.adopt(values);
    }
  }

  /**
   * Returns what {@code keyOf(row).hashCode()} would, without building the key: stable across
   * JVMs, so it chooses a key's state partition. Tables of keys hash with
   * {@link #hashOf(Object[], long)}, which crafted keys cannot make collide.
   */
  public int hashOf(Object[] row) {
    switch (keyIndexes.length) {
    case 0:
      return GroupKey.EMPTY.hashCode();
    case 1:
      return hash(row[keyIndexes[0]]);
    default:
      // Arrays.hashCode of the key's values, as GroupKey computes it.
      int h = 1;
      for (int index : keyIndexes) {
        h = 31 * h + hash(row[index]);
      }
      return h;
    }
  }

  /**
   * Returns what {@code KeyHash.of(keyOf(row), seed)} would, without building the key: the hash
   * of the row's key in a table whose seed is {@code seed}.
   */
  public int hashOf(Object[] row, long seed) {
    switch (keyIndexes.length) {
    case 0:
      return KeyHash.of(GroupKey.EMPTY, seed);
    case 1:
      return KeyHash.ofValue(row[keyIndexes[0]], seed);
    default:
      long h = seed;
      for (int index : keyIndexes) {
        h = KeyHash.combine(h, KeyHash.bits(row[index], seed));
      }
      return KeyHash.fold(h);
    }
  }

  /** Whether {@code key}, made by {@link #keyOf}, is the key of {@code row}. */
  public boolean matches(Object key, Object[] row) {
    switch (keyIndexes.length) {
    case 0:
      return true;
    case 1:
      return same(key, row[keyIndexes[0]]);
    default:
      GroupKey k = (GroupKey) key;
      for (int i = 0; i < keyIndexes.length; i++) {
        if (!same(k.get(i), row[keyIndexes[i]])) {
          return false;
        }
      }
      return true;
    }
  }

  /** Writes the columns of {@code key} into {@code row} starting at position 0. */
  public void writeKey(Object key, Object[] row) {
    if (keyIndexes.length == 1) {
      row[0] = key;
    } else {
      GroupKey k = (GroupKey) key;
      for (int i = 0; i < k.size(); i++) {
        row[i] = k.get(i);
      }
    }
  }

  private static int hash(Object v) {
    return v == null ? 0 : normalize(v).hashCode();
  }

  /** Whether a key value equals the row's value, normalized. */
  private static boolean same(Object keyValue, Object v) {
    return keyValue == null ? v == null : v != null && keyValue.equals(normalize(v));
  }

  private static Object normalize(Object v) {
    if (v instanceof Double && (Double) v == 0.0d) {
      return 0.0d;
    }
    if (v instanceof Float && (Float) v == 0.0f) {
      return 0.0f;
    }
    return v;
  }
}

package dev.freshet.executor.operators;

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
      return GroupKey.of(values);
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

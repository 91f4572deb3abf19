package dev.freshet.executor.operators;

import dev.freshet.executor.vector.ColumnVector;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The groups of one input task's vector batches by a key of several integer columns (a window's
 * start and a remainder, say): as {@link LongGroupTable}, with each group's key as a run of
 * {@code long}s and a bit per column that is NULL.
 *
 * <pre>{@code
 * int g = table.findOrAdd(keyColumns, row);
 * if (table.added()) { ...initialize the cells of g... }
 * int same = table.indexOf(key, nullBits);   // a key found elsewhere, without adding it
 * }</pre>
 */
final class CompositeGroupTable {
  private final int width;
  /** Group index plus one per slot, 0 when empty; at most half full. */
  private int[] slots = new int[LongGroupTable.INITIAL_CAPACITY * 2];
  private long[] keys;
  /** Per group, bit {@code c} set when key column {@code c} is NULL. */
  private int[] nulls = new int[LongGroupTable.INITIAL_CAPACITY];
  /** Per group its hash, for growing without hashing the keys again. */
  private int[] hashes = new int[LongGroupTable.INITIAL_CAPACITY];
  private int size;
  private boolean added;
  private final long seed = ThreadLocalRandom.current().nextLong() | 1;

  CompositeGroupTable(int width) {
    if (width < 1 || width > 31) {
      throw new IllegalArgumentException("key columns: " + width);
    }
    this.width = width;
    this.keys = new long[LongGroupTable.INITIAL_CAPACITY * width];
  }

  int size() {
    return size;
  }

  int capacity() {
    return nulls.length;
  }

  /** Whether the last {@link #findOrAdd} added a group. */
  boolean added() {
    return added;
  }

  /** Whether column {@code c} of group {@code g}'s key is NULL. */
  boolean isNull(int g, int c) {
    return (nulls[g] & (1 << c)) != 0;
  }

  /** Column {@code c} of group {@code g}'s key. */
  long key(int g, int c) {
    return keys[g * width + c];
  }

  /** The group of row {@code row}'s key in {@code columns}, added if there is none. */
  int findOrAdd(ColumnVector[] columns, int row) {
    int nullBits = 0;
    long h = seed;
    for (int c = 0; c < width; c++) {
      ColumnVector v = columns[c];
      long value;
      if (v.isNull(row)) {
        nullBits |= 1 << c;
        value = 0;
      } else {
        value = v.longs[row];
      }
      h = mixColumn(h, value);
    }
    int hash = finish(h, nullBits);
    int mask = slots.length - 1;
    int slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        break;
      }
      int g = entry - 1;
      if (nulls[g] == nullBits && sameKey(g, columns, row, nullBits)) {
        added = false;
        return g;
      }
    }
    if (size == nulls.length) {
      grow();
      return findOrAdd(columns, row);
    }
    int g = size++;
    nulls[g] = nullBits;
    for (int c = 0; c < width; c++) {
      keys[g * width + c] = (nullBits & (1 << c)) != 0 ? 0 : columns[c].longs[row];
    }
    slots[slot] = g + 1;
    hashes[g] = hash;
    added = true;
    return g;
  }

  /**
   * The group whose key is {@code key} (column {@code c} at {@code key[c]}, 0 where bit {@code c}
   * of {@code nullBits} says it is NULL), or -1. Allocates nothing.
   */
  int indexOf(long[] key, int nullBits) {
    long h = seed;
    for (int c = 0; c < width; c++) {
      h = mixColumn(h, key[c]);
    }
    int hash = finish(h, nullBits);
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        return -1;
      }
      int g = entry - 1;
      if (nulls[g] == nullBits && Arrays.equals(keys, g * width, g * width + width, key, 0, width)) {
        return g;
      }
    }
  }

  private static long mixColumn(long h, long value) {
    h = (h ^ value) * 0x9E3779B97F4A7C15L;
    return h ^ h >>> 29;
  }

  private static int finish(long h, int nullBits) {
    h = (h ^ nullBits) * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  private boolean sameKey(int g, ColumnVector[] columns, int row, int nullBits) {
    int base = g * width;
    for (int c = 0; c < width; c++) {
      if ((nullBits & (1 << c)) == 0 && keys[base + c] != columns[c].longs[row]) {
        return false;
      }
    }
    return true;
  }

  private void grow() {
    int capacity = nulls.length * 2;
    nulls = Arrays.copyOf(nulls, capacity);
    keys = Arrays.copyOf(keys, capacity * width);
    hashes = Arrays.copyOf(hashes, capacity);
    int[] grown = new int[capacity * 2];
    int mask = grown.length - 1;
    for (int g = 0; g < size; g++) {
      int slot = hashes[g] & mask;
      while (grown[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      grown[slot] = g + 1;
    }
    slots = grown;
  }

  /** Empties the table; one grown past {@code maxKeptCapacity} groups is given back. */
  void clear(int maxKeptCapacity) {
    if (nulls.length > maxKeptCapacity) {
      slots = new int[LongGroupTable.INITIAL_CAPACITY * 2];
      keys = new long[LongGroupTable.INITIAL_CAPACITY * width];
      nulls = new int[LongGroupTable.INITIAL_CAPACITY];
      hashes = new int[LongGroupTable.INITIAL_CAPACITY];
    } else if (size > 0) {
      Arrays.fill(slots, 0);
    }
    size = 0;
  }
}

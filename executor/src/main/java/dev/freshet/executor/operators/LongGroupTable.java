package dev.freshet.executor.operators;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The groups of one input task's vector batches, by a key that is one integer: an
 * open-addressing table from a {@code long} key (or NULL) to a dense group index, in the order the
 * keys first appeared, as {@link PartialGroups} keeps its groups. No object per group or per row:
 * the aggregates' cells are arrays indexed by the group ({@link VectorAggregateInput}).
 *
 * <pre>{@code
 * int g = table.indexOf(key);            // or table.nullGroup()
 * if (g < 0) { g = table.add(key); ...initialize the cells of g... }
 * }</pre>
 *
 * <p>The hash mixes the key with a random seed of this table, so that keys chosen to collide
 * in one run do not collide in another.
 */
final class LongGroupTable {
  static final int INITIAL_CAPACITY = 1024;

  /** Group index plus one per slot, 0 when empty; at most half full. */
  private int[] slots = new int[INITIAL_CAPACITY * 2];
  private long[] keys = new long[INITIAL_CAPACITY];
  private int size;
  /** The group of the NULL key, or -1. */
  private int nullGroup = -1;
  private final long seed = ThreadLocalRandom.current().nextLong() | 1;

  /** Number of groups. */
  int size() {
    return size;
  }

  /** Groups the arrays hold before they grow. */
  int capacity() {
    return keys.length;
  }

  /** The key of group {@code g}; meaningless for the {@link #nullGroup}. */
  long key(int g) {
    return keys[g];
  }

  /** The group of the NULL key, or -1. */
  int nullGroup() {
    return nullGroup;
  }

  /** Whether group {@code g} is the NULL key's. */
  boolean isNull(int g) {
    return g == nullGroup;
  }

  /** The group of {@code key}, or -1. */
  int indexOf(long key) {
    int mask = slots.length - 1;
    for (int slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        return -1;
      }
      if (keys[entry - 1] == key) {
        return entry - 1;
      }
    }
  }

  /** Adds the group of {@code key}, which {@link #indexOf} did not find; returns its index. */
  int add(long key) {
    int g = newGroup();
    keys[g] = key;
    insert(slots, key, g + 1);
    return g;
  }

  /** Adds the group of the NULL key; returns its index. */
  int addNull() {
    nullGroup = newGroup();
    return nullGroup;
  }

  private int newGroup() {
    if (size == keys.length) {
      grow();
    }
    return size++;
  }

  private void insert(int[] into, long key, int entry) {
    int mask = into.length - 1;
    int slot = hash(key) & mask;
    while (into[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    into[slot] = entry;
  }

  private void grow() {
    int capacity = keys.length * 2;
    keys = Arrays.copyOf(keys, capacity);
    int[] grown = new int[capacity * 2];
    for (int g = 0; g < size; g++) {
      if (g != nullGroup) {
        insert(grown, keys[g], g + 1);
      }
    }
    slots = grown;
  }

  /**
   * Empties the table for the next batch; a table grown past {@code maxKeptCapacity} groups is
   * given back, so that a batch of many groups does not hold its heap until the next one.
   */
  void clear(int maxKeptCapacity) {
    if (keys.length > maxKeptCapacity) {
      slots = new int[INITIAL_CAPACITY * 2];
      keys = new long[INITIAL_CAPACITY];
    } else if (size > 0) {
      Arrays.fill(slots, 0);
    }
    size = 0;
    nullGroup = -1;
  }

  private int hash(long key) {
    long h = (key ^ seed) * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}

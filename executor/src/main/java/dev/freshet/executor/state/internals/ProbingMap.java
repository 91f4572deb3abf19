package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.KeyHash;

/**
 * Hash map of state keys to non-null values, with open addressing and linear probing in one
 * array of alternating keys and values plus an array of the keys' hashes: no entry objects, so
 * an entry costs two references and an int divided by the load factor (about 17 bytes at 0.7)
 * instead of a {@code HashMap.Node} (32 bytes) plus a table slot. It serves
 * {@link CommittedMap}, whose maps hold millions of entries.
 *
 * <p>Keys may be null (the key of an aggregation without {@code GROUP BY}); values may not, because
 * a null value marks a free slot. Removal shifts the following entries of the probe run back
 * instead of leaving tombstones, so a map that loses keys stays as fast as a new one.
 *
 * <p>The capacity need not be a power of two (a slot is found by multiplying the mixed hash
 * with the capacity), so that {@link #trim()} can size a map that will not grow again close to
 * {@link #TRIMMED_LOAD}. Not thread-safe; a map that is no longer changed may be read by any
 * number of threads once published safely.
 *
 * <p>Each map hashes keys by their content with a random seed of its own ({@link KeyHash}), not
 * by {@code hashCode()}: state keys are user data, and any number of strings share a
 * {@code String.hashCode}, which would put them all in one run and make each insertion cost the
 * run's length (hash flooding). {@link #probes()} counts the probing, so that tests can tell.
 * The seed also makes a map's slot order (the iteration order, which is unspecified) unrelated to
 * another map's. With one hash function for all maps, copying a map in slot order into a smaller
 * one that grows as it fills (as loading a snapshot, written in slot order, does) would put the
 * first keys all into the first part of the table, in runs of the same cost.
 *
 * <pre>{@code
 * ProbingMap map = new ProbingMap();
 * map.put(42, new Object[] {null, 1L});
 * Object row = map.get(42);
 * for (int slot = 0; slot < map.capacity(); slot++) {
 *   if (map.valueAt(slot) != null) {
 *     use(map.keyAt(slot), map.valueAt(slot));
 *   }
 * }
 * }</pre>
 */
final class ProbingMap {
  /** Most entries per slot before the capacity doubles; linear probing slows down beyond. */
  static final double MAX_LOAD = 0.75;
  /** Entries per slot that {@link #trim()} aims at. */
  static final double TRIMMED_LOAD = 0.7;
  /** Hashes whose bits above these are equal go to neighbouring slots. */
  private static final int GROUP_BITS = 3;
  private static final int GROUP_MASK = (1 << GROUP_BITS) - 1;
  /** At least a group, so that a group's slots wrap around the table's end at most once. */
  private static final int MIN_CAPACITY = 1 << GROUP_BITS;
  /** Largest capacity: the table holds two references per slot in one array. */
  private static final int MAX_CAPACITY = (1 << 30) - 16;

  /** Key of slot {@code i} at {@code 2 i}, its value at {@code 2 i + 1}; a null value: free. */
  private Object[] table;
  /**
   * The hash of slot {@code i}'s key ({@link KeyHash} with {@link #seed}): a search compares it
   * before calling {@code equals}, and moving an entry needs no hashing; both would otherwise
   * read a key object, most often a cache miss.
   */
  private int[] hashes;
  /** Seed of the keys' hashes; kept by copies, whose tables are laid out with it. */
  private final long seed;
  /**
   * Slots inspected past the first by each search, insertion and removal. Counted only past the
   * first so that a map read by many threads (an empty one, say) is not written by each read.
   */
  private long probes;
  private int capacity;
  private int size;
  /** Size past which the capacity doubles. */
  private int threshold;

  /** Creates an empty map. */
  ProbingMap() {
    this(0);
  }

  /** Creates an empty map that holds {@code expected} entries without growing. */
  ProbingMap(long expected) {
    seed = KeyHash.newSeed();
    allocate(capacityFor(expected, MAX_LOAD));
  }

  /**
   * Creates an empty map for {@code expected} entries at about {@link #TRIMMED_LOAD}: for a map
   * that is filled once and then read, like {@link #trim()} makes it.
   */
  static ProbingMap trimmedFor(long expected) {
    ProbingMap map = new ProbingMap();
    map.allocate(capacityFor(expected, TRIMMED_LOAD));
    return map;
  }

  /** Creates a copy of {@code other}, which is left as it is. */
  ProbingMap(ProbingMap other) {
    table = other.table.clone();
    hashes = other.hashes.clone();
    seed = other.seed;
    capacity = other.capacity;
    size = other.size;
    threshold = other.threshold;
  }

  private static int capacityFor(long entries, double load) {
    long capacity = (long) Math.ceil(entries / load) + 1;
    if (capacity > MAX_CAPACITY) {
      throw new IllegalStateException("A state map cannot hold " + entries + " keys");
    }
    return (int) Math.max(MIN_CAPACITY, capacity);
  }

  private void allocate(int newCapacity) {
    table = new Object[2 * newCapacity];
    hashes = new int[newCapacity];
    capacity = newCapacity;
    threshold = (int) Math.min(capacity - 1L, (long) (capacity * MAX_LOAD));
  }

  /** Whether the map can hold {@code entries} without growing. */
  boolean canHold(long entries) {
    return entries <= threshold;
  }

  /**
   * How many slots this map's searches, insertions and removals inspected beyond the first one
   * each (a copy starts again from 0): a few per operation when hashes spread, the square of the
   * number of keys when they all collide.
   */
  long probes() {
    return probes;
  }

  /** Number of entries. */
  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Number of slots; {@link #keyAt} and {@link #valueAt} take a slot below it. */
  int capacity() {
    return capacity;
  }

  /** The key in {@code slot}; meaningful only if {@link #valueAt} is not null. */
  Object keyAt(int slot) {
    return table[2 * slot];
  }

  /** The value in {@code slot}, or null if the slot is free. */
  Object valueAt(int slot) {
    return table[2 * slot + 1];
  }

  /**
   * The slot where a search for {@code key} starts: hashes that differ only in their lowest
   * {@value #GROUP_BITS} bits go to neighbouring slots, and such groups go anywhere. So keys used
   * in hash order (consecutive integers, as aggregations of a sequence produce, whose
   * {@link KeyHash} keeps their low bits) touch the table and the keys in order, a memory line
   * for several keys, as a {@code HashMap} of small integers does; hashes that differ elsewhere
   * scatter like random ones, since MurmurHash3's finalizer makes every bit of the seeded group
   * depend on every other. The finalizer's high bits choose the
   * group's first slot, so no power-of-two capacity is needed.
   */
  private int home(int hash) {
    int h = (hash >>> GROUP_BITS) ^ (int) seed;
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    int slot = (int) (((h & 0xFFFFFFFFL) * capacity) >>> 32) + (hash & GROUP_MASK);
    return slot < capacity ? slot : slot - capacity;
  }

  private static boolean same(Object key, Object other) {
    return key == other || key != null && key.equals(other);
  }

  private int hash(Object key) {
    return KeyHash.of(key, seed);
  }

  /** The slot of {@code key}, whose hash is {@code hash}, or of the free slot where it would go. */
  private int find(Object key, int hash) {
    Object[] t = table;
    int[] h = hashes;
    int slot = home(hash);
    while (t[2 * slot + 1] != null && (h[slot] != hash || !same(key, t[2 * slot]))) {
      if (++slot == capacity) {
        slot = 0;
      }
      probes++;
    }
    return slot;
  }

  /** Returns the value of {@code key}, or null. */
  Object get(Object key) {
    return table[2 * find(key, hash(key)) + 1];
  }

  boolean containsKey(Object key) {
    return get(key) != null;
  }

  /** Sets the value of {@code key} and returns the previous one, or null. */
  Object put(Object key, Object value) {
    return put(key, value, true);
  }

  /** Sets the value of {@code key} unless it has one; returns the value it had, or null. */
  Object putIfAbsent(Object key, Object value) {
    return put(key, value, false);
  }

  private Object put(Object key, Object value, boolean replace) {
    if (value == null) {
      throw new NullPointerException("value");
    }
    int hash = hash(key);
    int slot = find(key, hash);
    Object previous = table[2 * slot + 1];
    if (previous != null) {
      if (replace) {
        table[2 * slot + 1] = value;
      }
      return previous;
    }
    if (size >= threshold) {
      rehash(capacityFor(size + 1L, MAX_LOAD / 2));
      slot = find(key, hash);
    }
    table[2 * slot] = key;
    table[2 * slot + 1] = value;
    hashes[slot] = hash;
    size++;
    return null;
  }

  /** Puts every entry of {@code other}, replacing the values of keys this map has. */
  void putAll(ProbingMap other) {
    for (int slot = 0; slot < other.capacity; slot++) {
      Object value = other.valueAt(slot);
      if (value != null) {
        put(other.keyAt(slot), value);
      }
    }
  }

  /** Removes {@code key}; returns its value, or null if it had none. */
  Object remove(Object key) {
    int slot = find(key, hash(key));
    Object previous = table[2 * slot + 1];
    if (previous != null) {
      removeAt(slot);
    }
    return previous;
  }

  /**
   * Empties {@code slot} and moves back each later entry of the run whose search would otherwise
   * stop at the hole: that keeps every entry reachable from its home slot without tombstones.
   */
  private void removeAt(int slot) {
    Object[] t = table;
    int hole = slot;
    int next = slot;
    while (true) {
      if (++next == capacity) {
        next = 0;
      }
      if (t[2 * next + 1] == null) {
        break;
      }
      probes++;
      int home = home(hashes[next]);
      // The entry may fill the hole if its home is not cyclically in (hole, next].
      boolean reachable = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!reachable) {
        t[2 * hole] = t[2 * next];
        t[2 * hole + 1] = t[2 * next + 1];
        hashes[hole] = hashes[next];
        hole = next;
      }
    }
    t[2 * hole] = null;
    t[2 * hole + 1] = null;
    size--;
  }

  /**
   * Length of the longest run of occupied slots: what the slowest search costs, for tests that
   * check that a way of filling a map does not degrade it.
   */
  int longestRun() {
    int longest = 0;
    int run = 0;
    // Twice around, so that a run wrapping past the end is measured whole.
    for (int i = 0; i < 2 * capacity && run < capacity; i++) {
      run = table[2 * (i % capacity) + 1] != null ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  /** Test of an entry for {@link #removeIf}. */
  @FunctionalInterface
  interface EntryPredicate {
    boolean test(Object key, Object value);
  }

  /** Removes the entries that {@code predicate} accepts; it may see an entry more than once. */
  void removeIf(EntryPredicate predicate) {
    int slot = 0;
    while (slot < capacity) {
      Object value = table[2 * slot + 1];
      if (value != null && predicate.test(table[2 * slot], value)) {
        // The slot may now hold a later entry of the run: look at it again. An entry wrapped
        // around from the table's start may come to a later slot and be tested twice.
        removeAt(slot);
      } else {
        slot++;
      }
    }
  }

  /**
   * Shrinks the table to about {@link #TRIMMED_LOAD} entries per slot if growth left it much
   * emptier: for maps that will be read for long and not changed, such as a version's base.
   */
  void trim() {
    int target = capacityFor(size, TRIMMED_LOAD);
    if (target < capacity * 0.85) {
      rehash(target);
    }
  }

  private void rehash(int newCapacity) {
    Object[] old = table;
    int[] oldHashes = hashes;
    int oldCapacity = capacity;
    allocate(newCapacity);
    for (int slot = 0; slot < oldCapacity; slot++) {
      Object value = old[2 * slot + 1];
      if (value != null) {
        // Keys are distinct: the first free slot from the home is the entry's.
        int hash = oldHashes[slot];
        int target = home(hash);
        while (table[2 * target + 1] != null) {
          if (++target == capacity) {
            target = 0;
          }
          probes++;
        }
        table[2 * target] = old[2 * slot];
        table[2 * target + 1] = value;
        hashes[target] = hash;
      }
    }
  }
}

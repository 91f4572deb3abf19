package dev.freshet.executor.state.internals;

/**
 * Hash map of state keys to non-null values, with open addressing and linear probing in one
 * array of alternating keys and values: no entry objects, so an entry costs two references
 * divided by the load factor instead of a {@code HashMap.Node} (32 bytes) plus a table slot.
 * It serves {@link CommittedMap}, whose maps hold millions of entries.
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
  private static final int MIN_CAPACITY = 4;
  /** Largest capacity: the table holds two references per slot in one array. */
  private static final int MAX_CAPACITY = 1 << 30;

  /** Key of slot {@code i} at {@code 2 i}, its value at {@code 2 i + 1}; a null value: free. */
  private Object[] table;
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
    allocate(capacityFor(expected, MAX_LOAD));
  }

  /** Creates a copy of {@code other}, which is left as it is. */
  ProbingMap(ProbingMap other) {
    table = other.table.clone();
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
    capacity = newCapacity;
    threshold = (int) Math.min(capacity - 1L, (long) (capacity * MAX_LOAD));
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
   * The slot where a search for a key of hash {@code hash} starts. The multiplication spreads
   * nearby hashes (such as consecutive integers) over the high bits, and the high bits choose the
   * slot, so no power-of-two capacity is needed.
   */
  private static int home(int hash, int capacity) {
    int mixed = hash * 0x9E3779B9;
    return (int) (((mixed & 0xFFFFFFFFL) * capacity) >>> 32);
  }

  private static int hash(Object key) {
    return key == null ? 0 : key.hashCode();
  }

  private static boolean same(Object key, Object other) {
    return key == other || key != null && key.equals(other);
  }

  /** The slot of {@code key}, or of the free slot where it would go. */
  private int find(Object key) {
    Object[] t = table;
    int slot = home(hash(key), capacity);
    while (t[2 * slot + 1] != null && !same(key, t[2 * slot])) {
      if (++slot == capacity) {
        slot = 0;
      }
    }
    return slot;
  }

  /** Returns the value of {@code key}, or null. */
  Object get(Object key) {
    return table[2 * find(key) + 1];
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
    int slot = find(key);
    Object previous = table[2 * slot + 1];
    if (previous != null) {
      if (replace) {
        table[2 * slot + 1] = value;
      }
      return previous;
    }
    if (size >= threshold) {
      rehash(capacityFor(size + 1L, MAX_LOAD / 2));
      slot = find(key);
    }
    table[2 * slot] = key;
    table[2 * slot + 1] = value;
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
    int slot = find(key);
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
      int home = home(hash(t[2 * next]), capacity);
      // The entry may fill the hole if its home is not cyclically in (hole, next].
      boolean reachable = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!reachable) {
        t[2 * hole] = t[2 * next];
        t[2 * hole + 1] = t[2 * next + 1];
        hole = next;
      }
    }
    t[2 * hole] = null;
    t[2 * hole + 1] = null;
    size--;
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
    int oldCapacity = capacity;
    allocate(newCapacity);
    for (int slot = 0; slot < oldCapacity; slot++) {
      Object value = old[2 * slot + 1];
      if (value != null) {
        Object key = old[2 * slot];
        int target = find(key);
        table[2 * target] = key;
        table[2 * target + 1] = value;
      }
    }
  }
}

package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.KeyHash;

/**
 * Hash map of state keys to non-null values, with open addressing and linear probing in one
 * array of alternating keys and values plus an array of the keys' hashes: no entry objects, so
 * an entry costs two references and an int divided by the load factor (about 17 bytes at 0.7)
 * instead of a {@code HashMap.Node} (32 bytes) plus a table slot. It serves
 * {@link CommittedMap}, whose maps hold millions of entries.
 *
 * <p>Two kinds of entries need no object of their own, which for a state of counts and sums by a
 * number (the common case) saves 40 of about 57 bytes an entry:
 * <ul>
 *   <li>An {@code Integer} key, or a {@code Long} key within the range of an int, is kept as its
 *       hash alone: its slot's key is a marker saying which of the two types and which sign, and
 *       the key comes back from the hash ({@link KeyHash#smallIntegerMask}). {@link #keyAt} boxes
 *       it again; searches, insertions and copies between maps do not.
 *   <li>A value given as a {@code long} ({@link #putWord}) is kept in a third array, allocated
 *       with the first such value, with the marker {@link #WORD} in the value's place
 *       ({@link CommittedMap} keeps rows that {@link PackedRow#packWord} fits in 8 bytes so).
 * </ul>
 * With both, an entry of such a map costs 20 bytes of arrays per slot and no object.
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
 * map.putWord(43, 0x0102_0304L);            // valueAt(slot of 43) == WORD, wordAt(...) == 0x01020304
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

  /** Stands, in a slot's value, for the value in {@link #words}; never a value of its own. */
  static final Object WORD = new Object() {
    @Override public String toString() {
      return "WORD";
    }
  };

  private static final SmallKey INT_KEY = new SmallKey(false, false);
  private static final SmallKey NEGATIVE_INT_KEY = new SmallKey(false, true);
  private static final SmallKey LONG_KEY = new SmallKey(true, false);
  private static final SmallKey NEGATIVE_LONG_KEY = new SmallKey(true, true);

  /**
   * Key of slot {@code i} at {@code 2 i}, its value at {@code 2 i + 1}; a null value: free. A key
   * kept as its hash is a {@link SmallKey}; a value kept in {@link #words} is {@link #WORD}.
   */
  private Object[] table;
  /**
   * The hash of slot {@code i}'s key ({@link KeyHash} with {@link #seed}): a search compares it
   * before calling {@code equals}, and moving an entry needs no hashing; both would otherwise
   * read a key object, most often a cache miss. For a {@link SmallKey}, it is the key too.
   */
  private int[] hashes;
  /** Values of the slots whose value is {@link #WORD}; null until the first one. */
  private long[] words;
  /** Seed of the keys' hashes; kept by copies, whose tables are laid out with it. */
  private final long seed;
  /** What small non-negative and negative integer keys' hashes are XORed with (KeyHash). */
  private final int mask;
  private final int negativeMask;
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
    this(KeyHash.newSeed(), capacityFor(expected, MAX_LOAD));
  }

  private ProbingMap(long seed, int capacity) {
    this.seed = seed;
    this.mask = KeyHash.smallIntegerMask(seed, false);
    this.negativeMask = KeyHash.smallIntegerMask(seed, true);
    allocate(capacity, false);
  }

  /**
   * Creates an empty map for {@code expected} entries at about {@link #TRIMMED_LOAD}: for a map
   * that is filled once and then read, like {@link #trim()} makes it.
   */
  static ProbingMap trimmedFor(long expected) {
    return new ProbingMap(KeyHash.newSeed(), capacityFor(expected, TRIMMED_LOAD));
  }

  /** Creates a copy of {@code other}, which is left as it is. */
  ProbingMap(ProbingMap other) {
    this(other.seed, MIN_CAPACITY);
    table = other.table.clone();
    hashes = other.hashes.clone();
    words = other.words == null ? null : other.words.clone();
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

  private void allocate(int newCapacity, boolean withWords) {
    table = new Object[2 * newCapacity];
    hashes = new int[newCapacity];
    words = withWords ? new long[newCapacity] : null;
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

  /**
   * Heap bytes of the map's arrays per slot, with compressed references: two references and a
   * hash, and a word once the map holds one.
   */
  int bytesPerSlot() {
    return words == null ? 12 : 20;
  }

  /** Heap bytes of the map's arrays (table, hashes, words), headers included. */
  long arrayBytes() {
    return 3 * 16 + (long) bytesPerSlot() * capacity;
  }

  /**
   * Objects that the entries hold apart from the map's arrays: keys not kept as hashes (null
   * aside) and values not kept as words. For tests of how much an entry costs; walks the map.
   */
  long heldObjects() {
    long objects = 0;
    for (int slot = 0; slot < capacity; slot++) {
      Object value = table[2 * slot + 1];
      if (value != null) {
        Object key = table[2 * slot];
        objects += (key == null || key instanceof SmallKey ? 0 : 1) + (value == WORD ? 0 : 1);
      }
    }
    return objects;
  }

  /**
   * The key in {@code slot}; meaningful only if {@link #valueAt} is not null. A key kept as its
   * hash is boxed again, so this allocates for most {@code Integer} and {@code Long} keys.
   */
  Object keyAt(int slot) {
    Object key = table[2 * slot];
    return key instanceof SmallKey small ? small.box(hashes[slot] ^ maskOf(small)) : key;
  }

  /** Whether the key in {@code slot} takes no object of its own (for estimates of size). */
  boolean isSmallKeyAt(int slot) {
    return table[2 * slot] instanceof SmallKey;
  }

  /** The value in {@code slot}: null if the slot is free, {@link #WORD} if given as a word. */
  Object valueAt(int slot) {
    return table[2 * slot + 1];
  }

  /** The value in {@code slot} where {@link #valueAt} is {@link #WORD}. */
  long wordAt(int slot) {
    return words[slot];
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

  /**
   * What a slot holds for {@code key}: the key, or the {@link SmallKey} that with the hash stands
   * for it. Two keys with equal hashes are equal exactly if their stored forms are equal.
   */
  private static Object stored(Object key) {
    if (key instanceof Integer i) {
      return i < 0 ? NEGATIVE_INT_KEY : INT_KEY;
    }
    if (key instanceof Long l && l == l.intValue()) {
      return l < 0 ? NEGATIVE_LONG_KEY : LONG_KEY;
    }
    return key;
  }

  private int maskOf(SmallKey key) {
    return key.negative ? negativeMask : mask;
  }

  /** Equality of stored keys: a {@link SmallKey} is equal only to itself (hashes compared). */
  private static boolean same(Object stored, Object other) {
    return stored == other || stored != null && !(other instanceof SmallKey)
        && stored.equals(other);
  }

  private int hash(Object key) {
    return KeyHash.of(key, seed);
  }

  /** The hash in this map of the key in {@code slot} of {@code source}. */
  private int hashOf(ProbingMap source, int slot) {
    int hash = source.hashes[slot];
    if (source.seed == seed) {
      return hash;
    }
    Object key = source.table[2 * slot];
    if (key instanceof SmallKey small) {
      return hash ^ source.maskOf(small) ^ maskOf(small);
    }
    return hash(key);
  }

  /**
   * The slot of the key stored as {@code key} (see {@link #stored}), whose hash is {@code hash},
   * or of the free slot where it would go.
   */
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

  /**
   * The slot of {@code key} if the map has it, else of the free slot where it would go (whose
   * {@link #valueAt} is null): for reading a value that may be a word without boxing it.
   */
  int slotOf(Object key) {
    return find(stored(key), hash(key));
  }

  /** Returns the value of {@code key} (possibly {@link #WORD}), or null. */
  Object get(Object key) {
    return table[2 * slotOf(key) + 1];
  }

  boolean containsKey(Object key) {
    return get(key) != null;
  }

  /** Whether this map has the key of {@code slot} of {@code source}. */
  boolean containsKeyOf(ProbingMap source, int slot) {
    return table[2 * find(source.table[2 * slot], hashOf(source, slot)) + 1] != null;
  }

  /** Sets the value of {@code key} and returns the previous one, or null. */
  Object put(Object key, Object value) {
    if (value == null || value == WORD) {
      throw new NullPointerException("value");
    }
    return put(stored(key), hash(key), value, 0, true);
  }

  /**
   * Sets the value of {@code key} to {@code word}, kept without an object; returns the previous
   * value ({@link #WORD} if it was a word), or null.
   */
  Object putWord(Object key, long word) {
    return put(stored(key), hash(key), WORD, word, true);
  }

  /** Sets the value of {@code key} unless it has one; returns the value it had, or null. */
  Object putIfAbsent(Object key, Object value) {
    if (value == null || value == WORD) {
      throw new NullPointerException("value");
    }
    return put(stored(key), hash(key), value, 0, false);
  }

  /**
   * Sets the key of {@code slot} of {@code source} to its value there, unless this map has the
   * key and {@code replace} is false; returns the value it had, or null. Copies keys kept as
   * hashes and words as they are, without boxing.
   */
  Object putEntryOf(ProbingMap source, int slot, boolean replace) {
    Object value = source.table[2 * slot + 1];
    return put(source.table[2 * slot], hashOf(source, slot), value,
        value == WORD ? source.words[slot] : 0, replace);
  }

  private Object put(Object key, int hash, Object value, long word, boolean replace) {
    int slot = find(key, hash);
    Object previous = table[2 * slot + 1];
    if (previous != null) {
      if (replace) {
        setValue(slot, value, word);
      }
      return previous;
    }
    if (size >= threshold) {
      rehash(capacityFor(size + 1L, MAX_LOAD / 2));
      slot = find(key, hash);
    }
    table[2 * slot] = key;
    setValue(slot, value, word);
    hashes[slot] = hash;
    size++;
    return null;
  }

  private void setValue(int slot, Object value, long word) {
    table[2 * slot + 1] = value;
    if (value == WORD) {
      if (words == null) {
        words = new long[capacity];
      }
      words[slot] = word;
    }
  }

  /** Puts every entry of {@code other}, replacing the values of keys this map has. */
  void putAll(ProbingMap other) {
    for (int slot = 0; slot < other.capacity; slot++) {
      if (other.valueAt(slot) != null) {
        putEntryOf(other, slot, true);
      }
    }
  }

  /** Removes {@code key}; returns its value, or null if it had none. */
  Object remove(Object key) {
    return removeSlot(slotOf(key));
  }

  /** Removes the key of {@code slot} of {@code source}; returns its value, or null. */
  Object removeKeyOf(ProbingMap source, int slot) {
    return removeSlot(find(source.table[2 * slot], hashOf(source, slot)));
  }

  private Object removeSlot(int slot) {
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
        if (words != null) {
          words[hole] = words[next];
        }
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

  /** Test of the entry in a slot of a map, for {@link #removeIf}. */
  @FunctionalInterface
  interface SlotPredicate {
    boolean test(ProbingMap map, int slot);
  }

  /**
   * Removes the entries that {@code predicate} accepts, given this map and the entry's slot (so
   * that it can test the value without boxing the key); it may see an entry more than once.
   */
  void removeIf(SlotPredicate predicate) {
    int slot = 0;
    while (slot < capacity) {
      if (table[2 * slot + 1] != null && predicate.test(this, slot)) {
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
    long[] oldWords = words;
    int oldCapacity = capacity;
    allocate(newCapacity, oldWords != null);
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
        if (oldWords != null) {
          words[target] = oldWords[slot];
        }
      }
    }
  }

  /**
   * Stands in a slot for an {@code Integer} key, or a {@code Long} key within the int range, of
   * the given sign: the slot's hash is the key XORed with the map's mask for the sign.
   */
  private static final class SmallKey {
    final boolean isLong;
    final boolean negative;

    SmallKey(boolean isLong, boolean negative) {
      this.isLong = isLong;
      this.negative = negative;
    }

    Object box(int value) {
      return isLong ? (Object) Long.valueOf(value) : (Object) Integer.valueOf(value);
    }

    @Override public String toString() {
      return (negative ? "negative " : "") + (isLong ? "long" : "int");
    }
  }
}

package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.VersionChangeVisitor;
import java.math.BigDecimal;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The map of one committed state version of a {@link DeltaFileStateStoreProvider}: a base hash map
 * plus a delta of the changes made since the base was built. Immutable once built, so that the
 * cached versions, the read stores, a writable store opened on it and the maintenance thread can
 * all share it without locks or copies.
 *
 * <p>Successive versions share their base. The version after this one is built by
 * {@link #apply}: it merges this version's delta into the new changes (cost: the size of the
 * delta) or, once the merging done since the base was built has cost as much as one copy of the
 * base, folds everything into a new base (cost: the size of the map). This "rent or buy" rule
 * stays within about twice the cost of the best fold schedule and needs no tuning. With {@code w}
 * keys changed per version and {@code n} keys in all, the delta stays below about
 * {@code sqrt(2 n w)} entries, a lookup costs at most two hash probes, and producing a version
 * costs {@code O(w + sqrt(n w))} amortized rather than the {@code O(n)} of copying the map.
 *
 * <p>Keys are Freshet state keys (null, a single value or a {@link GroupKey}); values are rows
 * ({@code Object[]}) and are never modified. The maps hold them in {@link PackedRow}'s form, as
 * a word of the map ({@link PackedRow#packWord}, no object) where it fits, so a row read is a new
 * array each time. Entries move between maps slot to slot ({@link ProbingMap#putEntryOf}), so
 * that keys kept as their hashes are not boxed again.
 */
final class CommittedMap {
  /** Marks, in a delta or an edit map, a key that the version below has and this one removed. */
  static final Object TOMBSTONE = new Object();

  /** Changes of a version that is iterated as it is; never changed. */
  private static final ProbingMap NO_CHANGES = new ProbingMap();

  /** Version 0: no keys. */
  static final CommittedMap EMPTY = new CommittedMap(new ProbingMap(), new ProbingMap(), 0, 0);

  /** Entries whose size is measured to estimate a map's; the rest are assumed alike. */
  private static final int SAMPLE = 32;

  /** Values are rows as {@link PackedRow#pack} returns them; never modified once built. */
  private final ProbingMap base;
  /** Values are packed rows or {@link #TOMBSTONE} (only for keys of {@link #base}). */
  private final ProbingMap delta;
  private final long size;
  /** Entries copied from deltas into their successors since {@link #base} was built. */
  private final long mergedSinceFold;

  private CommittedMap(ProbingMap base, ProbingMap delta, long size,
      long mergedSinceFold) {
    this.base = base;
    this.delta = delta;
    this.size = size;
    this.mergedSinceFold = mergedSinceFold;
  }

  /**
   * Wraps a map that nobody else holds (read from files); its values must be rows as
   * {@link PackedRow#pack} returns them.
   */
  static CommittedMap of(ProbingMap map) {
    map.trim();
    return new CommittedMap(map, new ProbingMap(), map.size(), 0);
  }

  /**
   * Builds the version that applies {@code edits} to {@code parent}.
   *
   * @param edits changes to {@code parent}: a row, or {@link #TOMBSTONE} for a key that
   *     {@code parent} has and the new version removes; taken over by the new version, so the
   *     caller must drop it
   * @param mayHaveTombstones false if {@code edits} certainly holds no {@link #TOMBSTONE}
   * @param size number of keys of the new version
   */
  static CommittedMap apply(CommittedMap parent, ProbingMap edits,
      boolean mayHaveTombstones, long size) {
    ProbingMap base = parent.base;
    ProbingMap delta = parent.delta;
    long merged = parent.mergedSinceFold + delta.size();
    if (merged >= base.size()) {
      // Merging has cost as much as a copy of the base by now: fold everything into a new base,
      // so that the next versions start from an empty delta.
      ProbingMap folded;
      if (edits.size() >= base.size() / 2) {
        // Most keys changed: the edits already hold most of the new map.
        folded = edits;
        addAbsent(folded, delta);
        addAbsent(folded, base);
        folded.removeIf((map, slot) -> map.valueAt(slot) == TOMBSTONE);
      } else {
        // Copying the base's table costs much less than inserting its entries again, but a table
        // that must grow is inserted again anyway.
        if (base.canHold(size)) {
          folded = new ProbingMap(base);
        } else {
          folded = ProbingMap.trimmedFor(size);
          folded.putAll(base);
        }
        overwrite(folded, delta);
        overwrite(folded, edits);
      }
      // The base is read until the next fold: no room to grow is worth its memory.
      folded.trim();
      return new CommittedMap(folded, new ProbingMap(), size, 0);
    }
    // The parent's delta is shared with the parent, so the new delta is a copy of it with the
    // edits on top, made in whichever of the two maps is bigger to save resizing.
    ProbingMap next;
    if (delta.size() > edits.size()) {
      next = new ProbingMap(delta.size() + edits.size());
      next.putAll(delta);
      next.putAll(edits);
    } else {
      next = edits;
      addAbsent(next, delta);
    }
    if (mayHaveTombstones) {
      // A tombstone of the edits for a key that the base lacks only hid a key of the parent's
      // delta, which the new delta replaces as a whole. (The parent's own tombstones are for keys
      // of the base, which stays.)
      next.removeIf((map, slot) -> map.valueAt(slot) == TOMBSTONE
          && !base.containsKeyOf(map, slot));
    }
    return new CommittedMap(base, next, size, merged);
  }

  private static void addAbsent(ProbingMap target, ProbingMap source) {
    for (int slot = 0; slot < source.capacity(); slot++) {
      if (source.valueAt(slot) != null) {
        target.putEntryOf(source, slot, false);
      }
    }
  }

  /** Puts the rows of {@code changes} into {@code target} and removes its tombstoned keys. */
  private static void overwrite(ProbingMap target, ProbingMap changes) {
    for (int slot = 0; slot < changes.capacity(); slot++) {
      Object value = changes.valueAt(slot);
      if (value == TOMBSTONE) {
        target.removeKeyOf(changes, slot);
      } else if (value != null) {
        target.putEntryOf(changes, slot, true);
      }
    }
  }

  /** Returns the row of {@code key}, or null. */
  Object[] get(Object key) {
    int slot = delta.slotOf(key);
    Object value = delta.valueAt(slot);
    if (value == null) {
      return rowAt(base, base.slotOf(key));
    }
    return value == TOMBSTONE ? null : rowAt(delta, slot);
  }

  /** Whether {@code key} has a row. */
  private boolean containsKey(Object key) {
    Object value = delta.get(key);
    return value == null ? base.containsKey(key) : value != TOMBSTONE;
  }

  /**
   * The row in {@code slot} of {@code map}, unpacked; null for a free slot. The value must not be
   * a {@link #TOMBSTONE}.
   */
  private static Object[] rowAt(ProbingMap map, int slot) {
    Object value = map.valueAt(slot);
    if (value == null) {
      return null;
    }
    return value == ProbingMap.WORD ? PackedRow.unpackWord(map.wordAt(slot))
        : PackedRow.unpack(value);
  }

  /**
   * Puts {@code row} for {@code key} into {@code map} in the form {@link CommittedMap} keeps:
   * a word if {@link PackedRow#packWord} fits it, else {@link PackedRow#pack}'s. Returns the
   * previous value, as {@link ProbingMap#put} does.
   */
  static Object putRow(ProbingMap map, Object key, Object[] row) {
    long word = PackedRow.packWord(row);
    return word != 0 ? map.putWord(key, word) : map.put(key, PackedRow.pack(row));
  }

  /** Number of keys. */
  long size() {
    return size;
  }

  /**
   * Slots the maps of this version inspected past the first of each operation, since each was
   * made ({@link ProbingMap#probes()}): linear in the keys written unless their hashes collide.
   */
  long probes() {
    return base.probes() + delta.probes();
  }

  /**
   * What this version's maps take: their entries (a key changed since the base counts twice),
   * the bytes of their arrays, and the objects the entries hold besides
   * ({@link ProbingMap#heldObjects}). For tests of how much a state row costs.
   */
  long[] footprint() {
    return new long[] {base.size() + delta.size(), base.arrayBytes() + delta.arrayBytes(),
        base.heldObjects() + delta.heldObjects()};
  }

  /** Iterates over the entries; they cannot be modified. */
  Iterator<Map.Entry<Object, Object[]>> iterator() {
    return new Entries(NO_CHANGES);
  }

  /**
   * Iterates over the entries of this version with {@code changes} applied: rows, and
   * {@link #TOMBSTONE}s of keys removed; the entries cannot be modified.
   */
  Iterator<Map.Entry<Object, Object[]>> iterator(ProbingMap changes) {
    return new Entries(changes);
  }

  /**
   * Estimates the heap bytes of this version's maps, skipping those in {@code counted} (a map
   * that a newer version shares) and adding its own to it.
   */
  long estimateBytes(Set<Object> counted) {
    return estimateBytes(base, counted) + estimateBytes(delta, counted);
  }

  private static long estimateBytes(ProbingMap map, Set<Object> counted) {
    if (!counted.add(map) || map.isEmpty()) {
      return 0;
    }
    long sampled = 0;
    int n = 0;
    for (int slot = 0; slot < map.capacity() && n < SAMPLE; slot++) {
      Object value = map.valueAt(slot);
      if (value != null) {
        // Keys kept as hashes and values kept as words take no object.
        sampled += (map.isSmallKeyAt(slot) ? 0 : heapBytes(map.keyAt(slot)))
            + (value == ProbingMap.WORD ? 0 : heapBytes(value));
        n++;
      }
    }
    // The map, its table of two references per slot, its array of hashes and any of words.
    return 32 + map.arrayBytes() + map.size() * (sampled / n);
  }

  private static long tableLength(int size) {
    return Long.highestOneBit(Math.max(1, size * 4L / 3)) * 2;
  }

  /**
   * Rough heap size of a key or value as {@code StateCodec} reads it back, for a 64-bit JVM with
   * compressed references: 12-byte headers, 4-byte references, 8-byte alignment.
   */
  private static long heapBytes(Object value) {
    if (value == null || value == TOMBSTONE || value instanceof Boolean) {
      return 0;
    } else if (value instanceof Number && !(value instanceof BigDecimal)) {
      return 16;
    } else if (value instanceof String) {
      return 24 + align(16 + ((String) value).length());
    } else if (value instanceof BigDecimal) {
      // The BigDecimal and, past 18 digits, its BigInteger and magnitude array.
      BigDecimal d = (BigDecimal) value;
      return 40 + (d.precision() > 18 ? 40 + align(16 + d.unscaledValue().bitLength() / 8) : 0);
    } else if (value instanceof byte[]) {
      return align(16 + ((byte[]) value).length);
    } else if (value instanceof Object[]) {
      long bytes = align(16 + 4L * ((Object[]) value).length);
      for (Object element : (Object[]) value) {
        bytes += heapBytes(element);
      }
      return bytes;
    } else if (value instanceof GroupKey) {
      GroupKey key = (GroupKey) value;
      long bytes = 24 + align(16 + 4L * key.size());
      for (int i = 0; i < key.size(); i++) {
        bytes += heapBytes(key.get(i));
      }
      return bytes;
    } else if (value instanceof Collection) {
      // A HashSet: the set, its HashMap, the table and one node per element.
      Collection<?> set = (Collection<?>) value;
      long bytes = 16 + 48 + 16 + 4 * tableLength(set.size()) + 32L * set.size();
      for (Object element : set) {
        bytes += heapBytes(element);
      }
      return bytes;
    }
    return 16;
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }

  /**
   * Changes to a committed version, made by one writer (a store, or a loader replaying delta
   * files) and turned into the next version by {@link #commit()}. Not thread-safe.
   *
   * <p>Iterating while changing is allowed: an iterator sees the changes made before it was
   * created. The first change made while an iterator is unfinished copies the change map
   * (copy-on-write), so the usual patterns (iterate then commit, iterate then remove what was
   * collected) copy nothing, or the changes once.
   */
  static final class Edits {
    private final CommittedMap parent;
    /** Rows, or {@link #TOMBSTONE} for keys of {@link #parent} removed. */
    private ProbingMap changes = new ProbingMap();
    private long size;
    private boolean mayHaveTombstones;
    /** Unfinished iterators over {@link #changes}, which must not change under them. */
    private int iterators;
    /**
     * The key {@link #get} last looked up in {@link #parent} (compared by identity, valid while
     * {@link #hasLastParentKey}) and whether the parent has it: a writer puts the key it has just
     * read (restore, merge, save), and {@link #put} then needs no second lookup in the parent,
     * which with millions of keys is a cache miss. The parent never changes, so the answer holds.
     */
    private Object lastParentKey;
    private boolean hasLastParentKey;
    private boolean lastParentHas;

    Edits(CommittedMap parent) {
      this.parent = parent;
      this.size = parent.size;
    }

    /** Returns the row of {@code key}, or null. */
    Object[] get(Object key) {
      int slot = changes.slotOf(key);
      Object change = changes.valueAt(slot);
      if (change == null) {
        Object[] row = parent.get(key);
        lastParentKey = key;
        hasLastParentKey = true;
        lastParentHas = row != null;
        return row;
      }
      return change == TOMBSTONE ? null : rowAt(changes, slot);
    }

    /** Whether the parent has {@code key}; for the key just read by {@link #get}, no lookup. */
    private boolean parentContainsKey(Object key) {
      if (hasLastParentKey && key == lastParentKey) {
        return lastParentHas;
      }
      return parent.containsKey(key);
    }

    /** Whether {@code key} has a row. */
    boolean containsKey(Object key) {
      Object change = changes.get(key);
      return change == null ? parent.containsKey(key) : change != TOMBSTONE;
    }

    /** Number of keys. */
    long size() {
      return size;
    }

    void put(Object key, Object[] value) {
      beforeChange();
      Object previous = putRow(changes, key, value);
      if (previous == null ? !parentContainsKey(key) : previous == TOMBSTONE) {
        size++;
      }
    }

    /** Removes {@code key}; returns false if it was not there. */
    boolean remove(Object key) {
      Object change = changes.get(key);
      if (change == TOMBSTONE || change == null && !parent.containsKey(key)) {
        return false;
      }
      beforeChange();
      if (change != null && !parent.containsKey(key)) {
        changes.remove(key);
      } else {
        changes.put(key, TOMBSTONE);
        mayHaveTombstones = true;
      }
      size--;
      return true;
    }

    /** Iterates over the keys and rows as they are now. */
    Iterator<Map.Entry<Object, Object[]>> iterator() {
      iterators++;
      return new EditsIterator(changes);
    }

    /**
     * Hands {@code visitor} each key these edits change, with its row in the parent (null if it
     * had none) and now (null if removed); a key put and removed again is none. Version 0 in the
     * visitor's calls; call before {@link #commit()}.
     */
    void forEachChange(VersionChangeVisitor<Object, Object[]> visitor) {
      for (int slot = 0; slot < changes.capacity(); slot++) {
        Object value = changes.valueAt(slot);
        if (value != null) {
          Object key = changes.keyAt(slot);
          visitor.change(0, key, parent.get(key), value == TOMBSTONE ? null : rowAt(changes, slot));
        }
      }
    }

    /** Builds the next version; these edits must not be used afterwards. */
    CommittedMap commit() {
      beforeChange();
      CommittedMap next = apply(parent, changes, mayHaveTombstones, size);
      changes = null;
      return next;
    }

    private void beforeChange() {
      if (iterators > 0) {
        changes = new ProbingMap(changes);
        iterators = 0;
      }
    }

    /** The parent's entries the changes do not touch, then the changed rows. */
    private final class EditsIterator implements Iterator<Map.Entry<Object, Object[]>> {
      private final ProbingMap snapshot;
      private final Iterator<Map.Entry<Object, Object[]>> entries;
      private boolean finished;

      EditsIterator(ProbingMap snapshot) {
        this.snapshot = snapshot;
        this.entries = parent.iterator(snapshot);
      }

      @Override public boolean hasNext() {
        if (entries.hasNext()) {
          return true;
        }
        if (!finished) {
          finished = true;
          if (changes == snapshot) {
            iterators--;
          }
        }
        return false;
      }

      @Override public Map.Entry<Object, Object[]> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return entries.next();
      }
    }
  }

  /**
   * The base's entries that neither the delta nor the changes override, then the delta's rows
   * that the changes do not override, then the changes' rows.
   */
  private final class Entries implements Iterator<Map.Entry<Object, Object[]>> {
    private final ProbingMap changes;
    /** The map being walked: {@link #base}, {@link #delta}, then {@link #changes}. */
    private ProbingMap map = base;
    private int slot;
    private Map.Entry<Object, Object[]> next;

    Entries(ProbingMap changes) {
      this.changes = changes;
    }

    @Override public boolean hasNext() {
      while (next == null) {
        if (slot == map.capacity()) {
          if (map == changes) {
            return false;
          }
          map = map == base ? delta : changes;
          slot = 0;
          continue;
        }
        int at = slot++;
        Object value = map.valueAt(at);
        if (value == null || value == TOMBSTONE || map != changes && changes.containsKeyOf(map, at)
            || map == base && delta.containsKeyOf(map, at)) {
          continue;
        }
        next = new AbstractMap.SimpleImmutableEntry<>(map.keyAt(at), rowAt(map, at));
      }
      return true;
    }

    @Override public Map.Entry<Object, Object[]> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Map.Entry<Object, Object[]> result = next;
      next = null;
      return result;
    }
  }
}

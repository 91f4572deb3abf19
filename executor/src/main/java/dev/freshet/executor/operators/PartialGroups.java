package dev.freshet.executor.operators;

import dev.freshet.executor.state.KeyHash;
import java.util.Arrays;
import java.util.Objects;

/**
 * The partial aggregate of one batch for one state partition: a buffer per group key, in the order
 * the keys first appeared.
 *
 * <p>Why not a {@code HashMap}: this lookup runs once per input row and is most of the partial
 * aggregation's time. An open-addressing table of indexes into dense key and buffer arrays costs
 * one probe per row, no entry object per group, and iterates the groups as arrays.
 * A row is looked up by its key columns, compared after the group's cached hash, so that a row of
 * a group already seen costs no key object.
 *
 * <p>Keys are hashed by their content with a random seed of this table's ({@link KeyHash}), not
 * by {@code hashCode()}: rows whose keys share a {@code String.hashCode} (as any number of
 * strings can) would otherwise all probe one run, and a batch of them would take quadratic time.
 * {@link #probes()} counts the probing, so that tests can tell.
 *
 * <pre>{@code
 * int hash = groups.hashOf(row, keys);
 * Object[] buffer = groups.get(row, keys, hash);
 * if (buffer == null) {
 *   buffer = newBuffer();
 *   groups.add(keys.keyOf(row), hash, buffer);
 * }
 * for (int i = 0; i < groups.size(); i++) { ... groups.key(i), groups.buffer(i) ... }
 * }</pre>
 */
final class PartialGroups {
  private static final int INITIAL_CAPACITY = 16;
  /**
   * Open-addressing table; a slot holds a group's hash code in its high half and its index in the
   * dense arrays plus one in its low half, 0 when empty. With the hash in the slot, a probe reads
   * a group's key only when the hashes match: one cache miss less per row with many groups.
   */
  private long[] table = new long[INITIAL_CAPACITY * 2];
  private Object[] keys = new Object[INITIAL_CAPACITY];
  private Object[][] buffers = new Object[INITIAL_CAPACITY][];
  private int size;
  /** This table's seed for {@link KeyHash}. */
  private final long seed = KeyHash.newSeed();
  /** Slots inspected past the first of each search (see {@link #probes()}). */
  private long probes;

  /** Number of groups. */
  int size() {
    return size;
  }

  /** The key of the {@code i}-th group to appear. */
  Object key(int i) {
    return keys[i];
  }

  /** The buffer of the {@code i}-th group to appear. */
  Object[] buffer(int i) {
    return buffers[i];
  }

  /** The hash of {@code row}'s key in this table: what {@link #get} and {@link #add} take. */
  int hashOf(Object[] row, KeyExtractor extractor) {
    return extractor.hashOf(row, seed);
  }

  /** The hash of {@code key} (made by a {@link KeyExtractor}) in this table. */
  int hashOfKey(Object key) {
    return KeyHash.of(key, seed);
  }

  /**
   * How many slots searches and insertions inspected beyond the first one each: a few per lookup
   * when hashes spread, the square of the number of keys when they all collide.
   */
  long probes() {
    return probes;
  }

  /**
   * Returns the buffer of the group of {@code row}, or null.
   *
   * @param row an input row
   * @param extractor extracts the row's key; it made the keys of the groups
   * @param hash {@link #hashOf hashOf(row, extractor)}
   */
  Object[] get(Object[] row, KeyExtractor extractor, int hash) {
    int mask = table.length - 1;
    for (int slot = mix(hash) & mask; ; slot = (slot + 1) & mask, probes++) {
      long entry = table[slot];
      if (entry == 0) {
        return null;
      }
      if ((int) (entry >>> 32) == hash) {
        int i = (int) entry - 1;
        if (extractor.matches(keys[i], row)) {
          return buffers[i];
        }
      }
    }
  }

  /**
   * Returns the position of the group whose key equals {@code key}, or -1: how the partial
   * aggregates of one batch's input tasks find each other's groups.
   *
   * @param hash {@link #hashOfKey hashOfKey(key)}
   */
  int indexOf(Object key, int hash) {
    int mask = table.length - 1;
    for (int slot = mix(hash) & mask; ; slot = (slot + 1) & mask, probes++) {
      long entry = table[slot];
      if (entry == 0) {
        return -1;
      }
      if ((int) (entry >>> 32) == hash) {
        int i = (int) entry - 1;
        if (Objects.equals(keys[i], key)) {
          return i;
        }
      }
    }
  }

  /** Adds a group that {@link #get} did not find; {@code hash} is its key's hash here. */
  void add(Object key, int hash, Object[] buffer) {
    if (size == keys.length) {
      grow();
    }
    keys[size] = key;
    buffers[size] = buffer;
    size++;
    insert(table, ((long) hash << 32) | size);
  }

  private void insert(long[] into, long entry) {
    int mask = into.length - 1;
    int slot = mix((int) (entry >>> 32)) & mask;
    while (into[slot] != 0) {
      slot = (slot + 1) & mask;
      probes++;
    }
    into[slot] = entry;
  }

  /** Doubles the arrays; the table stays at most half full, so that probes stay short. */
  private void grow() {
    int capacity = keys.length * 2;
    keys = Arrays.copyOf(keys, capacity);
    buffers = Arrays.copyOf(buffers, capacity);
    long[] grown = new long[capacity * 2];
    for (long entry : table) {
      if (entry != 0) {
        insert(grown, entry);
      }
    }
    table = grown;
  }

  /** Spreads the bits of hashes of numbers close to each other across the table. */
  private static int mix(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}

package dev.freshet.executor.vector;

import java.util.Arrays;

/**
 * The distinct strings of a {@link VectorType#STRING} vector, each with a dense code from 0 in the
 * order it was first {@linkplain #encode encoded}: the vector's rows hold codes, so a kernel or a
 * group table looks at each distinct string once per batch instead of once per row.
 *
 * <pre>{@code
 * StringDictionary d = new StringDictionary();
 * int a = d.encode("a");            // 0
 * int b = d.encode("b");            // 1
 * d.encode(new String("a"));        // 0 again: entries are equal, not identical
 * d.get(1);                         // "b", the String first encoded
 * d.clear();                        // for the next batch; the arrays stay
 * }</pre>
 *
 * <p>An open-addressing table of the entries' codes keyed by {@link String#equals} (a
 * {@code String} caches its hash, so a string read again costs no hashing); it grows once to the
 * distinct strings of the largest batch and is reused after, so encoding allocates nothing.
 * {@link #seeded()} makes a dictionary that hashes the characters with a random seed of its own
 * instead, for one that lives long and may hold many strings: strings chosen to share
 * {@code String.hashCode} (easy to find) do not collide in it.
 */
public final class StringDictionary {
  private static final int INITIAL_CAPACITY = 64;

  /** The seed of the characters' hash, or 0 to use {@code String.hashCode}. */
  private final long seed;

  private String[] entries = new String[INITIAL_CAPACITY];
  private int[] hashes = new int[INITIAL_CAPACITY];
  /** Code plus one per slot, 0 when empty; at most half full. */
  private int[] slots = new int[INITIAL_CAPACITY * 2];
  private int size;

  /** An empty dictionary hashing with {@code String.hashCode}: one batch's strings. */
  public StringDictionary() {
    this.seed = 0;
  }

  private StringDictionary(long seed) {
    this.seed = seed;
  }

  /** An empty dictionary whose hash of the characters has a random seed (see above). */
  public static StringDictionary seeded() {
    return new StringDictionary(java.util.concurrent.ThreadLocalRandom.current().nextLong() | 1);
  }

  /** The code of {@code value}, added if it has none; {@code value} is not null. */
  public int encode(String value) {
    int hash = hash(value);
    int mask = slots.length - 1;
    int slot = mix(hash) & mask;
    for (; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        break;
      }
      int code = entry - 1;
      String e = entries[code];
      if (e == value || hashes[code] == hash && e.equals(value)) {
        return code;
      }
    }
    if (size == entries.length) {
      grow();
      return encode(value);
    }
    int code = size++;
    entries[code] = value;
    hashes[code] = hash;
    slots[slot] = code + 1;
    return code;
  }

  /**
   * The code of {@code value}, or -1 if it has none; adds nothing and allocates nothing, so that
   * several threads may ask at once while nobody encodes.
   */
  public int find(String value) {
    int hash = hash(value);
    int mask = slots.length - 1;
    for (int slot = mix(hash) & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        return -1;
      }
      int code = entry - 1;
      String e = entries[code];
      if (e == value || hashes[code] == hash && e.equals(value)) {
        return code;
      }
    }
  }

  /** The string of {@code code}. */
  public String get(int code) {
    return entries[code];
  }

  /** Number of distinct strings. */
  public int size() {
    return size;
  }

  /** Forgets every entry (and lets go of the strings); the arrays are kept. */
  public void clear() {
    if (size > 0) {
      Arrays.fill(slots, 0);
      Arrays.fill(entries, 0, size, null);
      size = 0;
    }
  }

  private void grow() {
    int capacity = entries.length * 2;
    entries = Arrays.copyOf(entries, capacity);
    hashes = Arrays.copyOf(hashes, capacity);
    int[] grown = new int[capacity * 2];
    int mask = grown.length - 1;
    for (int code = 0; code < size; code++) {
      int slot = mix(hashes[code]) & mask;
      while (grown[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      grown[slot] = code + 1;
    }
    slots = grown;
  }

  private int hash(String value) {
    if (seed == 0) {
      return value.hashCode();
    }
    long h = seed;
    for (int i = 0; i < value.length(); i++) {
      h = (h ^ value.charAt(i)) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
    }
    h = (h ^ value.length()) * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  /** Spreads String's hash, whose low bits alone collide for short keys like "k1", "k2". */
  private static int mix(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}

package dev.freshet.executor.state;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Hashes of grouping keys by their content under a seed, for the hash tables that hold user data
 * (a batch's partial aggregates, the state maps): keys whose {@code hashCode()}s are equal hash
 * apart.
 *
 * <p>Why not {@code hashCode()}: anyone who writes rows can make as many distinct strings with
 * one {@code String.hashCode} as they like ({@code "Aa"} and {@code "BB"} have the same, and so
 * has every string made of such blocks), and composite keys collide as easily ({@code (1, 0)} and
 * {@code (0, 31)} under {@code Arrays.hashCode}). In an open-addressing table every such key
 * lands in one run, and a batch of {@code n} of them costs {@code n^2} probes. Here a string's
 * characters, a number's bits and a composite key's columns are mixed with a random seed of the
 * table's own, which nobody outside sees, so a collision is as rare for crafted keys as for
 * random ones. Values of other types (decimals, sets) are hashed by their {@code hashCode()}.
 *
 * <p>Not stable across tables or JVMs: what must be stable (the state partition of a key) uses
 * {@link KeyExtractor#hashOf(Object[])}. Allocates nothing.
 *
 * <pre>{@code
 * long seed = KeyHash.newSeed();
 * int h = KeyHash.of("AaBB", seed);              // a key as KeyExtractor.keyOf makes it
 * int same = extractor.hashOf(row, seed);        // the same for a row with that key
 * }</pre>
 */
public final class KeyHash {
  private static final long C1 = 0x87C37B91114253D5L;
  private static final long C2 = 0x4CF5AD432745937FL;
  /** Stands for null among a composite key's columns. */
  private static final long NULL_BITS = 0x9E3779B97F4A7C15L;

  private KeyHash() {
  }

  /** A seed for a new table. */
  public static long newSeed() {
    return ThreadLocalRandom.current().nextLong();
  }

  /**
   * The hash of {@code key} (null, one column's value, or a {@link GroupKey}) under
   * {@code seed}.
   */
  public static int of(Object key, long seed) {
    if (key instanceof GroupKey k) {
      long h = seed;
      for (int i = 0; i < k.size(); i++) {
        h = combine(h, bits(k.get(i), seed));
      }
      return fold(h);
    }
    return ofValue(key, seed);
  }

  /** The hash of a key of one column whose value is {@code value}. */
  public static int ofValue(Object value, long seed) {
    if (value instanceof String s) {
      return fold(ofString(s, seed));
    }
    if (value == null || value instanceof Boolean) {
      return fold(fmix(bits(value, seed) ^ seed));
    }
    if (value instanceof Number && !(value instanceof java.math.BigDecimal)) {
      // The low half kept as it is: numbers close to each other (consecutive ids, window starts)
      // stay close, which tables may use for locality; the high half is mixed with the seed.
      long x = bits(value, seed);
      return (int) x ^ (int) fmix((x >>> 32) ^ seed);
    }
    return fold(fmix(value.hashCode() ^ seed));
  }

  /**
   * What an {@code Integer} or a {@code Long} key {@code v} with {@code (int) v == v} is XORed
   * with to make its hash under {@code seed}:
   * {@code ofValue(v, seed) == ((int) v ^ smallIntegerMask(seed, v < 0))}. A table may keep such a
   * key as its hash alone and get the key back from it.
   */
  public static int smallIntegerMask(long seed, boolean negative) {
    return (int) fmix((negative ? 0xFFFFFFFFL : 0L) ^ seed);
  }

  /**
   * The hash {@code h} of a composite key's first columns (the seed for none) with the next
   * column's {@link #bits}.
   */
  public static long combine(long h, long valueBits) {
    return fmix(h ^ valueBits) + C1;
  }

  /** The 32-bit table hash of a composite key's hash. */
  public static int fold(long h) {
    return (int) (h ^ (h >>> 32));
  }

  /**
   * What a composite key's column contributes: its value's bits, or its string's seeded hash.
   * {@code -0.0} counts as {@code 0.0}, as the keys are normalized.
   */
  public static long bits(Object value, long seed) {
    if (value == null) {
      return NULL_BITS;
    } else if (value instanceof String s) {
      return ofString(s, seed);
    } else if (value instanceof Long l) {
      return l;
    } else if (value instanceof Integer i) {
      return i;
    } else if (value instanceof Double d) {
      return d == 0.0d ? 0 : Double.doubleToLongBits(d);
    } else if (value instanceof Float f) {
      return f == 0.0f ? 0 : Float.floatToIntBits(f);
    } else if (value instanceof Short s) {
      return s;
    } else if (value instanceof Byte b) {
      return b;
    } else if (value instanceof Boolean b) {
      return b ? 1 : 2;
    }
    return value.hashCode();
  }

  /** A 64-bit hash of {@code s}'s characters under {@code seed}, four characters a round. */
  static long ofString(String s, long seed) {
    int n = s.length();
    long h = seed ^ (n * C2);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
      long block = s.charAt(i) | (long) s.charAt(i + 1) << 16 | (long) s.charAt(i + 2) << 32
          | (long) s.charAt(i + 3) << 48;
      h ^= Long.rotateLeft(block * C1, 31) * C2;
      h = Long.rotateLeft(h, 27) * 5 + 0x52DCE729;
    }
    long tail = 0;
    for (int shift = 0; i < n; i++, shift += 16) {
      tail |= (long) s.charAt(i) << shift;
    }
    h ^= Long.rotateLeft(tail * C1, 31) * C2;
    return fmix(h);
  }

  /** A bijective mix of 64 bits, each output bit depending on every input bit. */
  private static long fmix(long h) {
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }
}

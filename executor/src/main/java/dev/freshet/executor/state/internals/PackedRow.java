package dev.freshet.executor.state.internals;

/**
 * The form in which {@link CommittedMap} keeps a row: a row whose slots are all null,
 * {@code Long} or {@code Double} (counts and sums, the common aggregation state) packed into one
 * {@code byte[]}, any other row as it is. A row {@code {null, 1L, 523_417L}} takes 24 bytes
 * packed instead of 32 for the {@code Object[3]} and 24 for each {@code Long} outside the small
 * cached ones. Unpacking makes a new {@code Object[]} at each read, which costs far less than a
 * state row's lookups and file I/O.
 *
 * <p>Layout: byte 0 is the slot count {@code n} (1 to {@value #MAX_SLOTS}); then
 * {@code ceil(n / 4)} bytes of 2-bit tags, slot {@code i}'s at bits {@code 2 (i % 4)} of byte
 * {@code 1 + i / 4} (0 null, 1 long, 2 double); then the values of the non-null slots in order:
 * a long as a zigzag varint (7 bits a byte, low bits first; small magnitudes take one byte), a
 * double as its 8 raw bytes, big-endian. This is a heap form only: files hold
 * {@link dev.freshet.executor.state.StateCodec}'s encoding of the unpacked row.
 *
 * <p>A row whose packed form takes at most 8 bytes (nulls and longs only, such as
 * {@code {null, count, sum}} with counts below 64 and sums below 2^34 in magnitude) also fits in
 * a {@code long}, {@link #packWord}: the same bytes, byte {@code i} at bits {@code 8 i}, zeros
 * after. A map keeps that word without an object ({@link ProbingMap#putWord}).
 *
 * <pre>{@code
 * Object stored = PackedRow.pack(new Object[] {null, 1L, 523_417L});   // a byte[6]
 * Object[] row = PackedRow.unpack(stored);                           // {null, 1L, 523417L}
 * long word = PackedRow.packWord(new Object[] {null, 1L, 523_417L});  // 0x0000_3FF2_B202_1403
 * Object[] same = PackedRow.unpackWord(word);                        // {null, 1L, 523417L}
 * }</pre>
 */
final class PackedRow {
  /** Longest row packed; longer rows are rare and stay as they are. */
  static final int MAX_SLOTS = 127;

  private static final int NULL = 0;
  private static final int LONG = 1;
  private static final int DOUBLE = 2;

  private PackedRow() {
  }

  /** Returns {@code row} packed into a {@code byte[]} if it can be, else {@code row} itself. */
  static Object pack(Object[] row) {
    int n = row.length;
    if (n == 0 || n > MAX_SLOTS) {
      return row;
    }
    int length = 1 + (n + 3) / 4;
    for (Object value : row) {
      if (value instanceof Long) {
        length += varintLength(zigzag((Long) value));
      } else if (value instanceof Double) {
        length += 8;
      } else if (value != null) {
        return row;
      }
    }
    byte[] packed = new byte[length];
    packed[0] = (byte) n;
    int pos = 1 + (n + 3) / 4;
    for (int i = 0; i < n; i++) {
      Object value = row[i];
      int tag;
      if (value instanceof Long) {
        tag = LONG;
        pos = writeVarint(packed, pos, zigzag((Long) value));
      } else if (value instanceof Double) {
        tag = DOUBLE;
        long bits = Double.doubleToRawLongBits((Double) value);
        for (int shift = 56; shift >= 0; shift -= 8) {
          packed[pos++] = (byte) (bits >>> shift);
        }
      } else {
        tag = NULL;
      }
      packed[1 + i / 4] |= (byte) (tag << (2 * (i % 4)));
    }
    return packed;
  }

  /** Returns the row that {@link #pack} was given, as a new array if it was packed. */
  static Object[] unpack(Object stored) {
    if (!(stored instanceof byte[])) {
      return (Object[]) stored;
    }
    byte[] packed = (byte[]) stored;
    int n = packed[0];
    Object[] row = new Object[n];
    int pos = 1 + (n + 3) / 4;
    for (int i = 0; i < n; i++) {
      int tag = (packed[1 + i / 4] >>> (2 * (i % 4))) & 3;
      if (tag == LONG) {
        long encoded = 0;
        int shift = 0;
        byte b;
        do {
          b = packed[pos++];
          encoded |= (long) (b & 0x7F) << shift;
          shift += 7;
        } while (b < 0);
        row[i] = (encoded >>> 1) ^ -(encoded & 1);
      } else if (tag == DOUBLE) {
        long bits = 0;
        for (int k = 0; k < 8; k++) {
          bits = bits << 8 | (packed[pos++] & 0xFF);
        }
        row[i] = Double.longBitsToDouble(bits);
      }
    }
    return row;
  }

  /**
   * Returns {@code row} packed into a {@code long} as {@link #pack} would pack it into a
   * {@code byte[]}, or 0 (which no packed row is: its first byte counts at least one slot) if
   * that takes more than 8 bytes or the row has a slot that is neither null nor a {@code Long}.
   * Allocates nothing.
   */
  static long packWord(Object[] row) {
    int n = row.length;
    int pos = 1 + (n + 3) / 4;
    if (n == 0 || pos > Long.BYTES) {
      return 0;
    }
    long word = n;
    for (int i = 0; i < n; i++) {
      Object value = row[i];
      if (value instanceof Long) {
        long v = zigzag((Long) value);
        if (pos + varintLength(v) > Long.BYTES) {
          return 0;
        }
        word |= (long) LONG << (8 * (1 + i / 4) + 2 * (i % 4));
        while ((v & ~0x7FL) != 0) {
          word |= (v & 0x7F | 0x80) << (8 * pos++);
          v >>>= 7;
        }
        word |= v << (8 * pos++);
      } else if (value != null) {
        return 0;
      }
    }
    return word;
  }

  /** Returns the row that {@link #packWord} was given, as a new array. */
  static Object[] unpackWord(long word) {
    int n = (int) (word & 0xFF);
    Object[] row = new Object[n];
    int pos = 1 + (n + 3) / 4;
    for (int i = 0; i < n; i++) {
      int tag = (int) (word >>> (8 * (1 + i / 4) + 2 * (i % 4))) & 3;
      if (tag == LONG) {
        long encoded = 0;
        int shift = 0;
        long b;
        do {
          b = word >>> (8 * pos++) & 0xFF;
          encoded |= (b & 0x7F) << shift;
          shift += 7;
        } while ((b & 0x80) != 0);
        row[i] = (encoded >>> 1) ^ -(encoded & 1);
      }
    }
    return row;
  }

  /** Maps small magnitudes of either sign to small unsigned numbers. */
  private static long zigzag(long value) {
    return value << 1 ^ value >> 63;
  }

  private static int varintLength(long value) {
    // 7 bits a byte; zero still takes one.
    return Math.max(1, (70 - Long.numberOfLeadingZeros(value)) / 7);
  }

  private static int writeVarint(byte[] out, int pos, long value) {
    while ((value & ~0x7FL) != 0) {
      out[pos++] = (byte) (value & 0x7F | 0x80);
      value >>>= 7;
    }
    out[pos++] = (byte) value;
    return pos;
  }
}

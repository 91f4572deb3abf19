package dev.freshet.executor.state;

import dev.freshet.common.types.ValueCodec;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;

/**
 * Compact binary encoding of the keys and values a stateful aggregation keeps: a type tag byte,
 * then the value. Not Java serialization: the format is Freshet's own, stable across JVMs and
 * versions, and documented here.
 *
 * <p>Tags: 0 null, 1 false, 2 true, 3 byte, 4 short, 5 int (4 bytes), 6 long (8 bytes),
 * 7 float, 8 double, 9 string (modified UTF-8 length-prefixed, or chunked when longer than 16 K
 * characters: tag 10), 11 decimal (scale int, unscaled length int, unscaled bytes), 12 group key
 * (count int, then each value), 13 set (count int, then each value), 14 row (count int, then each
 * value). Keys are single values or {@link GroupKey}s; values are rows ({@code Object[]}) whose
 * slots may hold sets (the distinct values of a distinct aggregate).
 *
 * <pre>{@code
 * StateCodec.write(out, new Object[] {null, 3L, 4.5});
 * Object[] row = (Object[]) StateCodec.read(in);
 * }</pre>
 *
 * <p>Each value's body after its tag is its type's {@link ValueCodec}, the body the view change
 * log writes too ({@code dev.freshet.common.types}); decimals and long strings are read here,
 * where a length can be checked against the bytes left.
 *
 * <p>This is the encoding of every row and key that the executor writes to a file: state delta
 * and snapshot files, MVStore state, the rows of a stream's log; the engine also encodes a
 * view's group keys with it. Two other encodings exist, each for a reason: {@code PackedRow}
 * (state.internals) is a heap form only, smaller than this for rows of longs and doubles and
 * never written; the engine's change log ({@code StoredColumnType#write}) is untagged, driven by
 * the view's column types, and keeps each value as the result table holds it (a decimal rounded
 * to its column's scale), so that a replayed change equals a row read from the table.
 */
public final class StateCodec {
  /** Version of this format, written into checkpoints so that a reader can reject others. */
  public static final int FORMAT_VERSION = 1;

  private static final int CHUNK = ValueCodec.CHUNK;

  private StateCodec() {
  }

  /** Writes {@code value}. */
  public static void write(DataOutput out, Object value) throws IOException {
    if (value == null) {
      out.writeByte(0);
    } else if (value instanceof Boolean) {
      out.writeByte((Boolean) value ? 2 : 1);
    } else if (value instanceof Byte) {
      body(out, 3, ValueCodec.BYTE, value);
    } else if (value instanceof Short) {
      body(out, 4, ValueCodec.SHORT, value);
    } else if (value instanceof Integer) {
      body(out, 5, ValueCodec.INT, value);
    } else if (value instanceof Long) {
      body(out, 6, ValueCodec.LONG, value);
    } else if (value instanceof Float) {
      body(out, 7, ValueCodec.FLOAT, value);
    } else if (value instanceof Double) {
      body(out, 8, ValueCodec.DOUBLE, value);
    } else if (value instanceof String) {
      // The string's body starts with its own tag, 9 or 10.
      ValueCodec.STRING.write(out, value);
    } else if (value instanceof BigDecimal) {
      body(out, 11, ValueCodec.DECIMAL, value);
    } else if (value instanceof GroupKey) {
      GroupKey key = (GroupKey) value;
      out.writeByte(12);
      out.writeInt(key.size());
      for (int i = 0; i < key.size(); i++) {
        write(out, key.get(i));
      }
    } else if (value instanceof Set) {
      Set<?> set = (Set<?>) value;
      out.writeByte(13);
      out.writeInt(set.size());
      for (Object element : set) {
        write(out, element);
      }
    } else if (value instanceof Object[]) {
      Object[] row = (Object[]) value;
      out.writeByte(14);
      out.writeInt(row.length);
      for (Object element : row) {
        write(out, element);
      }
    } else {
      throw new IllegalArgumentException("Cannot encode a " + value.getClass().getName()
          + " in state: " + value);
    }
  }

  /** A tag, then {@code value}'s body as its type's descriptor writes it. */
  private static void body(DataOutput out, int tag, ValueCodec codec, Object value)
      throws IOException {
    out.writeByte(tag);
    codec.write(out, value);
  }

  /**
   * Reads one value.
   *
   * @throws IOException if the input ends early or holds an unknown tag (a corrupt file)
   */
  public static Object read(DataInput in) throws IOException {
    int tag = in.readUnsignedByte();
    switch (tag) {
    case 0:
      return null;
    case 1:
      return Boolean.FALSE;
    case 2:
      return Boolean.TRUE;
    case 3:
      return ValueCodec.BYTE.read(in);
    case 4:
      return ValueCodec.SHORT.read(in);
    case 5:
      return ValueCodec.INT.read(in);
    case 6:
      return ValueCodec.LONG.read(in);
    case 7:
      return ValueCodec.FLOAT.read(in);
    case 8:
      return ValueCodec.DOUBLE.read(in);
    case 9:
      return ValueCodec.readStringAfterTag(in, tag);
    case 10: {
      int chunks = count(in);
      StringBuilder sb = new StringBuilder(chunks * CHUNK);
      for (int i = 0; i < chunks; i++) {
        sb.append(in.readUTF());
      }
      return sb.toString();
    }
    case 11: {
      int scale = in.readInt();
      byte[] unscaled = new byte[count(in)];
      in.readFully(unscaled);
      return new BigDecimal(new BigInteger(unscaled), scale);
    }
    case 12: {
      Object[] values = new Object[count(in)];
      for (int i = 0; i < values.length; i++) {
        values[i] = read(in);
      }
      return GroupKey.of(values);
    }
    case 13: {
      int n = count(in);
      Set<Object> set = new HashSet<>(Math.max(16, n * 2));
      for (int i = 0; i < n; i++) {
        set.add(read(in));
      }
      return set;
    }
    case 14: {
      Object[] row = new Object[count(in)];
      for (int i = 0; i < row.length; i++) {
        row[i] = read(in);
      }
      return row;
    }
    default:
      throw new IOException("Unknown state value tag " + tag + ": the file is corrupt or was"
          + " written by a newer Freshet");
    }
  }

  /**
   * Reads the one value that occupies exactly {@code length} bytes of {@code bytes} from
   * {@code offset}: the form in which state files and stores keep a key or a value.
   *
   * <p>Unlike {@link #read(DataInput)} on a stream it knows where the value ends, so it rejects a
   * length or count larger than the bytes left (a corrupt file would otherwise make it allocate an
   * array of up to 2<sup>31</sup> elements) and bytes left over after the value.
   *
   * @throws IOException if the bytes are not exactly one value (a corrupt file)
   */
  public static Object decode(byte[] bytes, int offset, int length) throws IOException {
    ByteSlice in = new ByteSlice(bytes, offset, length);
    Object value = read(in);
    if (in.remaining() != 0) {
      throw new IOException(in.remaining() + " bytes left over after a value of " + length
          + " bytes: the file is corrupt");
    }
    return value;
  }

  private static int count(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("Negative length " + n + " in state: the file is corrupt");
    }
    // Every element, byte or chunk takes at least one byte, so a larger count cannot be right.
    if (in instanceof ByteSlice && n > ((ByteSlice) in).remaining()) {
      throw new IOException("Length " + n + " exceeds the " + ((ByteSlice) in).remaining()
          + " bytes left in the value: the file is corrupt");
    }
    return n;
  }
}

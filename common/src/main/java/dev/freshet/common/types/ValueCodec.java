package dev.freshet.common.types;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The binary form of one non-null value of a Java class, without a type tag or a null flag: the
 * bodies that both of Freshet's row encodings write after their own tag or flag (see the package
 * documentation). Several SQL types share a body: DATE and TIME are an {@link #INT}, TIMESTAMP a
 * {@link #LONG}.
 *
 * <pre>{@code
 * ValueCodec.LONG.write(out, 1700000000000L);   // 8 bytes, big-endian
 * Object v = ValueCodec.LONG.read(in);          // 1700000000000L
 * }</pre>
 *
 * <p>These forms are in checkpoints, state files, stream logs and view change logs already
 * written, so they never change: a new form is a new constant.
 */
public enum ValueCodec {
  /** One byte, 0 or 1. */
  BOOLEAN {
    @Override public void write(DataOutput out, Object value) throws IOException {
      out.writeBoolean((Boolean) value);
    }

    @Override public Object read(DataInput in) throws IOException {
      return in.readBoolean();
    }
  },
  /** One byte. Any {@link Number} is narrowed. */
  BYTE {
    @Override public void write(DataOutput out, Object value) throws IOException {
      out.writeByte(((Number) value).byteValue());
    }

    @Override public Object read(DataInput in) throws IOException {
      return in.readByte();
    }
  },
  /** Two bytes, big-endian. */
  SHORT {
    @Override public void write(DataOutput out, Object value) throws IOException {
      out.writeShort(((Number) value).shortValue());
    }

    @Override public Object read(DataInput in) throws IOException {
      return in.readShort();
    }
  },
  /** Four bytes, big-endian. */
  INT {
    @Override public void write(DataOutput out, Object value) throws IOException {
      out.writeInt(((Number) value).intValue());
    }

    @Override public Object read(DataInput in) throws IOException {
      return in.readInt();
    }
  },
  /** Eight bytes, big-endian. */
  LONG {
    @Override public void write(DataOutput out, Object value) throws IOException {
      out.writeLong(((Number) value).longValue());
    }

    @Override public Object read(DataInput in) throws IOException {
      return in.readLong();
    }
  },
  /** IEEE 754 single precision, four bytes. */
  FLOAT {
    @Override public void write(DataOutput out, Object value) throws IOException {
      out.writeFloat(((Number) value).floatValue());
    }

    @Override public Object read(DataInput in) throws IOException {
      return in.readFloat();
    }
  },
  /** IEEE 754 double precision, eight bytes. */
  DOUBLE {
    @Override public void write(DataOutput out, Object value) throws IOException {
      out.writeDouble(((Number) value).doubleValue());
    }

    @Override public Object read(DataInput in) throws IOException {
      return in.readDouble();
    }
  },
  /**
   * A {@link BigDecimal}: its scale (int), the length of its unscaled value (int), then the
   * unscaled value's two's-complement bytes. The value is written as it is, not rounded.
   */
  DECIMAL {
    @Override public void write(DataOutput out, Object value) throws IOException {
      BigDecimal d = value instanceof BigDecimal b ? b : new BigDecimal(value.toString());
      byte[] unscaled = d.unscaledValue().toByteArray();
      out.writeInt(d.scale());
      out.writeInt(unscaled.length);
      out.write(unscaled);
    }

    @Override public Object read(DataInput in) throws IOException {
      int scale = in.readInt();
      byte[] unscaled = new byte[length(in)];
      in.readFully(unscaled);
      return new BigDecimal(new BigInteger(unscaled), scale);
    }
  },
  /**
   * A {@link String}: byte 9 then modified UTF-8 ({@link DataOutput#writeUTF}) up to
   * {@value #CHUNK} characters; longer, byte 10, the number of chunks (int), then each chunk of
   * at most {@value #CHUNK} characters as modified UTF-8. The leading byte is the string's
   * tag in {@code StateCodec}, and the view change log has always written it too.
   */
  STRING {
    @Override public void write(DataOutput out, Object value) throws IOException {
      String s = value.toString();
      if (s.length() <= CHUNK) {
        out.writeByte(SHORT_STRING);
        out.writeUTF(s);
        return;
      }
      // writeUTF is limited to 65535 bytes; long strings go in chunks of at most CHUNK chars.
      out.writeByte(CHUNKED_STRING);
      int chunks = (s.length() + CHUNK - 1) / CHUNK;
      out.writeInt(chunks);
      for (int i = 0; i < chunks; i++) {
        out.writeUTF(s.substring(i * CHUNK, Math.min(s.length(), (i + 1) * CHUNK)));
      }
    }

    @Override public Object read(DataInput in) throws IOException {
      int tag = in.readUnsignedByte();
      if (tag != SHORT_STRING && tag != CHUNKED_STRING) {
        throw new IOException("Corrupt string: tag " + tag + ", expected " + SHORT_STRING
            + " or " + CHUNKED_STRING);
      }
      return readStringAfterTag(in, tag);
    }
  },
  /** A {@code byte[]}: its length (int), then the bytes. */
  BYTES {
    @Override public void write(DataOutput out, Object value) throws IOException {
      byte[] bytes = (byte[]) value;
      out.writeInt(bytes.length);
      out.write(bytes);
    }

    @Override public Object read(DataInput in) throws IOException {
      byte[] bytes = new byte[length(in)];
      in.readFully(bytes);
      return bytes;
    }
  };

  /** The longest string written in one piece, in characters. */
  public static final int CHUNK = 16 * 1024;
  /** The first byte of a string of at most {@link #CHUNK} characters. */
  public static final int SHORT_STRING = 9;
  /** The first byte of a longer string, written in chunks. */
  public static final int CHUNKED_STRING = 10;

  /**
   * Writes non-null {@code value}, an instance of the class this form is for (or, for the
   * numeric forms, any {@link Number}, narrowed).
   */
  public abstract void write(DataOutput out, Object value) throws IOException;

  /** Reads a value that {@link #write} wrote. */
  public abstract Object read(DataInput in) throws IOException;

  /**
   * The rest of a string whose first byte, {@code tag} ({@link #SHORT_STRING} or
   * {@link #CHUNKED_STRING}), a reader of tagged values has already read.
   */
  public static String readStringAfterTag(DataInput in, int tag) throws IOException {
    if (tag == SHORT_STRING) {
      return in.readUTF();
    }
    int chunks = length(in);
    StringBuilder sb = new StringBuilder(Math.min(chunks, 64) * CHUNK);
    for (int i = 0; i < chunks; i++) {
      sb.append(in.readUTF());
    }
    return sb.toString();
  }

  /** A count or length, which a corrupt file could make negative. */
  private static int length(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("Corrupt length: " + n);
    }
    return n;
  }
}

package dev.freshet.executor.state;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * A bounded, unsynchronized {@link DataInput} over part of a byte array, which a reader may point
 * at another array for each value it decodes ({@link #reset}), so that decoding allocates only
 * what it returns. The encodings Freshet writes to files ({@link StateCodec}, a view's appended
 * rows) are read through it.
 *
 * <pre>{@code
 * ByteSlice in = new ByteSlice(bytes, 0, bytes.length);
 * Object value = StateCodec.read(in);
 * in.reset(other, 0, other.length);   // the next value
 * }</pre>
 */
public final class ByteSlice implements DataInput {
  private byte[] bytes;
  private int end;
  private int pos;

  /** Reads {@code length} bytes of {@code bytes} from {@code offset}. */
  public ByteSlice(byte[] bytes, int offset, int length) {
    reset(bytes, offset, length);
  }

  /** Reads {@code length} bytes of {@code bytes} from {@code offset} from now on. */
  public void reset(byte[] bytes, int offset, int length) {
    if (offset < 0 || length < 0 || offset + length > bytes.length) {
      throw new IndexOutOfBoundsException("offset " + offset + ", length " + length
          + " outside an array of " + bytes.length);
    }
    this.bytes = bytes;
    this.pos = offset;
    this.end = offset + length;
  }

  /** How many bytes are left to read. */
  public int remaining() {
    return end - pos;
  }

  private int take(int n) throws EOFException {
    if (n > end - pos) {
      throw new EOFException("Value ends after " + (end - pos) + " more bytes, " + n
          + " needed: the file is corrupt");
    }
    int at = pos;
    pos += n;
    return at;
  }

  @Override public void readFully(byte[] b) throws IOException {
    readFully(b, 0, b.length);
  }

  @Override public void readFully(byte[] b, int off, int len) throws IOException {
    System.arraycopy(bytes, take(len), b, off, len);
  }

  @Override public int skipBytes(int n) {
    int skipped = Math.max(0, Math.min(n, end - pos));
    pos += skipped;
    return skipped;
  }

  @Override public boolean readBoolean() throws IOException {
    return readByte() != 0;
  }

  @Override public byte readByte() throws IOException {
    return bytes[take(1)];
  }

  @Override public int readUnsignedByte() throws IOException {
    return bytes[take(1)] & 0xFF;
  }

  @Override public short readShort() throws IOException {
    return (short) readUnsignedShort();
  }

  @Override public int readUnsignedShort() throws IOException {
    int at = take(2);
    return (bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF;
  }

  @Override public char readChar() throws IOException {
    return (char) readUnsignedShort();
  }

  @Override public int readInt() throws IOException {
    int at = take(4);
    return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16
        | (bytes[at + 2] & 0xFF) << 8 | bytes[at + 3] & 0xFF;
  }

  @Override public long readLong() throws IOException {
    return (long) readInt() << 32 | readInt() & 0xFFFFFFFFL;
  }

  @Override public float readFloat() throws IOException {
    return Float.intBitsToFloat(readInt());
  }

  @Override public double readDouble() throws IOException {
    return Double.longBitsToDouble(readLong());
  }

  @Override public String readLine() {
    throw new UnsupportedOperationException("Freshet's encodings have no lines");
  }

  @Override public String readUTF() throws IOException {
    return DataInputStream.readUTF(this);
  }
}

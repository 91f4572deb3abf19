package dev.freshet.engine.view;

import dev.freshet.engine.store.StoredColumnType;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Decodes rows that {@link AppendedRows} encoded, one reader per thread: a {@link DataInput} over
 * the row's bytes, reused from row to row so that a scan allocates only the rows it returns.
 *
 * <pre>{@code
 * RowReader reader = new RowReader(types);
 * Object[] row = reader.decode(bytes);   // each column as StoredColumnType.readFrom reads it
 * }</pre>
 */
final class RowReader implements DataInput {
  private final StoredColumnType[] types;
  private byte[] bytes = new byte[0];
  private int pos;

  RowReader(StoredColumnType[] types) {
    this.types = types;
  }

  /** The row encoded in {@code row}: a fresh array. */
  Object[] decode(byte[] row) {
    bytes = row;
    pos = 0;
    Object[] values = new Object[types.length];
    try {
      for (int c = 0; c < values.length; c++) {
        values[c] = types[c].readFrom(this);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("An appended row does not decode: the file is damaged", e);
    }
    if (pos != bytes.length) {
      throw new IllegalStateException((bytes.length - pos) + " bytes left over after an"
          + " appended row: the file is damaged");
    }
    return values;
  }

  private int take(int n) throws EOFException {
    if (n > bytes.length - pos) {
      throw new EOFException("An appended row ends after " + (bytes.length - pos)
          + " more bytes, " + n + " needed");
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
    int skipped = Math.max(0, Math.min(n, bytes.length - pos));
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
    throw new UnsupportedOperationException("an appended row has no lines");
  }

  @Override public String readUTF() throws IOException {
    return DataInputStream.readUTF(this);
  }
}

package dev.freshet.executor.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * MVStore type of byte-array keys and values: stored as the length (a variable-size int) and the
 * bytes, ordered by unsigned byte comparison, so that encoded keys sort as their bytes do. The
 * MVStore state store's data map and a view's appended rows keep their keys in it.
 *
 * <pre>{@code
 * store.openMap("data", new MVMap.Builder<byte[], byte[]>()
 *     .keyType(UnsignedBytesType.INSTANCE).valueType(UnsignedBytesType.INSTANCE));
 * }</pre>
 */
public final class UnsignedBytesType extends BasicDataType<byte[]> {
  public static final UnsignedBytesType INSTANCE = new UnsignedBytesType();

  private UnsignedBytesType() {
  }

  @Override public int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  @Override public int getMemory(byte[] b) {
    // Array header and length word, as MVStore estimates a page's memory.
    return 24 + b.length;
  }

  @Override public void write(WriteBuffer buffer, byte[] b) {
    buffer.putVarInt(b.length).put(b);
  }

  @Override public byte[] read(ByteBuffer buffer) {
    byte[] b = new byte[DataUtils.readVarInt(buffer)];
    buffer.get(b);
    return b;
  }

  @Override public byte[][] createStorage(int size) {
    return new byte[size][];
  }
}

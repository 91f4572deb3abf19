package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Encodes to and decodes from byte arrays with {@link StateCodec} for an
 * {@link MVStoreStateStoreProvider}, reusing its streams; confined to one thread: the provider's
 * to the batch thread, pins and change reads make their own.
 *
 * <pre>{@code
 * MVStoreCodec codec = new MVStoreCodec(id, file);
 * byte[] key = codec.encode(groupKey);
 * Object row = codec.decode(value, version);
 * }</pre>
 */
final class MVStoreCodec {
  private final StateStoreId id;
  private final Path file;
  private final Bytes bytes = new Bytes();
  private final DataOutputStream out = new DataOutputStream(bytes);
  private final Input input = new Input();
  private final DataInputStream in = new DataInputStream(input);

  MVStoreCodec(StateStoreId id, Path file) {
    this.id = id;
    this.file = file;
  }

  byte[] encode(Object value) {
    bytes.reset();
    try {
      StateCodec.write(out, value);
    } catch (IOException e) {
      // A ByteArrayOutputStream does not fail; StateCodec rejects what it cannot encode with an
      // IllegalArgumentException.
      throw new IllegalStateException(e);
    }
    return bytes.toByteArray();
  }

  Object decode(byte[] encoded, long version) {
    input.reset(encoded);
    try {
      return StateCodec.read(in);
    } catch (IOException e) {
      throw new StateStoreException("Corrupt entry in version " + version + " of " + id
          + " in " + file, e);
    }
  }

  /** Output buffer whose contents are copied out once per value. */
  private static final class Bytes extends ByteArrayOutputStream {
    Bytes() {
      super(64);
    }
  }

  /** Input over one byte array at a time, so that one {@link DataInputStream} serves all reads. */
  private static final class Input extends ByteArrayInputStream {
    Input() {
      super(new byte[0]);
    }

    void reset(byte[] b) {
      buf = b;
      pos = 0;
      count = b.length;
      mark = 0;
    }
  }
}

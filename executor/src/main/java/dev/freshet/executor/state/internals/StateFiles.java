package dev.freshet.executor.state.internals;

import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.storage.DurableFiles;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a {@link DeltaFileStateStoreProvider}: their names, their format (described on
 * that class), a {@link Writer} and a reader.
 */
final class StateFiles {
  /** First four bytes of every state file: "FRST". */
  static final int MAGIC = 0x46525354;
  /** Bytes before the first record: magic and format version. */
  static final int HEADER_BYTES = 8;
  static final String DELTA = ".delta";
  static final String SNAPSHOT = ".snapshot";

  private static final Logger LOG = LoggerFactory.getLogger(StateFiles.class);
  /** Buffered bytes that make a write to the file. */
  private static final int BUFFER_BYTES = 64 * 1024;

  private StateFiles() {
  }

  static Path deltaFile(Path directory, long version) {
    return directory.resolve(version + DELTA);
  }

  static Path snapshotFile(Path directory, long version) {
    return directory.resolve(version + SNAPSHOT);
  }

  /** Versions of the delta and snapshot files in a directory, and its temporary files. */
  static final class Listing {
    final TreeSet<Long> deltas = new TreeSet<>();
    final TreeSet<Long> snapshots = new TreeSet<>();
    final List<Path> temps = new ArrayList<>();

    /** Newest version with a file, or -1. */
    long latest() {
      long delta = deltas.isEmpty() ? -1 : deltas.last();
      long snapshot = snapshots.isEmpty() ? -1 : snapshots.last();
      return Math.max(delta, snapshot);
    }

    /** Newest snapshot at or before {@code version}, or 0 (the empty version) if none. */
    long snapshotAtOrBefore(long version) {
      Long snapshot = snapshots.floor(version);
      return snapshot == null ? 0 : snapshot;
    }
  }

  /** Lists {@code directory}; a directory that does not exist yet holds no files. */
  static Listing list(Path directory) throws IOException {
    Listing listing = new Listing();
    if (!Files.exists(directory)) {
      return listing;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (DurableFiles.isTempFile(name)) {
          listing.temps.add(file);
        } else if (name.endsWith(DELTA)) {
          addVersion(listing.deltas, name, DELTA);
        } else if (name.endsWith(SNAPSHOT)) {
          addVersion(listing.snapshots, name, SNAPSHOT);
        }
      }
    }
    return listing;
  }

  /** Adds the version a name like {@code 12.delta} states; other names are not the store's. */
  private static void addVersion(TreeSet<Long> versions, String name, String suffix) {
    String digits = name.substring(0, name.length() - suffix.length());
    if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
      return;
    }
    versions.add(Long.parseLong(digits));
  }

  /**
   * Writes one state file: to a temporary file beside it, renamed over the target (which may
   * exist) once the end marker is written and synced, so that a reader sees the whole file or
   * none. Single-threaded.
   */
  static final class Writer {
    private final Path target;
    private final Path temp;
    private final FileChannel channel;
    private final RecordBuffer buffer = new RecordBuffer();
    private final DataOutputStream data = new DataOutputStream(buffer);
    private boolean closed;

    private Writer(Path target, Path temp, FileChannel channel) {
      this.target = target;
      this.temp = temp;
      this.channel = channel;
    }

    /**
     * Creates {@code temp} (a {@link DurableFiles#tempFileOf} of {@code target}, in an existing
     * directory) and writes the header.
     *
     * @throws FileAlreadyExistsException if {@code temp} exists: pick another name
     */
    static Writer create(Path target, Path temp) throws IOException {
      Writer writer = new Writer(target, temp,
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
      writer.buffer.writeInt(MAGIC);
      writer.buffer.writeInt(StateCodec.FORMAT_VERSION);
      return writer;
    }

    Path target() {
      return target;
    }

    Path temp() {
      return temp;
    }

    /** Appends {@code key = value}, or the deletion of {@code key} if {@code value} is null. */
    void write(Object key, Object[] value) throws IOException {
      int start = buffer.size();
      try {
        int at = buffer.reserveInt();
        StateCodec.write(data, key);
        buffer.patchInt(at, buffer.size() - at - 4);
        if (value == null) {
          buffer.writeInt(-1);
        } else {
          at = buffer.reserveInt();
          StateCodec.write(data, value);
          buffer.patchInt(at, buffer.size() - at - 4);
        }
      } catch (IOException | RuntimeException e) {
        // A key or value that cannot be encoded leaves no half record behind.
        buffer.truncate(start);
        throw e;
      }
      if (buffer.size() >= BUFFER_BYTES) {
        flush();
      }
    }

    /**
     * Writes the end marker, syncs and closes the temporary file.
     *
     * @throws dev.freshet.executor.storage.StorageException if the sync fails
     */
    void finish() throws IOException {
      buffer.writeInt(-1);
      flush();
      DurableFiles.force(channel, temp);
      channel.close();
      closed = true;
    }

    /**
     * Renames the finished temporary file over the target, atomically and durably.
     *
     * @throws dev.freshet.executor.storage.StorageException if the file system fails
     */
    void publish() {
      DurableFiles.publishReplacing(temp, target);
    }

    /** Drops the temporary file; harmless after {@link #publish()} or a previous cancel. */
    void cancel() {
      try {
        if (!closed) {
          closed = true;
          channel.close();
        }
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        LOG.warn("Cannot delete temporary state file {}; maintenance will retry", temp, e);
      }
    }

    private void flush() throws IOException {
      ByteBuffer bytes = ByteBuffer.wrap(buffer.bytes(), 0, buffer.size());
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      buffer.reset();
    }
  }

  /**
   * Growable byte buffer that {@code StateCodec} encodes into and whose record lengths are filled
   * in after the record; unsynchronized, unlike {@code ByteArrayOutputStream}.
   */
  private static final class RecordBuffer extends OutputStream {
    private byte[] bytes = new byte[BUFFER_BYTES + 1024];
    private int size;

    byte[] bytes() {
      return bytes;
    }

    int size() {
      return size;
    }

    void truncate(int newSize) {
      size = newSize;
    }

    void reset() {
      size = 0;
      if (bytes.length > 16 * BUFFER_BYTES) {
        // A huge value grew the buffer; do not keep that much memory for the small ones.
        bytes = new byte[BUFFER_BYTES + 1024];
      }
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        byte[] grown = new byte[Math.max(size + more, bytes.length * 2)];
        System.arraycopy(bytes, 0, grown, 0, size);
        bytes = grown;
      }
    }

    @Override public void write(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    @Override public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, bytes, size, len);
      size += len;
    }

    void writeInt(int v) {
      ensure(4);
      putInt(size, v);
      size += 4;
    }

    /** Leaves room for an int and returns where it goes. */
    int reserveInt() {
      ensure(4);
      size += 4;
      return size - 4;
    }

    void patchInt(int at, int v) {
      putInt(at, v);
    }

    private void putInt(int at, int v) {
      bytes[at] = (byte) (v >>> 24);
      bytes[at + 1] = (byte) (v >>> 16);
      bytes[at + 2] = (byte) (v >>> 8);
      bytes[at + 3] = (byte) v;
    }
  }

  /** Receives the records of a file, in order. */
  interface RecordSink {
    void put(Object key, Object[] value);

    void remove(Object key);
  }

  /** A state file that is not what its writer wrote: its path and what is wrong with it. */
  static final class CorruptStateFileException extends IOException {
    final Path file;
    /** Completes "state file &lt;path&gt; ...", for example "is truncated: ...". */
    final String problem;

    CorruptStateFileException(Path file, String problem, Throwable cause) {
      super("State file " + file + " " + problem, cause);
      this.file = file;
      this.problem = problem;
    }
  }

  /**
   * Reads every record of {@code file} into {@code sink}.
   *
   * @param snapshot whether the file is a snapshot, which may not hold deletions
   * @throws NoSuchFileException if the file does not exist
   * @throws CorruptStateFileException if the file is not a complete state file
   */
  static void read(Path file, boolean snapshot, RecordSink sink) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      new Reader(file, channel).read(snapshot, sink);
    }
  }

  /** Parses a file through a buffer that always holds each whole record it decodes. */
  private static final class Reader {
    private final Path file;
    private final FileChannel channel;
    private final long fileSize;
    private byte[] buf = new byte[BUFFER_BYTES];
    private int pos;
    private int limit;
    /** File offset of {@code buf[0]}. */
    private long bufStart;

    Reader(Path file, FileChannel channel) throws IOException {
      this.file = file;
      this.channel = channel;
      this.fileSize = channel.size();
    }

    private long offset() {
      return bufStart + pos;
    }

    void read(boolean snapshot, RecordSink sink) throws IOException {
      if (fileSize < HEADER_BYTES || !fill(HEADER_BYTES)) {
        throw corrupt("is truncated: it has " + fileSize + " bytes, fewer than its header", null);
      }
      int magic = readInt();
      if (magic != MAGIC) {
        throw corrupt(String.format(
            "is not a Freshet state file: it starts with 0x%08x, not 0x%08x", magic, MAGIC), null);
      }
      int version = readInt();
      if (version != StateCodec.FORMAT_VERSION) {
        throw corrupt("has state format version " + version + ", but this Freshet reads only"
            + " version " + StateCodec.FORMAT_VERSION, null);
      }
      while (true) {
        long record = offset();
        int keySize = readLength(record);
        if (keySize == -1) {
          break;
        }
        if (keySize < 0) {
          throw corrupt("is corrupt: negative key size " + keySize + " in the record at byte "
              + record, null);
        }
        Object key = decode(keySize, "key", record);
        int valueSize = readLength(record);
        if (valueSize == -1) {
          if (snapshot) {
            throw corrupt("is corrupt: the record at byte " + record + " deletes a key, which a"
                + " snapshot cannot hold", null);
          }
          sink.remove(key);
          continue;
        }
        if (valueSize < 0) {
          throw corrupt("is corrupt: negative value size " + valueSize + " in the record at byte "
              + record, null);
        }
        Object value = decode(valueSize, "value", record);
        if (!(value instanceof Object[])) {
          throw corrupt("is corrupt: the value of the record at byte " + record + " is not a row",
              null);
        }
        sink.put(key, (Object[]) value);
      }
      long trailing = fileSize - offset();
      if (trailing != 0) {
        throw corrupt("is corrupt: " + trailing + " bytes follow its end marker at byte "
            + (offset() - 4), null);
      }
    }

    /** Reads a size field; the file must not end before it, since the end marker is one. */
    private int readLength(long record) throws IOException {
      if (!fill(4)) {
        throw corrupt("is truncated: it ends at byte " + fileSize
            + (record == fileSize ? "" : ", in the record at byte " + record)
            + ", before its end marker", null);
      }
      return readInt();
    }

    private Object decode(int size, String what, long record) throws IOException {
      if (size > fileSize - offset()) {
        throw corrupt("is truncated: the " + what + " of the record at byte " + record + " has "
            + size + " bytes, but only " + (fileSize - offset()) + " follow", null);
      }
      if (!fill(size)) {
        throw corrupt("is truncated: it ends at byte " + offset() + " while its size is "
            + fileSize, null);
      }
      Object decoded;
      try {
        decoded = StateCodec.decode(buf, pos, size);
      } catch (IOException e) {
        throw corrupt("is corrupt: cannot decode the " + what + " of the record at byte "
            + record, e);
      }
      pos += size;
      return decoded;
    }

    private int readInt() {
      int v = (buf[pos] & 0xFF) << 24 | (buf[pos + 1] & 0xFF) << 16
          | (buf[pos + 2] & 0xFF) << 8 | buf[pos + 3] & 0xFF;
      pos += 4;
      return v;
    }

    /** Makes {@code n} bytes available from {@code pos}; false if the file ends first. */
    private boolean fill(int n) throws IOException {
      if (limit - pos >= n) {
        return true;
      }
      if (n > buf.length) {
        byte[] grown = new byte[Math.max(n, buf.length * 2)];
        System.arraycopy(buf, pos, grown, 0, limit - pos);
        buf = grown;
      } else {
        System.arraycopy(buf, pos, buf, 0, limit - pos);
      }
      bufStart += pos;
      limit -= pos;
      pos = 0;
      ByteBuffer target = ByteBuffer.wrap(buf);
      while (limit < n) {
        target.limit(buf.length).position(limit);
        int read = channel.read(target, bufStart + limit);
        if (read < 0) {
          return false;
        }
        limit += read;
      }
      return true;
    }

    private CorruptStateFileException corrupt(String problem, Throwable cause) {
      return new CorruptStateFileException(file, problem, cause);
    }
  }
}

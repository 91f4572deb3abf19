package dev.freshet.executor.source;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a durable {@link MemoryStream}: a metadata file naming its columns, and an
 * append-only log with one record per offset, forced to disk before the offset is acknowledged.
 *
 * <pre>{@code
 * StreamLog.Opened opened = StreamLog.open(directory, "CLICKS", columns);
 * List<List<Object[]>> rows = opened.records();   // offsets 1..N, replayed
 * opened.log().append(rows.size() + 1, statementRows);
 * }</pre>
 *
 * <p>Directory layout ({@code <dataDir>/streams/<stream>/}):
 * <pre>
 * metadata   UTF-8 text, one entry a line, fields separated by a tab:
 *              v1
 *              stream    CLICKS
 *              column    USER_ID   VARCHAR
 *              column    AMOUNT    DOUBLE NOT NULL
 *            (a backslash, tab, line feed or carriage return in a name is written \\, \t,
 *            \n, \r)
 * rows.log   the bytes "v1\n", then one record per offset, in offset order:
 *              int32  length of the payload
 *              int32  ~length (its complement: a damaged or zeroed length is caught before
 *                     it is trusted to find the payload)
 *              int32  CRC32 of the payload
 *              payload: int64 offset, int32 row count, then each row as one
 *                       {@link StateCodec} value (format 1: tag 14, count, values)
 * </pre>
 * Integers are big-endian. The metadata file is written atomically
 * ({@link DurableFiles#replaceAtomically}); its presence is what makes the directory a stream: it
 * is written last when a stream is created and deleted first when it is dropped, so a crash in
 * between leaves no half stream.
 *
 * <p>Recovery on open: records are replayed until the first one that fails a check. Records are
 * appended one at a time, each forced before the next starts, so a crash can only tear the last
 * one: a record that runs past the end of the file, or whose checksum fails and that ends exactly
 * at the end of the file, is that torn record; it was never acknowledged and is truncated away. A
 * record whose length fails its check is torn if no valid record follows it. Any other failure is
 * corruption in the middle of the log, reported with the file, the offset and the byte position,
 * and nothing is discarded.
 *
 * <p>Not thread-safe: {@link MemoryStream} serializes appends and closing under its write lock.
 */
final class StreamLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StreamLog.class);

  /** Name of the log file in the stream's directory. */
  static final String LOG_FILE = "rows.log";
  /** Name of the metadata file in the stream's directory. */
  static final String METADATA_FILE = "metadata";
  private static final String VERSION = "v1";
  private static final byte[] LOG_HEADER = (VERSION + "\n").getBytes(UTF_8);
  /** Length, its complement, and the payload's CRC32. */
  static final int RECORD_HEADER_BYTES = 12;
  /** The smallest payload: an offset (8 bytes) and a row count (4 bytes). */
  private static final int MIN_PAYLOAD_BYTES = 12;

  private final Path file;
  private FileChannel channel;
  /** Length of the valid, forced part of the file: where the next record goes. */
  private long size;
  /**
   * Set when an append failed and its partial record could not be cut off again; the log then
   * refuses appends, because a record after that garbage would turn it into corruption.
   */
  private IOException broken;
  private boolean closed;

  /** An opened log and the records it replayed: offset {@code i + 1} at index {@code i}. */
  record Opened(StreamLog log, List<List<Object[]>> records) {
  }

  private StreamLog(Path file, FileChannel channel, long size) {
    this.file = file;
    this.channel = channel;
    this.size = size;
  }

  /**
   * Opens the stream kept in {@code directory}, creating it (empty) if the directory holds no
   * stream, and replays its records.
   *
   * @throws StreamLogException if the directory holds a stream of other columns, a damaged file,
   *     or the file system fails
   */
  static Opened open(Path directory, String stream, List<StreamColumn> columns) {
    requireNonNull(stream, "stream");
    List<StreamColumn> declared = List.copyOf(columns);
    Path metadata = directory.resolve(METADATA_FILE);
    Path file = directory.resolve(LOG_FILE);
    try {
      if (Files.exists(metadata)) {
        List<StreamColumn> stored = readMetadata(metadata);
        if (!stored.equals(declared)) {
          throw StreamLogException.columnsDiffer(directory, stream, stored, declared);
        }
        if (!Files.exists(file)) {
          throw StreamLogException.corruptFile(file, "the file is missing, but " + metadata
              + " says the directory holds a stream");
        }
      } else {
        create(directory, stream, declared);
      }
    } catch (IOException | StorageException e) {
      throw StreamLogException.ioError("open the stream in", directory, e);
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw StreamLogException.ioError("open", file, e);
    }
    try {
      List<List<Object[]>> records = new ArrayList<>();
      long size = replay(file, channel, declared.size(), records);
      return new Opened(new StreamLog(file, channel, size), records);
    } catch (IOException e) {
      closeQuietly(channel);
      throw StreamLogException.ioError("read", file, e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /** Writes an empty log, then the metadata that makes the directory a stream. */
  private static void create(Path directory, String stream, List<StreamColumn> columns)
      throws IOException {
    DurableFiles.createDirectories(directory);
    // Left by a crash while the stream was created or dropped: never acknowledged rows.
    Files.deleteIfExists(directory.resolve(LOG_FILE));
    DurableFiles.deleteTempFiles(directory, METADATA_FILE);
    try (FileChannel log = FileChannel.open(directory.resolve(LOG_FILE),
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      writeFully(log, ByteBuffer.wrap(LOG_HEADER), 0);
      DurableFiles.force(log, directory.resolve(LOG_FILE));
    }
    StringBuilder text = new StringBuilder(VERSION).append('\n');
    text.append("stream\t").append(escape(stream)).append('\n');
    for (StreamColumn column : columns) {
      text.append("column\t").append(escape(column.name())).append('\t').append(column.type())
          .append('\n');
    }
    // Published last, with the directory forced: the log's name is durable with it.
    DurableFiles.replaceAtomically(directory.resolve(METADATA_FILE),
        text.toString().getBytes(UTF_8));
  }

  /** The columns recorded in a metadata file. */
  private static List<StreamColumn> readMetadata(Path metadata) throws IOException {
    List<String> lines = Files.readAllLines(metadata, UTF_8);
    if (lines.isEmpty()) {
      throw StreamLogException.corruptFile(metadata, "the file is empty");
    }
    if (!lines.get(0).equals(VERSION)) {
      if (lines.get(0).matches("v[0-9]+")) {
        throw StreamLogException.unsupportedVersion(metadata, lines.get(0));
      }
      throw StreamLogException.corruptFile(metadata, "it does not start with '" + VERSION + "'");
    }
    List<StreamColumn> columns = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String[] fields = lines.get(i).split("\t", -1);
      if (fields[0].equals("stream") && fields.length == 2) {
        continue;
      }
      if (!fields[0].equals("column") || fields.length != 3) {
        throw StreamLogException.corruptFile(metadata, "line " + (i + 1) + " is neither"
            + " 'stream<TAB>name' nor 'column<TAB>name<TAB>type': " + lines.get(i));
      }
      columns.add(new StreamColumn(unescape(fields[1]), fields[2]));
    }
    return columns;
  }

  /**
   * Reads the records into {@code records}, truncates a torn last record, and returns the length
   * of the valid part of the file.
   */
  private static long replay(Path file, FileChannel channel, int fieldCount,
      List<List<Object[]>> records) throws IOException {
    long fileSize = channel.size();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      byte[] header = in.readNBytes(LOG_HEADER.length);
      if (header.length < LOG_HEADER.length || header[header.length - 1] != '\n') {
        String found = new String(header, UTF_8).strip();
        if (found.matches("v[0-9]+")) {
          throw StreamLogException.unsupportedVersion(file, found);
        }
        throw StreamLogException.corruptFile(file, "it does not start with '" + VERSION + "'");
      }
      String version = new String(header, 0, header.length - 1, UTF_8);
      if (!version.equals(VERSION)) {
        throw StreamLogException.unsupportedVersion(file, version);
      }
      long position = LOG_HEADER.length;
      while (position < fileSize) {
        long offset = records.size() + 1;
        long left = fileSize - position;
        if (left < RECORD_HEADER_BYTES) {
          return truncate(file, channel, offset, position, "a short record header");
        }
        DataInputStream data = new DataInputStream(new ByteArrayInputStream(
            in.readNBytes(RECORD_HEADER_BYTES)));
        int length = data.readInt();
        int complement = data.readInt();
        int crc = data.readInt();
        if (complement != ~length || length < MIN_PAYLOAD_BYTES) {
          if (validRecordFollows(file, channel, position + 1, fileSize)) {
            throw StreamLogException.corrupt(file, offset, position, "the record length "
                + length + " fails its check");
          }
          return truncate(file, channel, offset, position, "a damaged record header");
        }
        long end = position + RECORD_HEADER_BYTES + length;
        if (end > fileSize) {
          return truncate(file, channel, offset, position, "a record cut short");
        }
        byte[] payload = in.readNBytes(length);
        if (crc(payload) != crc) {
          if (end == fileSize) {
            return truncate(file, channel, offset, position, "a record with a bad checksum");
          }
          throw StreamLogException.corrupt(file, offset, position, "the checksum of the record"
              + " does not match its " + length + " bytes, and records follow it");
        }
        records.add(decode(file, offset, position, payload, fieldCount));
        position = end;
      }
      return position;
    }
  }

  /** Cuts a torn last record off the file; it was never acknowledged. */
  private static long truncate(Path file, FileChannel channel, long offset, long position,
      String what) throws IOException {
    LOG.warn("Stream log {} ends in {} at offset {} (byte {}, {} bytes): the write of an INSERT"
        + " that was never acknowledged was interrupted; truncating it", file, what, offset,
        position, channel.size() - position);
    channel.truncate(position);
    channel.force(true);
    return position;
  }

  /**
   * Whether a record that passes every check starts anywhere in {@code [from, fileSize)}: then
   * the damaged record before it is not the torn last one.
   */
  private static boolean validRecordFollows(Path file, FileChannel channel, long from,
      long fileSize) throws IOException {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      in.skipNBytes(from);
      // The last 8 bytes read: a candidate length and its complement.
      long window = 0;
      for (long position = from; position < fileSize; position++) {
        window = (window << 8) | in.read();
        long start = position - 7;
        if (start < from) {
          continue;
        }
        int length = (int) (window >>> 32);
        if ((int) window != ~length || length < MIN_PAYLOAD_BYTES
            || start + RECORD_HEADER_BYTES + length > fileSize) {
          continue;
        }
        ByteBuffer record = ByteBuffer.allocate(4 + length);
        readFully(channel, record, start + 8);
        record.flip();
        int crc = record.getInt();
        byte[] payload = new byte[length];
        record.get(payload);
        if (crc(payload) == crc) {
          return true;
        }
      }
      return false;
    }
  }

  private static List<Object[]> decode(Path file, long offset, long position, byte[] payload,
      int fieldCount) {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    try {
      long stored = in.readLong();
      if (stored != offset) {
        throw StreamLogException.corrupt(file, offset, position, "the record says it is offset "
            + stored);
      }
      int count = in.readInt();
      if (count < 1) {
        throw StreamLogException.corrupt(file, offset, position, "the record holds " + count
            + " rows");
      }
      List<Object[]> rows = new ArrayList<>(Math.min(count, payload.length));
      for (int i = 0; i < count; i++) {
        Object row = StateCodec.read(in);
        if (!(row instanceof Object[]) || ((Object[]) row).length != fieldCount) {
          throw StreamLogException.corrupt(file, offset, position, "row " + i + " is not a row"
              + " of " + fieldCount + " values");
        }
        rows.add((Object[]) row);
      }
      if (in.available() > 0) {
        throw StreamLogException.corrupt(file, offset, position, in.available()
            + " bytes follow the last row");
      }
      return List.copyOf(rows);
    } catch (IOException e) {
      // The checksum matched, so the bytes are as written: a codec this Freshet cannot read.
      throw StreamLogException.corrupt(file, offset, position, "its rows cannot be decoded ("
          + e + ")");
    }
  }

  /**
   * Appends the rows of {@code offset} and forces them to disk; when this returns, they survive
   * a crash. On failure the log is as it was.
   *
   * @throws IllegalArgumentException if a value has no {@link StateCodec} encoding; nothing is
   *     written then
   * @throws StreamLogException if the file system fails
   */
  void append(long offset, List<Object[]> rows) {
    if (closed) {
      throw StreamLogException.closed(file);
    }
    if (broken != null) {
      throw StreamLogException.ioError("append to", file, broken);
    }
    // Encoded before anything is written, so a value without encoding leaves the file untouched.
    byte[] payload = encode(offset, rows);
    ByteBuffer record = ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length);
    record.putInt(payload.length).putInt(~payload.length).putInt(crc(payload)).put(payload);
    record.flip();
    try {
      writeFully(channel, record, size);
      // force(false) is fdatasync: it also writes the file length, which is what reaches
      // the new record; the modification time need not survive.
      channel.force(false);
      size += record.capacity();
    } catch (IOException e) {
      undo(e);
      throw StreamLogException.ioError("append offset " + offset + " to", file, e);
    }
  }

  /** Cuts off what a failed append may have written, so that the next record follows the last. */
  private void undo(IOException failure) {
    // An interrupt closes a FileChannel (ClosedByInterruptException) and would close the
    // reopened one at its first call: the interrupt is kept aside, then restored.
    boolean interrupted = Thread.interrupted();
    try {
      if (!channel.isOpen()) {
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
      }
      channel.truncate(size);
      channel.force(false);
    } catch (IOException e) {
      failure.addSuppressed(e);
      broken = failure;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static byte[] encode(long offset, List<Object[]> rows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeLong(offset);
      out.writeInt(rows.size());
      for (Object[] row : rows) {
        StateCodec.write(out, row);
      }
    } catch (IOException e) {
      throw new IllegalStateException("a byte array stream cannot fail", e);
    }
    return bytes.toByteArray();
  }

  /** Releases the file; idempotent. Appends fail afterwards. */
  @Override public void close() {
    if (!closed) {
      closed = true;
      closeQuietly(channel);
    }
  }

  /**
   * Deletes the stream kept in {@code directory}: first its metadata, so that a crash midway
   * leaves a directory that the next {@link #open} starts over, then its other files and the
   * directory. Nothing happens if the directory does not exist.
   */
  static void delete(Path directory) {
    try {
      if (!Files.isDirectory(directory)) {
        return;
      }
      if (Files.deleteIfExists(directory.resolve(METADATA_FILE))) {
        DurableFiles.forceDirectory(directory);
      }
      try (Stream<Path> files = Files.list(directory)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(directory);
    } catch (NoSuchFileException e) {
      // Deleted meanwhile by someone else: the result is the same.
    } catch (IOException | StorageException e) {
      throw StreamLogException.ioError("delete", directory, e);
    }
  }

  private static int crc(byte[] payload) {
    CRC32 crc = new CRC32();
    crc.update(payload);
    return (int) crc.getValue();
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  private static void readFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, at);
      if (n < 0) {
        throw new IOException("unexpected end of file at byte " + at);
      }
      at += n;
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.warn("Cannot close {}", channel, e);
    }
  }

  private static String escape(String name) {
    return name.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
        .replace("\r", "\\r");
  }

  private static String unescape(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        char next = text.charAt(++i);
        sb.append(next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}

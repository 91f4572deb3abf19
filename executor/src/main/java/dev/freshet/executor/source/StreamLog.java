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
 * <p>Directory layout ({@code <dataDir>/streams/<stream>/}), format version 1:
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
 * rows.ack   the acknowledged end of rows.log, in two slots, at bytes 0 and 4096:
 *              int32  format version, 1
 *              int32  0 (reserved)
 *              int64  the last acknowledged offset (0: none)
 *              int64  the byte of rows.log where that offset's record ends
 *              int32  CRC32 of the 24 bytes before it
 * </pre>
 * Integers are big-endian. The metadata file is written atomically
 * ({@link DurableFiles#replaceAtomically}); its presence is what makes the directory a stream: it
 * is written last when a stream is created and deleted first when it is dropped, so a crash in
 * between leaves no half stream.
 *
 * <p>An append writes the record and forces {@code rows.log}, then writes the new acknowledged
 * end into slot {@code offset % 2} of {@code rows.ack} and forces that; only then is the offset
 * acknowledged to its {@code INSERT}. The slots lie in different 4 KiB pages, so a crash while
 * one is written leaves the other, one offset behind, intact.
 *
 * <p>Recovery on open: the valid slot with the higher offset is the acknowledged end. Records are
 * replayed until the first one that fails a check. A record at or beyond the acknowledged end
 * was never acknowledged: a crash can only tear the last one, so a record that runs past the end
 * of the file, or whose checksum fails and that ends exactly at the end of the file, is that
 * torn record and is truncated away; a record whose length fails its check is torn if no valid
 * record follows it. A complete record beyond the acknowledged end (a crash between the two
 * forces) is kept, and becomes acknowledged. Any other failure, any damage below the
 * acknowledged end, and a log that ends before it (a file cut at a record boundary) are
 * reported with the file, the offset and the byte position, and nothing is discarded: an
 * offset, once acknowledged, is never dropped nor handed out again.
 *
 * <p>Not thread-safe: {@link MemoryStream} serializes appends and closing under its write lock.
 */
final class StreamLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StreamLog.class);

  /** Name of the log file in the stream's directory. */
  static final String LOG_FILE = "rows.log";
  /** Name of the file of the log's acknowledged end in the stream's directory. */
  static final String ACK_FILE = "rows.ack";
  /** Name of the metadata file in the stream's directory. */
  static final String METADATA_FILE = "metadata";
  private static final String VERSION = "v1";
  private static final byte[] LOG_HEADER = (VERSION + "\n").getBytes(UTF_8);
  /** Length, its complement, and the payload's CRC32. */
  static final int RECORD_HEADER_BYTES = 12;
  /** The smallest payload: an offset (8 bytes) and a row count (4 bytes). */
  private static final int MIN_PAYLOAD_BYTES = 12;
  /** Format version of {@code rows.ack}'s slots. */
  private static final int ACK_VERSION = 1;
  /** A slot: version, reserved, offset, end, CRC32. */
  private static final int ACK_SLOT_BYTES = 28;
  /** Where slot 1 starts: in another page than slot 0, so one torn page cannot hit both. */
  private static final int ACK_SLOT_DISTANCE = 4096;

  private final Path file;
  private final Path ackFile;
  private FileChannel channel;
  private FileChannel ackChannel;
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

  private StreamLog(Path file, FileChannel channel, Path ackFile, FileChannel ackChannel,
      long size) {
    this.file = file;
    this.channel = channel;
    this.ackFile = ackFile;
    this.ackChannel = ackChannel;
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
        for (Path needed : List.of(file, directory.resolve(ACK_FILE))) {
          if (!Files.exists(needed)) {
            throw StreamLogException.corruptFile(needed, "the file is missing, but " + metadata
                + " says the directory holds a stream");
          }
        }
      } else {
        create(directory, stream, declared);
      }
    } catch (IOException | StorageException e) {
      throw StreamLogException.ioError("open the stream in", directory, e);
    }
    Path ackFile = directory.resolve(ACK_FILE);
    FileChannel channel;
    FileChannel ackChannel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw StreamLogException.ioError("open", file, e);
    }
    try {
      ackChannel = FileChannel.open(ackFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      closeQuietly(channel);
      throw StreamLogException.ioError("open", ackFile, e);
    }
    Path reading = ackFile;
    try {
      Acked acked = readAck(ackFile, ackChannel);
      reading = file;
      List<List<Object[]>> records = new ArrayList<>();
      long size = replay(file, channel, declared.size(), records, acked);
      StreamLog log = new StreamLog(file, channel, ackFile, ackChannel, size);
      if (records.size() > acked.offset()) {
        // Complete records a crash left between the log's force and the ack's: kept, so now
        // acknowledged.
        reading = ackFile;
        writeAck(ackChannel, records.size(), size);
      }
      return new Opened(log, records);
    } catch (IOException e) {
      closeQuietly(channel);
      closeQuietly(ackChannel);
      throw StreamLogException.ioError("read", reading, e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      closeQuietly(ackChannel);
      throw e;
    }
  }

  /** The last acknowledged offset and the byte of the log where its record ends. */
  record Acked(long offset, long end) {
  }

  /** The acknowledged end in the valid slot of {@code rows.ack} with the higher offset. */
  private static Acked readAck(Path ackFile, FileChannel ackChannel) throws IOException {
    Acked best = null;
    for (int slot = 0; slot < 2; slot++) {
      ByteBuffer bytes = ByteBuffer.allocate(ACK_SLOT_BYTES);
      long at = (long) slot * ACK_SLOT_DISTANCE;
      while (bytes.hasRemaining() && ackChannel.read(bytes, at + bytes.position()) > 0) {
        // Reads until the slot is full or the file ends.
      }
      if (bytes.hasRemaining()) {
        continue;
      }
      bytes.flip();
      byte[] content = new byte[ACK_SLOT_BYTES - 4];
      bytes.get(content);
      if (crc(content) != bytes.getInt()) {
        // A slot torn by a crash while it was written; the other one is one offset behind.
        continue;
      }
      ByteBuffer fields = ByteBuffer.wrap(content);
      int version = fields.getInt();
      if (version != ACK_VERSION) {
        throw StreamLogException.unsupportedVersion(ackFile, "v" + version);
      }
      fields.getInt();
      Acked acked = new Acked(fields.getLong(), fields.getLong());
      if (acked.offset() < 0 || acked.end() < LOG_HEADER.length) {
        throw StreamLogException.corruptFile(ackFile, "slot " + slot + " holds offset "
            + acked.offset() + " ending at byte " + acked.end());
      }
      if (best == null || acked.offset() > best.offset()) {
        best = acked;
      }
    }
    if (best == null) {
      throw StreamLogException.corruptFile(ackFile, "neither of its two slots passes its"
          + " checksum, so how far the log was acknowledged is unknown");
    }
    return best;
  }

  /** Writes the acknowledged end {@code (offset, end)} into slot {@code offset % 2}, forced. */
  private static void writeAck(FileChannel ackChannel, long offset, long end)
      throws IOException {
    writeAck(ackChannel, (int) (offset % 2), offset, end);
  }

  private static void writeAck(FileChannel ackChannel, int slotNumber, long offset, long end)
      throws IOException {
    ByteBuffer content = ByteBuffer.allocate(ACK_SLOT_BYTES - 4);
    content.putInt(ACK_VERSION).putInt(0).putLong(offset).putLong(end);
    ByteBuffer slot = ByteBuffer.allocate(ACK_SLOT_BYTES);
    slot.put(content.array()).putInt(crc(content.array()));
    slot.flip();
    writeFully(ackChannel, slot, (long) slotNumber * ACK_SLOT_DISTANCE);
    ackChannel.force(false);
  }

  /** Writes an empty log, then the metadata that makes the directory a stream. */
  private static void create(Path directory, String stream, List<StreamColumn> columns)
      throws IOException {
    DurableFiles.createDirectories(directory);
    // Left by a crash while the stream was created or dropped: never acknowledged rows.
    Files.deleteIfExists(directory.resolve(LOG_FILE));
    Files.deleteIfExists(directory.resolve(ACK_FILE));
    DurableFiles.deleteTempFiles(directory, METADATA_FILE);
    try (FileChannel log = FileChannel.open(directory.resolve(LOG_FILE),
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      writeFully(log, ByteBuffer.wrap(LOG_HEADER), 0);
      DurableFiles.force(log, directory.resolve(LOG_FILE));
    }
    try (FileChannel ack = FileChannel.open(directory.resolve(ACK_FILE),
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      // Both slots: "nothing acknowledged", ending after the log's header.
      writeAck(ack, 0, 0, LOG_HEADER.length);
      writeAck(ack, 1, 0, LOG_HEADER.length);
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
   * Reads the records into {@code records}, truncates a torn last record beyond the
   * acknowledged end, and returns the length of the valid part of the file.
   */
  private static long replay(Path file, FileChannel channel, int fieldCount,
      List<List<Object[]>> records, Acked acked) throws IOException {
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
        if (records.size() == acked.offset() && position != acked.end()) {
          throw StreamLogException.corrupt(file, acked.offset(), position, "the record ends at"
              + " byte " + position + ", but " + ACK_FILE + " says it ends at byte "
              + acked.end());
        }
        long offset = records.size() + 1;
        // Below the acknowledged end every record was forced before its INSERT returned: no
        // crash can have damaged it.
        boolean acknowledged = offset <= acked.offset();
        long left = fileSize - position;
        if (left < RECORD_HEADER_BYTES) {
          if (acknowledged) {
            throw acknowledgedDamaged(file, offset, position, "the file ends in its header",
                acked);
          }
          return truncate(file, channel, offset, position, "a short record header");
        }
        DataInputStream data = new DataInputStream(new ByteArrayInputStream(
            in.readNBytes(RECORD_HEADER_BYTES)));
        int length = data.readInt();
        int complement = data.readInt();
        int crc = data.readInt();
        if (complement != ~length || length < MIN_PAYLOAD_BYTES) {
          String why = "the record length " + length + " fails its check";
          if (acknowledged) {
            throw acknowledgedDamaged(file, offset, position, why, acked);
          }
          if (validRecordFollows(file, channel, position + 1, fileSize)) {
            throw StreamLogException.corrupt(file, offset, position, why);
          }
          return truncate(file, channel, offset, position, "a damaged record header");
        }
        long end = position + RECORD_HEADER_BYTES + length;
        if (end > fileSize) {
          if (acknowledged) {
            throw acknowledgedDamaged(file, offset, position, "the file ends inside the"
                + " record", acked);
          }
          return truncate(file, channel, offset, position, "a record cut short");
        }
        byte[] payload = in.readNBytes(length);
        if (crc(payload) != crc) {
          String why = "the checksum of the record does not match its " + length + " bytes";
          if (acknowledged) {
            throw acknowledgedDamaged(file, offset, position, why, acked);
          }
          if (end == fileSize) {
            return truncate(file, channel, offset, position, "a record with a bad checksum");
          }
          throw StreamLogException.corrupt(file, offset, position, why + ", and records follow"
              + " it");
        }
        records.add(decode(file, offset, position, payload, fieldCount));
        position = end;
      }
      if (records.size() < acked.offset()) {
        // Cut at a record boundary: no torn write looks like this, and offsets would be reused.
        throw StreamLogException.acknowledgedMissing(file, records.size(), position,
            acked.offset(), acked.end(), file.resolveSibling(ACK_FILE));
      }
      if (records.size() == acked.offset() && position != acked.end()) {
        throw StreamLogException.corrupt(file, acked.offset(), position, "the record ends at"
            + " byte " + position + ", but " + ACK_FILE + " says it ends at byte "
            + acked.end());
      }
      return position;
    }
  }

  private static StreamLogException acknowledgedDamaged(Path file, long offset, long position,
      String why, Acked acked) {
    return StreamLogException.corrupt(file, offset, position, why + ", though offsets up to "
        + acked.offset() + " were acknowledged (" + ACK_FILE + ")");
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
    } catch (IOException e) {
      undo(e);
      throw StreamLogException.ioError("append offset " + offset + " to", file, e);
    }
    long end = size + record.capacity();
    acknowledge(offset, end);
    size = end;
  }

  /**
   * Makes {@code (offset, end)} the durable acknowledged end. On failure the record stays (a
   * reopen keeps it, as a complete record beyond the acknowledged end), so the log refuses
   * further appends: the next one would take its offset.
   */
  private void acknowledge(long offset, long end) {
    // As in undo: an interrupt would close the channel at its first call.
    boolean interrupted = Thread.interrupted();
    try {
      if (!ackChannel.isOpen()) {
        ackChannel = FileChannel.open(ackFile, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
      }
      writeAck(ackChannel, offset, end);
    } catch (IOException e) {
      broken = e;
      throw StreamLogException.ioError("acknowledge offset " + offset + " in", ackFile, e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
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
      closeQuietly(ackChannel);
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

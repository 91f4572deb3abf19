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
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a durable {@link MemoryStream}: a metadata file naming its columns, and an
 * append-only log with one record per offset, written in segments and forced to disk before the
 * offset is acknowledged. Opening validates only the last segment; older offsets are read from
 * their segment when a reader asks for them, and whole old segments are deleted by retention.
 *
 * <pre>{@code
 * StreamLog log = StreamLog.open(directory, "CLICKS", columns, StreamLog.DEFAULT_SEGMENT_BYTES);
 * log.append(log.latestOffset() + 1, statementRows);
 * log.read(0, log.latestOffset(), row -> ..., new StreamLog.Cursor());
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
 * segment-&lt;first offset, 20 digits&gt;.log
 *            a segment: the bytes "v1\n", then one record per offset from its first offset
 *            on, consecutive, in offset order:
 *              int32  length of the payload
 *              int32  ~length (its complement: a damaged or zeroed length is caught before
 *                     it is trusted to find the payload)
 *              int32  CRC32 of the payload
 *              payload: int64 offset, int32 row count, then each row as one
 *                       {@link StateCodec} value (format 1: tag 14, count, values)
 *            The segment with the highest first offset is the active one, which appends go
 *            to; once it holds the segment size or more, the next append starts a new one.
 * rows.ack   the acknowledged end, in two slots, at bytes 0 and 4096:
 *              int32  format version, 2
 *              int32  0 (reserved)
 *              int64  the last acknowledged offset (0: none)
 *              int64  the first offset of the segment holding that offset's record
 *              int64  the byte of that segment where the record ends
 *              int32  CRC32 of the 32 bytes before it
 *            (a version 1 slot, 28 bytes, has no segment field: its segment is the first,
 *            offset 1, as written before logs had segments)
 * readers    the positions of the stream's durable readers ({@link StreamReaders})
 * </pre>
 * Integers are big-endian. The metadata file is written atomically
 * ({@link DurableFiles#replaceAtomically}); its presence is what makes the directory a stream: it
 * is written last when a stream is created and deleted first when it is dropped, so a crash in
 * between leaves no half stream. A directory written before segments existed has one log,
 * {@code rows.log}, in the same format: opening renames it (one atomic step, the directory then
 * forced) to the segment of offset 1, which its version 1 acknowledged end already names.
 *
 * <p>An append writes the record and forces the active segment, then writes the new
 * acknowledged end into slot {@code offset % 2} of {@code rows.ack} and forces that; only then
 * is the offset acknowledged to its {@code INSERT}. The slots lie in different 4 KiB pages, so a
 * crash while one is written leaves the other, one offset behind, intact. A new segment is
 * published whole, header included, by an atomic rename and a forced directory before its first
 * record is written, so the acknowledged end only ever names a segment that exists.
 *
 * <p>Recovery on open: the valid slot with the higher offset is the acknowledged end, which
 * names the last segment, or the one before it when a crash came after a new segment was
 * published and before its first record was acknowledged. Only the last segment is read: its
 * records are checked until the first one that fails a check. A record at or beyond the
 * acknowledged end was never acknowledged: a crash can only tear the last one, so a record that
 * runs past the end of the file, or whose checksum fails and that ends exactly at the end of the
 * file, is that torn record and is truncated away; a record whose length fails its check is torn
 * if no valid record follows it. A complete record beyond the acknowledged end (a crash between
 * the two forces) is kept, and becomes acknowledged. Any other failure, any damage below the
 * acknowledged end, and a segment that ends before it (a file cut at a record boundary) are
 * reported with the file, the offset and the byte position, and nothing is discarded: an
 * offset, once acknowledged, is never dropped nor handed out again. Older segments are not read
 * at start-up; a reader that reaches a damaged record in one fails with the same report.
 *
 * <p>Reads go through the log's {@link StreamLogReader}, the one reader of this format (also
 * used by readers that do not own the stream, such as Spark's executors), whose offset index
 * finds a range's first record without scanning its segment.
 *
 * <p>Retention ({@link #deleteSegmentsThrough}) deletes whole segments, never the active one,
 * oldest first, so the segments left always hold consecutive offsets; a read of a deleted
 * offset fails ({@link StreamLogException.Code#DELETED}), never skips.
 *
 * <p>Appends and closing are serialized by {@link MemoryStream}'s write lock; reads and
 * deletions may run alongside them: the segment list is concurrent and a read only reaches
 * acknowledged records, which never change.
 */
final class StreamLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StreamLog.class);

  /** Name of the single log file of a directory written before logs had segments. */
  static final String LEGACY_LOG_FILE = "rows.log";
  /** Name of the file of the log's acknowledged end in the stream's directory. */
  static final String ACK_FILE = "rows.ack";
  /** Name of the metadata file in the stream's directory. */
  static final String METADATA_FILE = "metadata";
  /** Segment files are {@code segment-<first offset, 20 digits>.log}. */
  static final String SEGMENT_PREFIX = "segment-";
  static final String SEGMENT_SUFFIX = ".log";
  /** The size at which a segment is full and the next append starts a new one: 64 MiB. */
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
  private static final String VERSION = "v1";
  private static final byte[] LOG_HEADER = (VERSION + "\n").getBytes(UTF_8);
  /** Length of a segment's header: where its first record starts. */
  static final int HEADER_BYTES = LOG_HEADER.length;
  /** Length, its complement, and the payload's CRC32. */
  static final int RECORD_HEADER_BYTES = 12;
  /** The smallest payload: an offset (8 bytes) and a row count (4 bytes). */
  private static final int MIN_PAYLOAD_BYTES = 12;
  /** Format version of {@code rows.ack}'s slots. */
  private static final int ACK_VERSION = 2;
  /** A slot: version, reserved, offset, segment, end, CRC32. */
  private static final int ACK_SLOT_BYTES = 36;
  /** A version 1 slot: version, reserved, offset, end, CRC32. */
  private static final int ACK_V1_SLOT_BYTES = 28;
  /** Where slot 1 starts: in another page than slot 0, so one torn page cannot hit both. */
  private static final int ACK_SLOT_DISTANCE = 4096;

  private final Path directory;
  private final int fieldCount;
  private final long segmentBytes;
  /** Segment files by first offset; the last is the active one. */
  private final ConcurrentSkipListMap<Long, Path> segments;
  private final Path ackFile;
  /** The active segment, where appends go. */
  private Path file;
  private long activeFirst;
  private FileChannel channel;
  private FileChannel ackChannel;
  /** Length of the valid, forced part of the active segment: where the next record goes. */
  private long size;
  /** The last acknowledged offset: readers may read up to it. */
  private volatile long latest;
  /**
   * Set when an append failed and its partial record could not be cut off again; the log then
   * refuses appends, because a record after that garbage would turn it into corruption.
   */
  private IOException broken;
  private boolean closed;
  /** Reads the log's records, with the offset index its reads share. */
  private final StreamLogReader reader;
  /** Set by {@link #open}: the records of the last segment it checked. */
  private long recordsReadAtOpen;

  private StreamLog(Path directory, int fieldCount, long segmentBytes,
      ConcurrentSkipListMap<Long, Path> segments, FileChannel channel, Path ackFile,
      FileChannel ackChannel, long size, long latest) {
    this.directory = directory;
    this.fieldCount = fieldCount;
    this.segmentBytes = segmentBytes;
    this.segments = segments;
    this.activeFirst = segments.lastKey();
    this.file = segments.lastEntry().getValue();
    this.channel = channel;
    this.ackFile = ackFile;
    this.ackChannel = ackChannel;
    this.size = size;
    this.latest = latest;
    this.reader = StreamLogReader.of(directory, fieldCount, segments, () -> this.latest);
  }

  /** The file of the segment whose first offset is {@code first}. */
  static Path segmentFile(Path directory, long first) {
    return directory.resolve(String.format(java.util.Locale.ROOT, "%s%020d%s", SEGMENT_PREFIX,
        first, SEGMENT_SUFFIX));
  }

  /** How many records opening the log read: those of its last segment only. */
  long recordsReadAtOpen() {
    return recordsReadAtOpen;
  }

  /** The last acknowledged offset, 0 if none. */
  long latestOffset() {
    return latest;
  }

  /** The oldest offset the log holds (the first of its oldest segment); latest + 1 if none. */
  long oldestOffset() {
    return Math.min(segments.firstKey(), latest + 1);
  }

  /** The segment files, oldest first. */
  List<Path> segmentFiles() {
    return List.copyOf(segments.values());
  }

  /**
   * Opens the stream kept in {@code directory}, creating it (empty) if the directory holds no
   * stream, and checks its last segment.
   *
   * @param segmentBytes the size at which a segment is full
   * @throws StreamLogException if the directory holds a stream of other columns, a damaged file,
   *     or the file system fails
   */
  static StreamLog open(Path directory, String stream, List<StreamColumn> columns,
      long segmentBytes) {
    requireNonNull(stream, "stream");
    if (segmentBytes < 1) {
      throw new IllegalArgumentException("segment size " + segmentBytes + " < 1");
    }
    List<StreamColumn> declared = List.copyOf(columns);
    Path metadata = directory.resolve(METADATA_FILE);
    Path ackFile = directory.resolve(ACK_FILE);
    ConcurrentSkipListMap<Long, Path> segments;
    try {
      if (Files.exists(metadata)) {
        List<StreamColumn> stored = readMetadata(metadata);
        if (!stored.equals(declared)) {
          throw StreamLogException.columnsDiffer(directory, stream, stored, declared);
        }
        migrateLegacyLog(directory);
        segments = listSegments(directory);
        if (segments.isEmpty()) {
          throw StreamLogException.corruptFile(segmentFile(directory, 1), "the file is missing,"
              + " but " + metadata + " says the directory holds a stream, and it has no"
              + " segment");
        }
        if (!Files.exists(ackFile)) {
          throw StreamLogException.corruptFile(ackFile, "the file is missing, but " + metadata
              + " says the directory holds a stream");
        }
      } else {
        create(directory, stream, declared);
        segments = listSegments(directory);
      }
    } catch (IOException | StorageException e) {
      throw StreamLogException.ioError("open the stream in", directory, e);
    }
    FileChannel ackChannel;
    try {
      ackChannel = FileChannel.open(ackFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw StreamLogException.ioError("open", ackFile, e);
    }
    FileChannel channel = null;
    Path reading = ackFile;
    try {
      Acked acked = readAck(ackFile, ackChannel);
      long tailFirst = segments.lastKey();
      if (acked.segment() != tailFirst) {
        Long before = segments.lowerKey(tailFirst);
        if (before == null || acked.segment() != before || acked.offset() + 1 != tailFirst) {
          throw StreamLogException.corruptFile(ackFile, "it says offset " + acked.offset()
              + " ends in the segment of offset " + acked.segment() + ", but the last segment"
              + " starts at offset " + tailFirst);
        }
        // A crash after a new segment was published and before its first record was
        // acknowledged: the segment before must end where the acknowledged end says.
        Path previous = segments.get(before);
        long previousSize = Files.size(previous);
        if (previousSize != acked.end()) {
          throw StreamLogException.corrupt(previous, acked.offset(), previousSize, "the"
              + " segment ends at byte " + previousSize + ", but " + ACK_FILE + " says offset "
              + acked.offset() + " ends at byte " + acked.end());
        }
      }
      Path tail = segments.get(tailFirst);
      reading = tail;
      channel = FileChannel.open(tail, StandardOpenOption.READ, StandardOpenOption.WRITE);
      // The acknowledged end as seen from the tail: none of its records if it lies before.
      Acked tailAcked = acked.segment() == tailFirst ? acked
          : new Acked(tailFirst - 1, tailFirst, LOG_HEADER.length);
      long[] last = new long[] {tailFirst - 1};
      long size = replay(tail, channel, declared.size(), tailFirst, last, tailAcked);
      StreamLog log = new StreamLog(directory, declared.size(), segmentBytes, segments, channel,
          ackFile, ackChannel, size, last[0]);
      log.recordsReadAtOpen = last[0] - tailFirst + 1;
      if (last[0] > acked.offset()) {
        // Complete records a crash left between the log's force and the ack's: kept, so now
        // acknowledged.
        reading = ackFile;
        writeAck(ackChannel, last[0], tailFirst, size);
      }
      return log;
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

  /**
   * Renames the single {@code rows.log} of a directory written before segments to the segment
   * of offset 1: one atomic step, so a crash leaves one name or the other.
   */
  private static void migrateLegacyLog(Path directory) throws IOException {
    Path legacy = directory.resolve(LEGACY_LOG_FILE);
    if (!Files.exists(legacy)) {
      return;
    }
    Path first = segmentFile(directory, 1);
    if (Files.exists(first)) {
      throw StreamLogException.corruptFile(legacy, "both it and " + first + " exist; one of"
          + " them was copied in by hand");
    }
    Files.move(legacy, first, StandardCopyOption.ATOMIC_MOVE);
    DurableFiles.forceDirectory(directory);
    LOG.info("Stream log {} is now the first segment of the log, {}", legacy, first);
  }

  /** The segment files of {@code directory} by first offset; their temp files deleted. */
  private static ConcurrentSkipListMap<Long, Path> listSegments(Path directory)
      throws IOException {
    ConcurrentSkipListMap<Long, Path> segments = new ConcurrentSkipListMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (DurableFiles.isTempFile(name) && name.startsWith("." + SEGMENT_PREFIX)) {
          // A segment that was never published: no record of it was ever acknowledged.
          Files.deleteIfExists(f);
          continue;
        }
        if (!name.startsWith(SEGMENT_PREFIX)) {
          continue;
        }
        String digits = name.substring(SEGMENT_PREFIX.length(),
            name.length() - SEGMENT_SUFFIX.length());
        if (!name.endsWith(SEGMENT_SUFFIX) || !digits.matches("[0-9]{20}")) {
          throw StreamLogException.corruptFile(f, "its name is not segment-<20 digits>.log");
        }
        segments.put(Long.parseLong(digits), f);
      }
    }
    return segments;
  }

  /**
   * The last acknowledged offset, the first offset of the segment holding its record, and the
   * byte of that segment where the record ends.
   */
  record Acked(long offset, long segment, long end) {
  }

  /** The acknowledged end in the valid slot of {@code rows.ack} with the higher offset. */
  static Acked readAck(Path ackFile, FileChannel ackChannel) throws IOException {
    Acked best = null;
    for (int slot = 0; slot < 2; slot++) {
      ByteBuffer bytes = ByteBuffer.allocate(ACK_SLOT_BYTES);
      long at = (long) slot * ACK_SLOT_DISTANCE;
      while (bytes.hasRemaining() && ackChannel.read(bytes, at + bytes.position()) > 0) {
        // Reads until the slot is full or the file ends.
      }
      if (bytes.position() < 4) {
        continue;
      }
      int version = bytes.getInt(0);
      int slotBytes = version == 1 ? ACK_V1_SLOT_BYTES : ACK_SLOT_BYTES;
      if (bytes.position() < slotBytes) {
        continue;
      }
      byte[] content = new byte[slotBytes - 4];
      bytes.get(0, content);
      if (StreamLogReader.crc(content) != bytes.getInt(slotBytes - 4)) {
        // A slot torn by a crash while it was written; the other one is one offset behind.
        continue;
      }
      if (version != 1 && version != ACK_VERSION) {
        throw StreamLogException.unsupportedVersion(ackFile, "v" + version);
      }
      ByteBuffer fields = ByteBuffer.wrap(content, 8, content.length - 8);
      long offset = fields.getLong();
      // Version 1 was written before segments: its log is the segment of offset 1.
      long segment = version == 1 ? 1 : fields.getLong();
      Acked acked = new Acked(offset, segment, fields.getLong());
      if (acked.offset() < 0 || acked.end() < LOG_HEADER.length || acked.segment() < 1
          || acked.segment() > acked.offset() + 1) {
        throw StreamLogException.corruptFile(ackFile, "slot " + slot + " holds offset "
            + acked.offset() + " ending at byte " + acked.end() + " of the segment of offset "
            + acked.segment());
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

  /** Writes the acknowledged end into slot {@code offset % 2}, forced. */
  private static void writeAck(FileChannel ackChannel, long offset, long segment, long end)
      throws IOException {
    writeAck(ackChannel, (int) (offset % 2), offset, segment, end);
  }

  private static void writeAck(FileChannel ackChannel, int slotNumber, long offset,
      long segment, long end) throws IOException {
    ByteBuffer content = ByteBuffer.allocate(ACK_SLOT_BYTES - 4);
    content.putInt(ACK_VERSION).putInt(0).putLong(offset).putLong(segment).putLong(end);
    ByteBuffer slot = ByteBuffer.allocate(ACK_SLOT_BYTES);
    slot.put(content.array()).putInt(StreamLogReader.crc(content.array()));
    slot.flip();
    writeFully(ackChannel, slot, (long) slotNumber * ACK_SLOT_DISTANCE);
    ackChannel.force(false);
  }

  /** Writes an empty first segment, then the metadata that makes the directory a stream. */
  private static void create(Path directory, String stream, List<StreamColumn> columns)
      throws IOException {
    DurableFiles.createDirectories(directory);
    // Left by a crash while the stream was created or dropped: never acknowledged rows.
    try (Stream<Path> files = Files.list(directory)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!f.getFileName().toString().startsWith(METADATA_FILE)) {
          Files.deleteIfExists(f);
        }
      }
    }
    DurableFiles.deleteTempFiles(directory, METADATA_FILE);
    Path first = segmentFile(directory, 1);
    try (FileChannel log = FileChannel.open(first, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      writeFully(log, ByteBuffer.wrap(LOG_HEADER), 0);
      DurableFiles.force(log, first);
    }
    try (FileChannel ack = FileChannel.open(directory.resolve(ACK_FILE),
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      // Both slots: "nothing acknowledged", ending after the first segment's header.
      writeAck(ack, 0, 0, 1, LOG_HEADER.length);
      writeAck(ack, 1, 0, 1, LOG_HEADER.length);
    }
    StringBuilder text = new StringBuilder(VERSION).append('\n');
    text.append("stream\t").append(escape(stream)).append('\n');
    for (StreamColumn column : columns) {
      text.append("column\t").append(escape(column.name())).append('\t').append(column.type())
          .append('\n');
    }
    // Published last, with the directory forced: the segment's name is durable with it.
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
   * Checks the records of the segment {@code file}, whose first offset is {@code first},
   * truncates a torn last record beyond the acknowledged end, sets {@code last[0]} to the last
   * offset it holds, and returns the length of the valid part of the file.
   */
  private static long replay(Path file, FileChannel channel, int fieldCount, long first,
      long[] last, Acked acked) throws IOException {
    long count = 0;
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
        if (first + count - 1 == acked.offset() && position != acked.end()) {
          throw StreamLogException.corrupt(file, acked.offset(), position, "the record ends at"
              + " byte " + position + ", but " + ACK_FILE + " says it ends at byte "
              + acked.end());
        }
        long offset = first + count;
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
        if (StreamLogReader.crc(payload) != crc) {
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
        StreamLogReader.decode(file, offset, position, payload, fieldCount);
        count++;
        last[0] = offset;
        position = end;
      }
      if (first + count - 1 < acked.offset()) {
        // Cut at a record boundary: no torn write looks like this, and offsets would be reused.
        throw StreamLogException.acknowledgedMissing(file, first + count - 1, position,
            acked.offset(), acked.end(), file.resolveSibling(ACK_FILE));
      }
      if (first + count - 1 == acked.offset() && position != acked.end()) {
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
        StreamLogReader.readFully(channel, record, start + 8);
        record.flip();
        int crc = record.getInt();
        byte[] payload = new byte[length];
        record.get(payload);
        if (StreamLogReader.crc(payload) == crc) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Appends the rows of {@code offset} and forces them to disk; when this returns, they survive
   * a crash. On failure the log is as it was.
   *
   * @return the record's length in bytes
   * @throws IllegalArgumentException if a value has no {@link StateCodec} encoding; nothing is
   *     written then
   * @throws StreamLogException if the file system fails
   */
  int append(long offset, List<Object[]> rows) {
    if (closed) {
      throw StreamLogException.closed(file);
    }
    if (broken != null) {
      throw StreamLogException.ioError("append to", file, broken);
    }
    // Encoded before anything is written, so a value without encoding leaves the file untouched.
    byte[] payload = encode(offset, rows);
    ByteBuffer record = ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length);
    record.putInt(payload.length).putInt(~payload.length).putInt(StreamLogReader.crc(payload))
        .put(payload);
    record.flip();
    if (size >= segmentBytes && size > LOG_HEADER.length) {
      roll(offset);
    }
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
    latest = offset;
    return record.capacity();
  }

  /**
   * Starts the segment of {@code first}: published whole (header forced, then renamed into
   * place and the directory forced) before any record of it is written, so that the
   * acknowledged end never names a segment a crash could lose.
   */
  private void roll(long first) {
    Path next = segmentFile(directory, first);
    Path temp = DurableFiles.tempFileOf(next);
    FileChannel opened = null;
    try {
      try (FileChannel header = FileChannel.open(temp, StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
        writeFully(header, ByteBuffer.wrap(LOG_HEADER), 0);
        header.force(true);
      }
      DurableFiles.publishReplacing(temp, next);
      opened = FileChannel.open(next, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException | StorageException e) {
      closeQuietly(opened);
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // Deleted at the next open: a temp segment was never published.
      }
      throw StreamLogException.ioError("start a new segment", next, e);
    }
    closeQuietly(channel);
    channel = opened;
    file = next;
    activeFirst = first;
    size = LOG_HEADER.length;
    segments.put(first, next);
  }

  /**
   * Hands the rows of offsets {@code (start, end]} to {@code rows}, read from their segments
   * by the log's {@link StreamLogReader}, whose offset index finds their records;
   * {@code cursor} remembers where the read ended, so that a reader that reads on from there
   * (as a query's batches do) starts exactly at its next record.
   *
   * @throws StreamLogException ({@link StreamLogException.Code#DELETED}) if retention deleted
   *     the segment of an offset in the range, or if a record is damaged
   */
  void read(long start, long end, Consumer<Object[]> rows, StreamLogReader.Cursor cursor) {
    reader.read(start, end, rows, cursor);
  }

  /** The log's reader, whose offset index its reads share. */
  StreamLogReader reader() {
    return reader;
  }

  /**
   * Whether the oldest segment may be deleted: it is not the active one, its offsets all lie at
   * or below {@code committed}, and its last write is at or before {@code olderThanMillis}.
   */
  boolean mayDelete(long committed, long olderThanMillis) {
    Map.Entry<Long, Path> oldest = segments.firstEntry();
    Long nextFirst = segments.higherKey(oldest.getKey());
    if (nextFirst == null || nextFirst - 1 > committed) {
      return false;
    }
    try {
      return Files.getLastModifiedTime(oldest.getValue()).toMillis() <= olderThanMillis;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Deletes the segments, oldest first and never the active one, whose offsets all lie at or
   * below {@code committed} and whose last write is at or before {@code olderThanMillis}
   * (epoch milliseconds); stops at the first segment that must stay, so the segments left hold
   * consecutive offsets.
   *
   * @return how many segments were deleted
   */
  int deleteSegmentsThrough(long committed, long olderThanMillis) {
    int deleted = 0;
    while (true) {
      Map.Entry<Long, Path> oldest = segments.firstEntry();
      Long nextFirst = segments.higherKey(oldest.getKey());
      if (nextFirst == null || nextFirst - 1 > committed) {
        break;
      }
      Path path = oldest.getValue();
      try {
        if (Files.getLastModifiedTime(path).toMillis() > olderThanMillis) {
          break;
        }
        // Out of the list first: a reader that looks for it now fails as "deleted".
        segments.remove(oldest.getKey());
        Files.deleteIfExists(path);
        deleted++;
      } catch (IOException e) {
        LOG.warn("Cannot delete the segment {} that retention let go; it is tried again at the"
            + " next check", path, e);
        segments.putIfAbsent(oldest.getKey(), path);
        break;
      }
    }
    if (deleted > 0) {
      try {
        DurableFiles.forceDirectory(directory);
      } catch (StorageException e) {
        LOG.warn("Cannot force the directory {} after deleting segments", directory, e);
      }
      LOG.info("Retention deleted {} segment(s) of the stream log in {}; it now starts at"
          + " offset {}", deleted, directory, oldestOffset());
    }
    return deleted;
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
      writeAck(ackChannel, offset, activeFirst, end);
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

  private static void writeFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      LOG.warn("Cannot close {}", channel, e);
    }
  }

  static String escape(String name) {
    return name.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
        .replace("\r", "\\r");
  }

  static String unescape(String text) {
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

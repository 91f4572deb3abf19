package dev.freshet.executor.source;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.freshet.executor.state.StateCodec;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * Reads the rows of a durable stream's log by offset: the one reader of the format that
 * {@link StreamLog} documents. The stream's own log reads through it (rows that left memory),
 * and so does anyone that reads a stream's directory without owning it, such as Spark's
 * executors on storage they share with the driver.
 *
 * <pre>{@code
 * StreamLogReader log = StreamLogReader.open(Path.of("/data/streams/CLICKS"), 3);
 * log.read(0, 5, row -> ...);   // the rows of offsets 1..5
 * log.read(5, 9, row -> ...);   // starts at offset 6's record: no byte of 1..5 is read again
 * }</pre>
 *
 * <p>It only reads, and only what was acknowledged: an {@link #open opened} reader reads the
 * acknowledged end from {@code rows.ack} at each {@link #read} and refuses offsets past it
 * ({@link StreamLogException.Code#NOT_ACKNOWLEDGED}), so it never reaches a torn last record or
 * one whose append is still under way. Every record it hands out passes its length check, its
 * CRC32 and its offset check ({@link StreamLogException.Code#CORRUPT} otherwise). Offsets whose
 * segment retention deleted fail with {@link StreamLogException.Code#DELETED}, never skipped.
 *
 * <p>The offset index. A read of {@code (a, b]} finds the segment of {@code a + 1} by its name
 * (segments are named by their first offset), then seeks inside it with a sparse, in-memory
 * index per segment: the record start of one offset every 64 KiB of records or so, plus the
 * furthest record start any read has reached. A reader that reads on from its last range (a
 * query's batches, a Spark source's) thus starts exactly at its next record; one that starts
 * elsewhere skips the headers of about 64 KiB of records (under 96 KiB), never a payload.
 * Chosen over per-reader positions alone because a Spark task is a new reader at each batch,
 * and over an entry per offset to stay small (at most 32 KiB for a full 64 MiB segment) in a
 * stream that runs for months. It is built as reads go, never by a scan of its own: the log is
 * append-only and an acknowledged record never moves, so an entry stays true while its segment
 * exists; entries of deleted segments are dropped. Against a directory whose stream was dropped
 * and created again, a segment's entries are kept with the file's identity and dropped when it
 * changes, and a read whose indexed start fails its checks before handing out a row starts over
 * from the segment's first record.
 *
 * <p>Thread-safe: reads may run in parallel; the index is updated once per segment read.
 */
public final class StreamLogReader {
  /** Bytes of records between two entries of a segment's sparse index. */
  static final int INDEX_INTERVAL_BYTES = 64 << 10;
  private static final byte[] HEADER = "v1\n".getBytes(UTF_8);
  /** The smallest payload: an offset (8 bytes) and a row count (4 bytes). */
  private static final int MIN_PAYLOAD_BYTES = 12;

  private final Path directory;
  private final int fieldCount;
  /** Segment files by first offset: the owning log's live map, or this reader's listing. */
  private final ConcurrentSkipListMap<Long, Path> segments;
  /** The last acknowledged offset as the owning log knows it; null for an opened reader. */
  private final LongSupplier acknowledged;
  private final ConcurrentSkipListMap<Long, SegmentIndex> indexes = new ConcurrentSkipListMap<>();
  private final AtomicLong bytesRead = new AtomicLong();

  private StreamLogReader(Path directory, int fieldCount,
      ConcurrentSkipListMap<Long, Path> segments, LongSupplier acknowledged) {
    this.directory = directory;
    this.fieldCount = fieldCount;
    this.segments = segments;
    this.acknowledged = acknowledged;
  }

  /**
   * A reader of the stream kept in {@code directory}, whose rows have {@code fieldCount}
   * values, for a process that does not own the stream: it reads the directory as the owner
   * leaves it, and never writes. Nothing is read until the first {@link #read}.
   */
  public static StreamLogReader open(Path directory, int fieldCount) {
    return new StreamLogReader(directory, fieldCount, new ConcurrentSkipListMap<>(), null);
  }

  /** The reader of the log that owns {@code segments} and acknowledges up to {@code latest}. */
  static StreamLogReader of(Path directory, int fieldCount,
      ConcurrentSkipListMap<Long, Path> segments, LongSupplier latest) {
    return new StreamLogReader(directory, fieldCount, segments, latest);
  }

  /** The stream's directory. */
  public Path directory() {
    return directory;
  }

  /** Bytes read from segment files so far (record headers and payloads), for tests. */
  public long bytesRead() {
    return bytesRead.get();
  }

  /**
   * Hands the rows of offsets {@code (start, end]} to {@code rows}, in order.
   *
   * @throws StreamLogException {@link StreamLogException.Code#NOT_ACKNOWLEDGED} if {@code end}
   *     lies past the acknowledged end, {@link StreamLogException.Code#DELETED} if retention
   *     deleted the segment of an offset in the range, {@link StreamLogException.Code#CORRUPT}
   *     if a record fails its checks, {@link StreamLogException.Code#IO_ERROR} if the file
   *     system fails
   */
  public void read(long start, long end, Consumer<Object[]> rows) {
    read(start, end, rows, null);
  }

  /** As {@link #read(long, long, Consumer)}, starting from {@code cursor} when it helps. */
  void read(long start, long end, Consumer<Object[]> rows, Cursor cursor) {
    if (start < 0) {
      throw new IllegalArgumentException("bad offset range (" + start + ", " + end + "]");
    }
    if (end <= start) {
      return;
    }
    if (acknowledged == null) {
      refresh(end);
    }
    long offset = start + 1;
    while (offset <= end) {
      Map.Entry<Long, Path> segment = segments.floorEntry(offset);
      if (segment == null) {
        throw StreamLogException.deleted(directory, offset, oldestOffset());
      }
      Long nextFirst = segments.higherKey(segment.getKey());
      long upTo = nextFirst == null ? end : Math.min(end, nextFirst - 1);
      try {
        readSegment(segment.getKey(), segment.getValue(), offset, upTo, rows, cursor);
      } catch (NoSuchFileException e) {
        if (acknowledged == null) {
          // Retention deleted it after this reader listed it.
          segments.remove(segment.getKey(), segment.getValue());
        }
        throw StreamLogException.deleted(directory, offset, oldestOffset());
      } catch (IOException e) {
        throw StreamLogException.ioError("read", segment.getValue(), e);
      }
      offset = upTo + 1;
    }
    // Segments retention deleted: their index entries go with them.
    Long oldest = segments.isEmpty() ? null : segments.firstKey();
    if (oldest != null && !indexes.isEmpty() && indexes.firstKey() < oldest) {
      indexes.headMap(oldest).clear();
    }
  }

  private long oldestOffset() {
    return segments.isEmpty() ? 0 : segments.firstKey();
  }

  /**
   * For an opened reader: checks {@code end} against the acknowledged end in
   * {@code rows.ack}, and lists the segments again when the one holding it is new to it.
   */
  private synchronized void refresh(long end) {
    Path ackFile = directory.resolve(StreamLog.ACK_FILE);
    StreamLog.Acked acked;
    try (FileChannel ack = FileChannel.open(ackFile, StandardOpenOption.READ)) {
      acked = StreamLog.readAck(ackFile, ack);
    } catch (NoSuchFileException e) {
      throw StreamLogException.notAcknowledged(StreamLog.segmentFile(directory, 1), end, 0);
    } catch (IOException e) {
      throw StreamLogException.ioError("read", ackFile, e);
    }
    if (end > acked.offset()) {
      Map.Entry<Long, Path> last = segments.lastEntry();
      throw StreamLogException.notAcknowledged(last == null
          ? StreamLog.segmentFile(directory, acked.segment()) : last.getValue(), end,
          acked.offset());
    }
    if (!segments.containsKey(acked.segment())) {
      ConcurrentSkipListMap<Long, Path> listed = list();
      segments.keySet().retainAll(listed.keySet());
      segments.putAll(listed);
    }
  }

  /** The segment files in the directory, by first offset. */
  private ConcurrentSkipListMap<Long, Path> list() {
    ConcurrentSkipListMap<Long, Path> listed = new ConcurrentSkipListMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.equals(StreamLog.LEGACY_LOG_FILE)) {
          // Not yet renamed by its owner: it is the segment of offset 1.
          listed.putIfAbsent(1L, f);
        } else if (name.startsWith(StreamLog.SEGMENT_PREFIX)
            && name.endsWith(StreamLog.SEGMENT_SUFFIX)) {
          String digits = name.substring(StreamLog.SEGMENT_PREFIX.length(),
              name.length() - StreamLog.SEGMENT_SUFFIX.length());
          if (digits.matches("[0-9]{20}")) {
            listed.put(Long.parseLong(digits), f);
          }
        }
      }
    } catch (IOException e) {
      throw StreamLogException.ioError("list the segments in", directory, e);
    }
    return listed;
  }

  /** The rows of offsets {@code [from, upTo]}, all in the segment of {@code first}. */
  private void readSegment(long first, Path path, long from, long upTo, Consumer<Object[]> rows,
      Cursor cursor) throws IOException {
    try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ)) {
      SegmentIndex index = indexes.computeIfAbsent(first, k -> new SegmentIndex());
      if (acknowledged == null) {
        // Another directory's file under the same name (the stream dropped and created again).
        index.identify(Files.readAttributes(path, BasicFileAttributes.class));
      }
      long[] seek = index.floor(from, first);
      if (cursor != null && cursor.segment == first && cursor.nextOffset <= from
          && cursor.nextOffset > seek[0]) {
        seek = new long[] {cursor.nextOffset, cursor.position};
      }
      long[] delivered = new long[1];
      try {
        readRecords(path, in, first, seek[0], seek[1], from, upTo, rows, cursor, index,
            delivered);
      } catch (StreamLogException e) {
        if (e.code() != StreamLogException.Code.CORRUPT || seek[0] == first
            || delivered[0] > 0) {
          throw e;
        }
        // The indexed start was wrong, not the file: start over from its first record.
        index.clear();
        readRecords(path, in, first, first, HEADER.length, from, upTo, rows, cursor, index,
            delivered);
      }
    }
  }

  private void readRecords(Path path, FileChannel in, long first, long at, long position,
      long from, long upTo, Consumer<Object[]> rows, Cursor cursor, SegmentIndex index,
      long[] delivered) throws IOException {
    if (position == HEADER.length) {
      checkHeader(path, in);
    }
    ByteBuffer header = ByteBuffer.allocate(StreamLog.RECORD_HEADER_BYTES);
    long[] entries = new long[8];
    int added = 0;
    long lastIndexed = position;
    long read = 0;
    try {
      while (at <= upTo) {
        header.clear();
        readFully(in, header, position);
        read += StreamLog.RECORD_HEADER_BYTES;
        int length = header.getInt(0);
        int complement = header.getInt(4);
        int crc = header.getInt(8);
        if (complement != ~length || length < MIN_PAYLOAD_BYTES) {
          throw StreamLogException.corrupt(path, at, position, "the record length " + length
              + " fails its check");
        }
        if (at >= from) {
          byte[] payload = new byte[length];
          readFully(in, ByteBuffer.wrap(payload), position + StreamLog.RECORD_HEADER_BYTES);
          read += length;
          if (crc(payload) != crc) {
            throw StreamLogException.corrupt(path, at, position, "the checksum of the record"
                + " does not match its " + length + " bytes");
          }
          List<Object[]> decoded = decode(path, at, position, payload, fieldCount);
          delivered[0]++;
          for (Object[] row : decoded) {
            rows.accept(row);
          }
        }
        position += StreamLog.RECORD_HEADER_BYTES + length;
        at++;
        if (position - lastIndexed >= INDEX_INTERVAL_BYTES) {
          if (added + 2 > entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
          }
          entries[added++] = at;
          entries[added++] = position;
          lastIndexed = position;
        }
      }
    } finally {
      bytesRead.addAndGet(read);
    }
    index.add(entries, added, at, position);
    if (cursor != null) {
      cursor.segment = first;
      cursor.position = position;
      cursor.nextOffset = at;
    }
  }

  private void checkHeader(Path path, FileChannel in) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(HEADER.length);
    while (bytes.hasRemaining() && in.read(bytes, bytes.position()) > 0) {
      // Reads until the header is full or the file ends.
    }
    if (!Arrays.equals(bytes.array(), HEADER)) {
      String found = new String(bytes.array(), 0, bytes.position(), UTF_8).strip();
      if (found.matches("v[0-9]+")) {
        throw StreamLogException.unsupportedVersion(path, found);
      }
      throw StreamLogException.corruptFile(path, "it does not start with 'v1'");
    }
  }

  /** The rows of the record of {@code offset}, whose checksum matched. */
  static List<Object[]> decode(Path file, long offset, long position, byte[] payload,
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

  static int crc(byte[] payload) {
    CRC32 crc = new CRC32();
    crc.update(payload);
    return (int) crc.getValue();
  }

  static void readFully(FileChannel channel, ByteBuffer buffer, long position)
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

  /** Where one reader's last read of the log ended, so that its next read continues there. */
  static final class Cursor {
    private long segment = -1;
    private long position;
    private long nextOffset;
  }

  /**
   * The sparse index of one segment: record starts in offset order, about
   * {@link #INDEX_INTERVAL_BYTES} apart, and the furthest record start reached.
   */
  private static final class SegmentIndex {
    private long[] offsets = new long[4];
    private long[] positions = new long[4];
    private int size;
    private long furthestOffset;
    private long furthestPosition;
    private Object identity;

    /** Forgets everything if the file is not the one the entries were taken from. */
    synchronized void identify(BasicFileAttributes file) {
      Object key = file.fileKey() != null ? file.fileKey() : file.creationTime();
      Object id = List.of(key, file.creationTime());
      if (!id.equals(identity)) {
        clearLocked();
        identity = id;
      }
    }

    /** The closest known record start at or before {@code offset}: {offset, position}. */
    synchronized long[] floor(long offset, long first) {
      if (furthestOffset > 0 && furthestOffset <= offset) {
        return new long[] {furthestOffset, furthestPosition};
      }
      int i = Arrays.binarySearch(offsets, 0, size, offset);
      if (i < 0) {
        i = -i - 2;
      }
      return i < 0 ? new long[] {first, HEADER.length} : new long[] {offsets[i], positions[i]};
    }

    /**
     * Adds {@code count / 2} pairs of (offset, position), each where it is at least half an
     * interval from its neighbours (so that a read through a part read before fills its gaps,
     * and the entries stay sparse), and the furthest start reached.
     */
    synchronized void add(long[] entries, int count, long reached, long reachedPosition) {
      for (int e = 0; e < count; e += 2) {
        long offset = entries[e];
        long position = entries[e + 1];
        int i = Arrays.binarySearch(offsets, 0, size, offset);
        if (i >= 0) {
          continue;
        }
        i = -i - 1;
        if (i > 0 && position - positions[i - 1] < INDEX_INTERVAL_BYTES / 2
            || i < size && positions[i] - position < INDEX_INTERVAL_BYTES / 2) {
          continue;
        }
        if (size == offsets.length) {
          offsets = Arrays.copyOf(offsets, size * 2);
          positions = Arrays.copyOf(positions, size * 2);
        }
        System.arraycopy(offsets, i, offsets, i + 1, size - i);
        System.arraycopy(positions, i, positions, i + 1, size - i);
        offsets[i] = offset;
        positions[i] = position;
        size++;
      }
      if (reached > furthestOffset) {
        furthestOffset = reached;
        furthestPosition = reachedPosition;
      }
    }

    synchronized void clear() {
      clearLocked();
    }

    private void clearLocked() {
      size = 0;
      furthestOffset = 0;
      furthestPosition = 0;
    }
  }
}

package dev.freshet.spark.source;

import dev.freshet.executor.state.StateCodec;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * Read-only reader of a durable stream's log segments ({@code segment-<first offset>.log}, or
 * the single {@code rows.log} of a directory written before segments), as an executor that
 * shares the data directory's storage reads it, without the driver's {@code MemoryStream}.
 *
 * <pre>{@code
 * new StreamLogFile("CLICKS", Path.of("/shared/freshet/streams/CLICKS"), 3)
 *     .readRange(2, 5, row -> ...);   // rows of offsets 3, 4 and 5
 * }</pre>
 *
 * <p>It reads the format that {@code dev.freshet.executor.source.StreamLog} documents (version
 * 1): each segment holds the header {@code v1\n}, then per offset from the segment's first
 * one a record of int32 length, int32 ~length, int32 CRC32 of the payload, and the payload
 * (int64 offset, int32 row count, each row one {@link StateCodec} value). It never writes, and
 * it needs no recovery: the driver asks only for offsets the stream has acknowledged, whose
 * records were forced to disk before their INSERT returned and never change; a torn record can
 * only lie beyond them, where it stops reading. Records before the range are skipped by their
 * lengths, unread. Offsets whose segment the stream's {@code 'retention'} deleted fail the read
 * (58030), never skipped.
 */
final class StreamLogFile {
  /** The single log of a directory written before segments: the segment of offset 1. */
  static final String LEGACY_LOG_FILE = "rows.log";
  private static final String SEGMENT_PREFIX = "segment-";
  private static final String SEGMENT_SUFFIX = ".log";
  private static final byte[] HEADER = {'v', '1', '\n'};

  private final String stream;
  private final Path directory;
  private final int fieldCount;

  StreamLogFile(String stream, Path directory, int fieldCount) {
    this.stream = stream;
    this.directory = directory;
    this.fieldCount = fieldCount;
  }

  /** The file of the segment whose first offset is {@code first}. */
  static Path segmentFile(Path directory, long first) {
    return directory.resolve(String.format(java.util.Locale.ROOT, "%s%020d%s", SEGMENT_PREFIX,
        first, SEGMENT_SUFFIX));
  }

  /** The segments by first offset. */
  private TreeMap<Long, Path> segments() throws IOException {
    TreeMap<Long, Path> segments = new TreeMap<>();
    Path legacy = directory.resolve(LEGACY_LOG_FILE);
    if (Files.exists(legacy)) {
      segments.put(1L, legacy);
    }
    try (Stream<Path> files = Files.list(directory)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.startsWith(SEGMENT_PREFIX) && name.endsWith(SEGMENT_SUFFIX)) {
          String digits = name.substring(SEGMENT_PREFIX.length(),
              name.length() - SEGMENT_SUFFIX.length());
          if (digits.matches("[0-9]{20}")) {
            segments.put(Long.parseLong(digits), f);
          }
        }
      }
    }
    return segments;
  }

  /**
   * Hands the rows of offsets {@code (start, end]} to {@code rows}, in order.
   *
   * @throws FreshetSourceException 58030 if the files cannot be read, end before offset
   *     {@code end}, or no longer hold offset {@code start + 1}; XX001 if a record in the range
   *     fails its checks
   */
  void readRange(long start, long end, Consumer<Object[]> rows) {
    if (end <= start) {
      return;
    }
    TreeMap<Long, Path> segments;
    try {
      segments = segments();
    } catch (IOException e) {
      throw SourceErrors.logUnreadable(stream, directory, e);
    }
    Map.Entry<Long, Path> first = segments.floorEntry(start + 1);
    if (first == null) {
      if (segments.isEmpty()) {
        throw SourceErrors.logTooShort(stream, segmentFile(directory, 1), end, null);
      }
      throw SourceErrors.logDeleted(stream, directory, start + 1, segments.firstKey());
    }
    for (Map.Entry<Long, Path> segment : segments.tailMap(first.getKey(), true).entrySet()) {
      if (segment.getKey() > end) {
        break;
      }
      Long next = segments.higherKey(segment.getKey());
      long last = next == null ? end : Math.min(end, next - 1);
      readSegment(segment.getValue(), segment.getKey(), start, last, rows);
    }
  }

  /** The rows of offsets {@code (start, last]} in the segment of {@code firstOffset}. */
  private void readSegment(Path file, long firstOffset, long start, long last,
      Consumer<Object[]> rows) {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(
        Files.newInputStream(file), 1 << 16))) {
      byte[] header = in.readNBytes(HEADER.length);
      if (!java.util.Arrays.equals(header, HEADER)) {
        throw SourceErrors.logDamaged(stream, file, firstOffset, 0, "it does not start with"
            + " 'v1'");
      }
      long position = HEADER.length;
      for (long offset = firstOffset; offset <= last; offset++) {
        int length = in.readInt();
        int complement = in.readInt();
        int crc = in.readInt();
        if (complement != ~length || length < 12) {
          throw SourceErrors.logDamaged(stream, file, offset, position, "the record length "
              + length + " fails its check");
        }
        if (offset <= start) {
          in.skipNBytes(length);
        } else {
          byte[] payload = in.readNBytes(length);
          if (payload.length < length) {
            throw new EOFException();
          }
          decode(file, offset, position, payload, crc, rows);
        }
        position += 12 + length;
      }
    } catch (NoSuchFileException e) {
      throw SourceErrors.logDeleted(stream, directory, start + 1, last + 1);
    } catch (EOFException e) {
      throw SourceErrors.logTooShort(stream, file, last, e);
    } catch (IOException e) {
      throw SourceErrors.logUnreadable(stream, file, e);
    }
  }

  private void decode(Path file, long offset, long position, byte[] payload, int crc,
      Consumer<Object[]> rows) throws IOException {
    CRC32 actual = new CRC32();
    actual.update(payload);
    if ((int) actual.getValue() != crc) {
      throw SourceErrors.logDamaged(stream, file, offset, position, "the checksum of the record"
          + " does not match its " + payload.length + " bytes");
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    long stored = in.readLong();
    if (stored != offset) {
      throw SourceErrors.logDamaged(stream, file, offset, position, "the record says it is"
          + " offset " + stored);
    }
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      Object row = StateCodec.read(in);
      if (!(row instanceof Object[] values) || values.length != fieldCount) {
        throw SourceErrors.logDamaged(stream, file, offset, position, "row " + i + " is not a"
            + " row of " + fieldCount + " values");
      }
      rows.accept(values);
    }
  }
}

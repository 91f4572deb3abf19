package dev.freshet.spark.source;

import dev.freshet.executor.state.StateCodec;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * Read-only reader of a durable stream's {@code rows.log}, as an executor that shares the data
 * directory's storage reads it, without the driver's {@code MemoryStream}.
 *
 * <pre>{@code
 * new StreamLogFile("CLICKS", Path.of("/shared/freshet/streams/CLICKS"), 3)
 *     .readRange(2, 5, row -> ...);   // rows of offsets 3, 4 and 5
 * }</pre>
 *
 * <p>It reads the format that {@code dev.freshet.executor.source.StreamLog} documents (version
 * 1): the header {@code v1\n}, then per offset a record of int32 length, int32 ~length, int32
 * CRC32 of the payload, and the payload (int64 offset, int32 row count, each row one
 * {@link StateCodec} value). It never writes, and it needs no recovery: the driver asks only for
 * offsets the stream has acknowledged, whose records were forced to disk before their INSERT
 * returned and never change; a torn record can only lie beyond them, where it stops reading.
 * Records before the range are skipped by their lengths, unread.
 */
final class StreamLogFile {
  /** The log's file name in the stream's directory. */
  static final String LOG_FILE = "rows.log";
  private static final byte[] HEADER = {'v', '1', '\n'};

  private final String stream;
  private final Path file;
  private final int fieldCount;

  StreamLogFile(String stream, Path directory, int fieldCount) {
    this.stream = stream;
    this.file = directory.resolve(LOG_FILE);
    this.fieldCount = fieldCount;
  }

  /**
   * Hands the rows of offsets {@code (start, end]} to {@code rows}, in order.
   *
   * @throws FreshetSourceException 58030 if the file cannot be read or ends before offset
   *     {@code end}, XX001 if a record in the range fails its checks
   */
  void readRange(long start, long end, Consumer<Object[]> rows) {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(
        Files.newInputStream(file), 1 << 16))) {
      byte[] header = in.readNBytes(HEADER.length);
      if (!java.util.Arrays.equals(header, HEADER)) {
        throw SourceErrors.logDamaged(stream, file, 0, 0, "it does not start with 'v1'");
      }
      long position = HEADER.length;
      for (long offset = 1; offset <= end; offset++) {
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
          decode(offset, position, payload, crc, rows);
        }
        position += 12 + length;
      }
    } catch (EOFException e) {
      throw SourceErrors.logTooShort(stream, file, end, e);
    } catch (IOException e) {
      throw SourceErrors.logUnreadable(stream, file, e);
    }
  }

  private void decode(long offset, long position, byte[] payload, int crc,
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

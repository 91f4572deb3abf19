package dev.freshet.spark.source;

import static dev.freshet.spark.source.FreshetSourceTest.row;
import static dev.freshet.spark.source.FreshetSourceTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.testkit.SparkTest;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable stream's log read as an executor outside the driver reads it: the same rows as the
 * stream, by offset, and clear errors for a short or damaged log.
 */
@SparkTest
class StreamLogFileTest {
  private static final List<StreamColumn> COLUMNS = List.of(new StreamColumn("K", "VARCHAR"),
      new StreamColumn("PRICE", "DECIMAL(10, 2)"), new StreamColumn("TS", "TIMESTAMP(3) NOT NULL"));

  @TempDir Path dir;

  @Test void shouldReadTheRowsOfTheRange() {
    try (MemoryStream stream = MemoryStream.open("LOGGED", COLUMNS, dir)) {
      stream.addData(rows(row("a", new BigDecimal("1.50"), 1L), row(null, null, 2L)));
      stream.addData(rows(row("b", new BigDecimal("-2.00"), 3L)));
      stream.addData(rows(row("c", null, 4L), row("d", new BigDecimal("0.01"), 5L)));
      StreamLogFile log = new StreamLogFile("LOGGED", dir, 3);
      assertEquals(read(stream::readRange, 0, 3), read(log::readRange, 0, 3));
      assertEquals(List.of(List.of("b", new BigDecimal("-2.00"), 3L),
          Arrays.asList("c", null, 4L), List.of("d", new BigDecimal("0.01"), 5L)),
          read(log::readRange, 1, 3));
      assertEquals(List.of(), read(log::readRange, 3, 3));
    }
  }

  @Test void shouldSayWhenTheLogEndsBeforeTheOffset() {
    try (MemoryStream stream = MemoryStream.open("SHORT", COLUMNS, dir)) {
      stream.addData(rows(row("a", null, 1L)));
      FreshetSourceException e = assertThrows(FreshetSourceException.class,
          () -> new StreamLogFile("SHORT", dir, 3).readRange(0, 2, row -> { }));
      assertEquals("58030", e.sqlException().getSQLState());
      assertEquals("The log " + StreamLogFile.segmentFile(dir, 1) + " of stream 'SHORT' ends before"
          + " offset 2, which the driver has acknowledged: the executor does not see the"
          + " driver's data directory. Put the data directory on storage that the driver and"
          + " the executors share", e.getMessage());
    }
  }

  @Test void shouldRefuseADamagedRecord() throws Exception {
    try (MemoryStream stream = MemoryStream.open("DAMAGED", COLUMNS, dir)) {
      stream.addData(rows(row("a", null, 1L)));
      stream.addData(rows(row("b", null, 2L)));
      // The last byte of the file: inside offset 2's payload.
      try (FileChannel log = FileChannel.open(StreamLogFile.segmentFile(dir, 1), StandardOpenOption.READ,
          StandardOpenOption.WRITE)) {
        ByteBuffer last = ByteBuffer.allocate(1);
        log.read(last, log.size() - 1);
        last.put(0, (byte) (last.get(0) ^ 0x5a)).rewind();
        log.write(last, log.size() - 1);
      }
      StreamLogFile log = new StreamLogFile("DAMAGED", dir, 3);
      assertEquals(List.of(Arrays.asList("a", null, 1L)), read(log::readRange, 0, 1));
      FreshetSourceException e = assertThrows(FreshetSourceException.class,
          () -> log.readRange(0, 2, row -> { }));
      assertEquals("XX001", e.sqlException().getSQLState());
      assertEquals("The log " + StreamLogFile.segmentFile(dir, 1) + " of stream 'DAMAGED' is damaged at"
          + " offset 2 (byte " + recordStart() + "): the checksum of the record does not"
          + " match its " + (recordEnd() - recordStart() - 12) + " bytes. Restore the"
          + " stream's directory from a backup", e.getMessage());
    }
  }

  /** Byte where offset 2's record starts: after the header and offset 1's record. */
  private long recordStart() throws Exception {
    try (FileChannel log = FileChannel.open(StreamLogFile.segmentFile(dir, 1))) {
      ByteBuffer length = ByteBuffer.allocate(4);
      log.read(length, 3);
      return 3 + 12 + length.getInt(0);
    }
  }

  private long recordEnd() throws Exception {
    try (FileChannel log = FileChannel.open(StreamLogFile.segmentFile(dir, 1))) {
      return log.size();
    }
  }

  private static List<List<Object>> read(RowSliceReader.Rows source, long start, long end) {
    List<List<Object>> rows = new ArrayList<>();
    source.readRange(start, end, row -> rows.add(Arrays.asList(row)));
    return rows;
  }
}

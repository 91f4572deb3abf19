package dev.freshet.spark.source;

import static dev.freshet.spark.source.FreshetSourceTest.row;
import static dev.freshet.spark.source.FreshetSourceTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.executor.source.StreamLogReader;
import dev.freshet.testkit.SparkTest;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable stream's log read as an executor outside the driver reads it: the same rows as the
 * stream, by offset; clear errors for a short or damaged log; and a batch's tasks reading only
 * the records of their batch, not the log from its start again.
 */
@SparkTest
class StreamLogReaderFactoryTest {
  private static final List<StreamColumn> COLUMNS = List.of(new StreamColumn("K", "VARCHAR"),
      new StreamColumn("PRICE", "DECIMAL(10, 2)"), new StreamColumn("TS", "TIMESTAMP(3) NOT NULL"));

  @TempDir Path dir;

  private RowSliceReader.Rows log(String stream) {
    return StreamLogReaderFactory.rows(stream, dir.toAbsolutePath().toString(), 3);
  }

  @Test void shouldReadTheRowsOfTheRange() {
    try (MemoryStream stream = MemoryStream.open("LOGGED", COLUMNS, dir)) {
      stream.addData(rows(row("a", new BigDecimal("1.50"), 1L), row(null, null, 2L)));
      stream.addData(rows(row("b", new BigDecimal("-2.00"), 3L)));
      stream.addData(rows(row("c", null, 4L), row("d", new BigDecimal("0.01"), 5L)));
      RowSliceReader.Rows log = log("LOGGED");
      assertEquals(read(stream::readRange, 0, 3), read(log, 0, 3));
      assertEquals(List.of(List.of("b", new BigDecimal("-2.00"), 3L),
          Arrays.asList("c", null, 4L), List.of("d", new BigDecimal("0.01"), 5L)),
          read(log, 1, 3));
      assertEquals(List.of(), read(log, 3, 3));
    }
  }

  @Test void shouldSayWhenTheLogEndsBeforeTheOffset() {
    try (MemoryStream stream = MemoryStream.open("SHORT", COLUMNS, dir)) {
      stream.addData(rows(row("a", null, 1L)));
      FreshetSourceException e = assertThrows(FreshetSourceException.class,
          () -> log("SHORT").readRange(0, 2, row -> { }));
      assertEquals("58030", e.sqlException().getSQLState());
      assertEquals("The log " + stream.segmentFiles().get(0) + " of stream 'SHORT' ends before"
          + " offset 2, which the driver has acknowledged: the executor does not see the"
          + " driver's data directory. Put the data directory on storage that the driver and"
          + " the executors share", e.getMessage());
    }
  }

  @Test void shouldRefuseADamagedRecord() throws Exception {
    try (MemoryStream stream = MemoryStream.open("DAMAGED", COLUMNS, dir)) {
      stream.addData(rows(row("a", null, 1L)));
      stream.addData(rows(row("b", null, 2L)));
      Path segment = stream.segmentFiles().get(0);
      // The last byte of the file: inside offset 2's payload.
      try (FileChannel log = FileChannel.open(segment, StandardOpenOption.READ,
          StandardOpenOption.WRITE)) {
        ByteBuffer last = ByteBuffer.allocate(1);
        log.read(last, log.size() - 1);
        last.put(0, (byte) (last.get(0) ^ 0x5a)).rewind();
        log.write(last, log.size() - 1);
      }
      RowSliceReader.Rows log = log("DAMAGED");
      assertEquals(List.of(Arrays.asList("a", null, 1L)), read(log, 0, 1));
      FreshetSourceException e = assertThrows(FreshetSourceException.class,
          () -> log.readRange(0, 2, row -> { }));
      assertEquals("XX001", e.sqlException().getSQLState());
      long start = recordBytes(segment).get(0) + 3;
      assertEquals("The log of stream 'DAMAGED' cannot be read: Stream log " + segment + " is"
          + " corrupt at offset 2 (byte " + start + "): the checksum of the record does not"
          + " match its " + (recordBytes(segment).get(1) - 12) + " bytes. It is not the torn"
          + " last record of a crash, and the records from there on may have been"
          + " acknowledged, so Freshet does not discard them: restore the file from a backup,"
          + " or move the stream's directory " + dir + " away to start the stream empty",
          e.getMessage());
      // Read from where the last read ended, as the next batch would: the same report.
      e = assertThrows(FreshetSourceException.class, () -> log.readRange(1, 2, row -> { }));
      assertEquals("XX001", e.sqlException().getSQLState());
    }
  }

  /**
   * Each task gets a new reader from the (deserialized) factory; the log's reader and its
   * offset index stay in the JVM, so the next batch's task reads only its batch's records.
   */
  @Test void shouldReadOnlyTheNextBatchsRecords() throws Exception {
    try (MemoryStream stream = MemoryStream.open("BATCHES", COLUMNS, dir)) {
      for (long i = 1; i <= 40; i++) {
        stream.addData(rows(row("k" + i, new BigDecimal("1.00"), i)));
      }
      StructType schema = StreamSchema.of("BATCHES", COLUMNS);
      String directory = dir.toAbsolutePath().toString();
      StreamLogReader log = StreamLogReaderFactory.reader(directory, 3);
      List<Long> sizes = recordBytes(stream.segmentFiles().get(0));
      assertEquals(30, readSlice(new StreamLogReaderFactory("BATCHES", directory, schema),
          new RowSlice("BATCHES#1", 0, 30, 0, 30)));
      long before = log.bytesRead();
      assertEquals(3, readSlice(new StreamLogReaderFactory("BATCHES", directory, schema),
          new RowSlice("BATCHES#1", 30, 33, 0, 3)));
      assertEquals(sizes.get(30) + sizes.get(31) + sizes.get(32), log.bytesRead() - before,
          "offsets 31..33 only: no byte of offsets 1..30 read again");
    }
  }

  private static int readSlice(StreamLogReaderFactory factory, RowSlice slice)
      throws Exception {
    int count = 0;
    try (PartitionReader<InternalRow> reader = factory.createReader(slice)) {
      while (reader.next()) {
        reader.get();
        count++;
      }
    }
    return count;
  }

  /** Bytes of each record (12 of header, then the payload) of a segment, in offset order. */
  private static List<Long> recordBytes(Path segment) throws Exception {
    List<Long> sizes = new ArrayList<>();
    try (FileChannel in = FileChannel.open(segment)) {
      long position = 3;
      ByteBuffer length = ByteBuffer.allocate(4);
      while (position < in.size()) {
        length.clear();
        in.read(length, position);
        sizes.add(12L + length.getInt(0));
        position += 12L + length.getInt(0);
      }
    }
    return sizes;
  }

  private static List<List<Object>> read(RowSliceReader.Rows source, long start, long end) {
    List<List<Object>> rows = new ArrayList<>();
    source.readRange(start, end, row -> rows.add(Arrays.asList(row)));
    return rows;
  }
}

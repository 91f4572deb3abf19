package dev.freshet.executor.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link StreamLogReader} on a stream's directory as a reader that does not own it reads
 * it: the stream's rows by offset, across segments; a range read on from the last one reads
 * only its own records (no rescan); the sparse index bounds what an earlier range skips;
 * offsets retention deleted fail, later ones still read; nothing past the acknowledged end is
 * read, even with a torn record after it; and a stream dropped and created again in the same
 * directory reads its new rows.
 */
class StreamLogReaderTest {
  private static final List<StreamColumn> COLUMNS =
      List.of(new StreamColumn("K", "VARCHAR"), new StreamColumn("N", "BIGINT NOT NULL"));
  private static final StreamRetention SMALL = StreamRetention.defaults()
      .withSegmentBytes(400).withRetention(Duration.ZERO).withMemoryMax(2_000);

  @TempDir Path dir;

  private static List<Long> read(StreamLogReader reader, long start, long end) {
    List<Long> ns = new ArrayList<>();
    reader.read(start, end, row -> ns.add((Long) row[1]));
    return ns;
  }

  /** Bytes of each record (header and payload) of a segment, in offset order. */
  private static List<Long> recordBytes(Path segment) throws Exception {
    List<Long> sizes = new ArrayList<>();
    try (FileChannel in = FileChannel.open(segment)) {
      long position = StreamLog.HEADER_BYTES;
      ByteBuffer length = ByteBuffer.allocate(4);
      while (position < in.size()) {
        length.clear();
        in.read(length, position);
        long size = StreamLog.RECORD_HEADER_BYTES + length.getInt(0);
        sizes.add(size);
        position += size;
      }
    }
    return sizes;
  }

  @Test void shouldReadTheRowsOfTheRangeAcrossSegments() {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, dir, SMALL
        .withRetention(Duration.ofDays(1)))) {
      for (long i = 1; i <= 30; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
      assertTrue(stream.segmentFiles().size() > 3, "rolled: " + stream.segmentFiles());
      StreamLogReader reader = StreamLogReader.open(dir, 2);
      assertEquals(NumberedStatements.expected(1, 30), read(reader, 0, 30));
      assertEquals(NumberedStatements.expected(7, 19), read(reader, 6, 19));
      assertEquals(NumberedStatements.expected(30, 30), read(reader, 29, 30));
      assertEquals(List.of(), read(reader, 30, 30));
    }
  }

  @Test void shouldReadOnlyTheRecordsOfTheNextRange() throws Exception {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, dir)) {
      for (long i = 1; i <= 40; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
      List<Long> sizes = recordBytes(stream.segmentFiles().get(0));
      StreamLogReader reader = StreamLogReader.open(dir, 2);
      assertEquals(NumberedStatements.expected(1, 30), read(reader, 0, 30));
      assertEquals(sizes.subList(0, 30).stream().mapToLong(Long::longValue).sum(),
          reader.bytesRead(), "the first range: its own records");
      long before = reader.bytesRead();
      assertEquals(NumberedStatements.expected(31, 33), read(reader, 30, 33));
      assertEquals(sizes.get(30) + sizes.get(31) + sizes.get(32), reader.bytesRead() - before,
          "the next range: offsets 31..33 only, no header of 1..30 read again");
      before = reader.bytesRead();
      assertEquals(NumberedStatements.expected(34, 34), read(reader, 33, 34));
      assertEquals((long) sizes.get(33), reader.bytesRead() - before);
    }
  }

  @Test void shouldSkipAtMostAnIndexIntervalOfHeadersToAnEarlierOffset() throws Exception {
    int count = 400;
    String key = "k".repeat(400);
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, dir)) {
      for (long i = 1; i <= count; i++) {
        stream.addData(List.<Object[]>of(new Object[] {key, i}));
      }
      List<Long> sizes = recordBytes(stream.segmentFiles().get(0));
      long smallest = sizes.stream().mapToLong(Long::longValue).min().orElseThrow();
      assertTrue(sizes.stream().mapToLong(Long::longValue).sum()
          > 2L * StreamLogReader.INDEX_INTERVAL_BYTES, "the segment spans two intervals");
      StreamLogReader reader = StreamLogReader.open(dir, 2);
      read(reader, 0, count);
      long before = reader.bytesRead();
      assertEquals(List.of(351L), read(reader, 350, 351));
      long skipped = StreamLog.RECORD_HEADER_BYTES
          * (StreamLogReader.INDEX_INTERVAL_BYTES / smallest + 1);
      long read = reader.bytesRead() - before;
      assertTrue(read <= skipped + sizes.get(350), "read " + read + " bytes, at most "
          + skipped + " of headers expected");
      assertTrue(read < 350L * StreamLog.RECORD_HEADER_BYTES, "not from the start: " + read);
    }
  }

  @Test void shouldFailOffsetsRetentionDeletedAndReadLaterOnes() {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, dir, SMALL)) {
      QueryReader query = stream.newQueryReader();
      for (long i = 1; i <= 40; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
      StreamLogReader reader = StreamLogReader.open(dir, 2);
      assertEquals(NumberedStatements.expected(1, 20), read(reader, 0, 20));
      ((SupportsCommits) query).commit(20);
      long oldest = stream.oldestOffset();
      assertTrue(oldest > 1 && oldest <= 21, "deleted up to the commit: " + oldest);
      StreamLogException e = assertThrows(StreamLogException.class, () -> read(reader, 0, 20));
      assertEquals(StreamLogException.Code.DELETED, e.code());
      assertEquals(NumberedStatements.expected(21, 40), read(reader, 20, 40));
      assertEquals(NumberedStatements.expected(oldest, 40), read(reader, oldest - 1, 40));
      query.close();
    }
  }

  @Test void shouldNeverReadPastTheAcknowledgedEnd() throws Exception {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, dir)) {
      stream.addData(NumberedStatements.statement(1));
      stream.addData(NumberedStatements.statement(2));
      // A torn record after the acknowledged end: an append a crash interrupted.
      Path segment = stream.segmentFiles().get(0);
      try (FileChannel log = FileChannel.open(segment, StandardOpenOption.WRITE,
          StandardOpenOption.APPEND)) {
        log.write(ByteBuffer.allocate(20).putInt(60).putInt(~60).putInt(7).flip());
      }
      StreamLogReader reader = StreamLogReader.open(dir, 2);
      assertEquals(NumberedStatements.expected(1, 2), read(reader, 0, 2));
      StreamLogException e = assertThrows(StreamLogException.class, () -> read(reader, 2, 3));
      assertEquals(StreamLogException.Code.NOT_ACKNOWLEDGED, e.code());
      assertEquals("Stream log " + segment + " is acknowledged up to offset 2, not up to offset"
          + " 3: the reader does not see the files the stream writes. Read the stream's"
          + " directory on storage its writer shares", e.getMessage());
    }
  }

  @Test void shouldReadTheNewRowsOfAStreamCreatedAgainInTheSameDirectory() {
    StreamLogReader reader = StreamLogReader.open(dir, 2);
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, dir)) {
      for (long i = 1; i <= 5; i++) {
        stream.addData(List.<Object[]>of(new Object[] {"a long key of the first stream " + i, i}));
      }
      assertEquals(List.of(1L, 2L, 3L), read(reader, 0, 3));
    }
    StreamLog.delete(dir);
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, dir)) {
      for (long i = 1; i <= 5; i++) {
        stream.addData(NumberedStatements.statement(10 * i));
      }
      assertEquals(NumberedStatements.expected(40, 50).subList(0, 2), read(reader, 3, 4));
      assertEquals(List.of(10L, -10L, 20L, -20L), read(reader, 0, 2));
    }
  }
}

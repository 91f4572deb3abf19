package dev.freshet.executor.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests the segments of a durable {@link MemoryStream}'s log and its retention: rolling, reading
 * old offsets from their segments after a reopen that reads only the last one, the migration of
 * a single {@code rows.log}, rows leaving memory once committed or beyond the bound, segments
 * deleted once every reader committed past them, and a read of a deleted offset failing.
 */
class StreamRetentionTest {
  /** The first offset of a segment, from its file name. */
  private static final class StreamLogTestFiles {
    static long firstOffsetOfLast(List<Path> segments) {
      String name = segments.get(segments.size() - 1).getFileName().toString();
      return Long.parseLong(name.substring("segment-".length(), name.length() - ".log".length()));
    }
  }

  private static final List<StreamColumn> COLUMNS =
      List.of(new StreamColumn("K", "VARCHAR"), new StreamColumn("N", "BIGINT NOT NULL"));
  /** Small segments: a few statements each. */
  private static final StreamRetention SMALL = StreamRetention.defaults()
      .withSegmentBytes(400).withRetention(Duration.ZERO).withMemoryMax(2_000);

  @TempDir Path dataDir;

  private Path directory() {
    return dataDir.resolve("streams").resolve("CLICKS");
  }

  private static List<Long> read(Source source, long start, long end) {
    List<Long> ns = new ArrayList<>();
    source.readRange(start, end, row -> ns.add((Long) row[1]));
    return ns;
  }

  @Test void shouldRollSegmentsAndReadOldOffsetsFromThemAfterReopen() throws Exception {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory(),
        SMALL.withRetention(Duration.ofDays(1)))) {
      for (long i = 1; i <= 60; i++) {
        assertEquals(i, stream.addData(NumberedStatements.statement(i)));
      }
      assertTrue(stream.segmentFiles().size() > 5, "rolled: " + stream.segmentFiles());
      assertEquals(StreamLog.segmentFile(directory(), 1), stream.segmentFiles().get(0));
      assertTrue(stream.heldInMemory()[1] <= 2_000, "memory bounded: "
          + stream.heldInMemory()[1]);
      assertEquals(NumberedStatements.expected(1, 60), read(stream, 0, 60), "old rows read from the log");
    }
    try (MemoryStream reopened = MemoryStream.open("CLICKS", COLUMNS, directory(), SMALL)) {
      assertEquals(60, reopened.latestOffset());
      assertEquals(0, reopened.heldInMemory()[0], "nothing replayed into memory");
      long tail = 60 - StreamLogTestFiles.firstOffsetOfLast(reopened.segmentFiles()) + 1;
      assertEquals(tail, reopened.recordsReadAtOpen(), "only the last segment read");
      assertTrue(tail < 20, "of 60 records, in " + reopened.segmentFiles().size() + " segments");
      assertEquals(NumberedStatements.expected(17, 23), read(reopened, 16, 23));
      assertEquals(NumberedStatements.expected(24, 60), read(reopened, 23, 60));
      assertEquals(61, reopened.addData(NumberedStatements.statement(61)));
    }
    try (MemoryStream again = MemoryStream.open("CLICKS", COLUMNS, directory(), SMALL)) {
      assertEquals(NumberedStatements.expected(1, 61), read(again, 0, 61));
    }
  }

  @Test void shouldOpenASingleRowsLogAsTheFirstSegment() throws Exception {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory())) {
      for (long i = 1; i <= 3; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
    }
    // The layout before segments: one rows.log, and a version 1 acknowledged end.
    Files.move(StreamLog.segmentFile(directory(), 1), directory().resolve("rows.log"));
    java.nio.ByteBuffer v1 = java.nio.ByteBuffer.allocate(28);
    long end = Files.size(directory().resolve("rows.log"));
    byte[] content = java.nio.ByteBuffer.allocate(24).putInt(1).putInt(0).putLong(3)
        .putLong(end).array();
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(content);
    v1.put(content).putInt((int) crc.getValue());
    byte[] ack = new byte[4096 + 28];
    System.arraycopy(v1.array(), 0, ack, 0, 28);
    System.arraycopy(v1.array(), 0, ack, 4096, 28);
    Files.write(directory().resolve("rows.ack"), ack);
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory(), SMALL)) {
      assertEquals(3, stream.latestOffset());
      assertTrue(Files.notExists(directory().resolve("rows.log")));
      assertEquals(4, stream.addData(NumberedStatements.statement(4)));
      assertEquals(NumberedStatements.expected(1, 4), read(stream, 0, 4));
    }
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory(), SMALL)) {
      assertEquals(NumberedStatements.expected(1, 4), read(stream, 0, 4));
    }
  }

  @Test void shouldDeleteSegmentsEveryReaderCommittedPastAndFailReadsOfThem() throws Exception {
    Path checkpoint = dataDir.resolve("checkpoints").resolve("V").resolve("sources")
        .resolve("0");
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory(), SMALL)) {
      QueryReader reader = stream.newQueryReader();
      ((SupportsMetadataDirectory) reader).useMetadataDirectory(checkpoint);
      for (long i = 1; i <= 40; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
      int segments = stream.segmentFiles().size();
      assertTrue(segments > 4, "rolled");
      assertEquals(1, stream.oldestOffset(), "nothing deleted before the reader commits");
      assertEquals(NumberedStatements.expected(1, 20), read(reader, 0, 20));
      ((SupportsCommits) reader).commit(20);
      long oldest = stream.oldestOffset();
      assertTrue(oldest > 1 && oldest <= 21, "deleted up to the commit: " + oldest);
      assertTrue(stream.segmentFiles().size() < segments);
      StreamLogException e = assertThrows(StreamLogException.class, () -> read(stream, 1, 20));
      assertEquals(StreamLogException.Code.DELETED, e.code());
      assertEquals(NumberedStatements.expected(oldest, 40), read(stream, 0, 40), "a new reader starts at the oldest");
      reader.close();
    }
    // The durable reader's position survives a restart before its query runs again.
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory(), SMALL)) {
      assertEquals(20L, stream.durableReaderPositions().get(checkpoint.toAbsolutePath()
          .normalize().toString()));
      for (long i = 41; i <= 80; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
      assertTrue(stream.oldestOffset() <= 21, "kept for the reader not running yet: "
          + stream.oldestOffset());
      // Its query was dropped: its checkpoint is gone, and so is its hold on the log.
      Files.delete(checkpoint);
      QueryReader other = stream.newQueryReader();
      ((SupportsCommits) other).commit(80);
      assertTrue(stream.oldestOffset() > 60, "deleted: " + stream.oldestOffset());
      other.close();
    }
  }

  @Test void shouldKeepSegmentsYoungerThanTheRetention() {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory(),
        SMALL.withRetention(Duration.ofHours(1)))) {
      QueryReader reader = stream.newQueryReader();
      for (long i = 1; i <= 40; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
      ((SupportsCommits) reader).commit(40);
      assertEquals(1, stream.oldestOffset(), "within the retention");
      reader.close();
    }
  }

  @Test void shouldLetCommittedRowsLeaveMemory() {
    try (MemoryStream stream = MemoryStream.open("CLICKS", COLUMNS, directory(),
        SMALL.withMemoryMax(1 << 20).withRetention(Duration.ofDays(1)))) {
      QueryReader reader = stream.newQueryReader();
      for (long i = 1; i <= 10; i++) {
        stream.addData(NumberedStatements.statement(i));
      }
      assertEquals(10, stream.heldInMemory()[0]);
      ((SupportsCommits) reader).commit(7);
      assertEquals(3, stream.heldInMemory()[0]);
      assertEquals(NumberedStatements.expected(1, 10), read(reader, 0, 10), "older rows from the log");
      reader.close();
    }
  }

  @Test void shouldRefuseAnInsertIntoAFullMemoryStreamThatAQueryStillNeeds() {
    MemoryStream stream = new MemoryStream("CLICKS", 2, SMALL);
    QueryReader reader = stream.newQueryReader();
    ((SupportsCommits) reader).queryStarted("TOTALS");
    long added = 0;
    StreamMemoryFullException full = null;
    for (long i = 1; i <= 100 && full == null; i++) {
      try {
        stream.addData(NumberedStatements.statement(i));
        added = i;
      } catch (StreamMemoryFullException e) {
        full = e;
      }
    }
    assertTrue(full != null && added > 3, "refused after " + added);
    assertEquals("TOTALS", full.laggingQuery());
    assertTrue(full.getMessage().contains("'memory.max'"), full.getMessage());
    assertEquals(NumberedStatements.expected(1, added), read(reader, 0, added), "nothing lost");
    ((SupportsCommits) reader).commit(added);
    assertEquals(added + 1, stream.addData(NumberedStatements.statement(added + 1)), "room once read");
    reader.close();
    // Without readers the oldest rows go beyond the bound; a new query starts after them.
    for (long i = added + 2; i <= 200; i++) {
      stream.addData(NumberedStatements.statement(i));
    }
    long oldest = stream.oldestOffset();
    assertTrue(oldest > 1);
    assertEquals(NumberedStatements.expected(oldest, 200), read(stream, 0, 200));
  }

  @Test void shouldBoundTheRowsInMemoryOfAllStreamsTogether() {
    // Each stream alone may keep 1 MB; the pool lets them keep 3,000 bytes together.
    StreamMemoryPool pool = new StreamMemoryPool(3_000);
    StreamRetention roomy = SMALL.withMemoryMax(1 << 20).withRetention(Duration.ofDays(1));
    try (MemoryStream durable = MemoryStream.open("CLICKS", COLUMNS, directory(), roomy, pool)) {
      MemoryStream inMemory = new MemoryStream("VIEWS", 2, roomy, pool);
      QueryReader lagging = inMemory.newQueryReader();
      ((SupportsCommits) lagging).queryStarted("TOTALS");
      QueryReader durableReader = durable.newQueryReader();
      long kept = 0;
      StreamMemoryFullException full = null;
      for (long i = 1; i <= 100 && full == null; i++) {
        try {
          inMemory.addData(NumberedStatements.statement(i));
          kept = i;
        } catch (StreamMemoryFullException e) {
          full = e;
        }
      }
      assertTrue(full != null && kept > 3, "refused after " + kept);
      assertTrue(full.getMessage().contains("streams keep") && full.getMessage().contains(
          "TOTALS"), full.getMessage());
      assertTrue(pool.usedBytes() <= 3_000, "bounded: " + pool.usedBytes());
      // The durable stream's rows leave memory for its log: the pool is full.
      for (long i = 1; i <= 30; i++) {
        durable.addData(NumberedStatements.statement(i));
      }
      assertEquals(0, durable.heldInMemory()[0], "over the pool: read from the log");
      assertEquals(NumberedStatements.expected(1, 30), read(durableReader, 0, 30), "nothing lost");
      assertEquals(NumberedStatements.expected(1, kept), read(lagging, 0, kept), "nothing lost");
      // A dropped stream gives its share back.
      inMemory.close();
      assertEquals(0, pool.usedBytes());
      durable.addData(NumberedStatements.statement(31));
      assertEquals(1, durable.heldInMemory()[0], "room again");
      lagging.close();
      durableReader.close();
    }
  }
}

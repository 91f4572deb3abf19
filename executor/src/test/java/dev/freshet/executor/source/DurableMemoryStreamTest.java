package dev.freshet.executor.source;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests a durable {@link MemoryStream} and the format of its {@link StreamLog}: replay on reopen,
 * a torn last record truncated, corruption in the middle rejected with the file and the offset.
 */
class DurableMemoryStreamTest {
  private static final List<StreamColumn> COLUMNS = List.of(new StreamColumn("K", "VARCHAR"),
      new StreamColumn("N", "BIGINT NOT NULL"), new StreamColumn("X", "DECIMAL(10, 2)"));

  @TempDir Path dataDir;

  private Path directory() {
    return dataDir.resolve("streams").resolve("CLICKS");
  }

  private Path logFile() {
    return StreamLog.segmentFile(directory(), 1);
  }

  private MemoryStream open() {
    return MemoryStream.open("CLICKS", COLUMNS, directory());
  }

  /** The rows of offset {@code i}: {@code 1 + i % 3} rows of every kind of value. */
  private static List<Object[]> statement(int i) {
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r <= i % 3; r++) {
      rows.add(new Object[] {r == 1 ? null : "k" + i + "-" + r + "x".repeat(i * 37 % 200),
          (long) i * 1000 + r, r == 2 ? null : new BigDecimal(i + "." + r + "5")});
    }
    return rows;
  }

  /** Adds statements 1..n and returns the log's size after each (index 0: the empty log). */
  private List<Long> addStatements(MemoryStream stream, int n) throws IOException {
    List<Long> sizes = new ArrayList<>();
    sizes.add(Files.size(logFile()));
    for (int i = 1; i <= n; i++) {
      assertEquals(i, stream.addData(statement(i)));
      sizes.add(Files.size(logFile()));
    }
    return sizes;
  }

  private static void assertOffsets(MemoryStream stream, int n) {
    assertEquals(n, stream.latestOffset());
    for (int i = 1; i <= n; i++) {
      List<Object[]> rows = new ArrayList<>();
      stream.readRange(i - 1, i, rows::add);
      List<Object[]> expected = statement(i);
      assertEquals(expected.size(), rows.size(), "rows of offset " + i);
      for (int r = 0; r < rows.size(); r++) {
        assertArrayEquals(expected.get(r), rows.get(r), "offset " + i + ", row " + r);
      }
    }
  }

  @Test void shouldReplayEveryOffsetWhenReopened() throws Exception {
    try (MemoryStream stream = open()) {
      assertEquals(0, stream.latestOffset());
      addStatements(stream, 5);
      assertEquals(5, stream.addData(List.of()), "an empty statement adds no offset");
    }
    try (MemoryStream stream = open()) {
      assertOffsets(stream, 5);
      assertEquals(6, stream.addData(statement(6)));
    }
    try (MemoryStream stream = open()) {
      assertOffsets(stream, 6);
      assertEquals(directory(), stream.directory().orElseThrow());
    }
  }

  @Test void shouldKeepLongStringsAndEveryValueKindWhenReopened() throws Exception {
    List<StreamColumn> columns = List.of(new StreamColumn("S", "VARCHAR"),
        new StreamColumn("I", "INTEGER"), new StreamColumn("D", "DOUBLE"),
        new StreamColumn("B", "BOOLEAN"), new StreamColumn("T", "TIMESTAMP(3)"));
    Object[] row = {"é".repeat(40_000), 7, 2.5, true, 1_700_000_000_123L};
    try (MemoryStream stream = MemoryStream.open("S", columns, directory())) {
      stream.addData(List.<Object[]>of(row, new Object[] {null, null, null, null, null}));
    }
    try (MemoryStream stream = MemoryStream.open("S", columns, directory())) {
      List<Object[]> rows = new ArrayList<>();
      stream.readRange(0, 1, rows::add);
      assertArrayEquals(row, rows.get(0));
      assertArrayEquals(new Object[5], rows.get(1));
    }
  }

  @Test void shouldWriteTheDocumentedFiles() throws Exception {
    List<StreamColumn> columns = List.of(new StreamColumn("K", "VARCHAR"),
        new StreamColumn("odd\tname\\", "INTEGER NOT NULL"));
    try (MemoryStream stream = MemoryStream.open("CLICKS", columns, directory())) {
      stream.addData(List.<Object[]>of(new Object[] {"a", 1}));
    }
    assertEquals("v1\nstream\tCLICKS\ncolumn\tK\tVARCHAR\n"
        + "column\todd\\tname\\\\\tINTEGER NOT NULL\n",
        Files.readString(directory().resolve(StreamLog.METADATA_FILE)));
    ByteBuffer log = ByteBuffer.wrap(Files.readAllBytes(logFile()));
    byte[] header = new byte[3];
    log.get(header);
    assertEquals("v1\n", new String(header, UTF_8));
    int length = log.getInt();
    assertEquals(~length, log.getInt());
    log.getInt();
    assertEquals(length, log.remaining(), "one record");
    assertEquals(1L, log.getLong(), "the record's offset");
    assertEquals(1, log.getInt(), "its row count");
    try (MemoryStream stream = MemoryStream.open("CLICKS", columns, directory())) {
      assertEquals(1, stream.latestOffset(), "escaped names read back");
    }
  }

  private Path ackFile() {
    return directory().resolve(StreamLog.ACK_FILE);
  }

  @Test void shouldTruncateATornLastRecordWhenReopened() throws Exception {
    List<Long> sizes;
    byte[] ackedThree;
    try (MemoryStream stream = open()) {
      sizes = addStatements(stream, 3);
      ackedThree = Files.readAllBytes(ackFile());
      assertEquals(4, stream.addData(statement(4)));
      sizes.add(Files.size(logFile()));
    }
    long lastStart = sizes.get(3);
    long end = sizes.get(4);
    byte[] complete = Files.readAllBytes(logFile());

    // Each way a crash can leave the last record: cut in its header, cut in its payload, all of
    // it there but not all of it written (bad checksum), or a tail of zeros.
    List<byte[]> torn = new ArrayList<>();
    torn.add(Arrays.copyOf(complete, (int) lastStart + 5));
    torn.add(Arrays.copyOf(complete, (int) end - 1));
    byte[] badChecksum = complete.clone();
    badChecksum[(int) end - 2] ^= 0x40;
    torn.add(badChecksum);
    byte[] zeros = Arrays.copyOf(Arrays.copyOf(complete, (int) lastStart), (int) lastStart + 300);
    torn.add(zeros);

    for (byte[] content : torn) {
      Files.write(logFile(), content);
      // The crash came before offset 4 was acknowledged.
      Files.write(ackFile(), ackedThree);
      try (MemoryStream stream = open()) {
        assertOffsets(stream, 3);
        assertEquals(lastStart, Files.size(logFile()), "torn record cut off");
        assertEquals(4, stream.addData(statement(4)), "the next INSERT takes its offset");
      }
      try (MemoryStream stream = open()) {
        assertOffsets(stream, 4);
      }
      assertArrayEquals(complete, Files.readAllBytes(logFile()));
    }
  }

  @Test void shouldFailWhenAnAcknowledgedRecordIsCutAtARecordBoundary() throws Exception {
    List<Long> sizes;
    try (MemoryStream stream = open()) {
      sizes = addStatements(stream, 4);
    }
    byte[] cut = Arrays.copyOf(Files.readAllBytes(logFile()), sizes.get(3).intValue());
    Files.write(logFile(), cut);
    StreamLogException e = assertThrows(StreamLogException.class, this::open);
    assertEquals(StreamLogException.Code.CORRUPT, e.code());
    assertEquals(logFile(), e.file());
    assertEquals("Stream log " + logFile() + " ends after offset 3 (byte " + sizes.get(3)
        + "), but offsets up to 4 (byte " + sizes.get(4) + ") were acknowledged, as "
        + ackFile() + " records: the file lost acknowledged records, and Freshet neither drops"
        + " them nor hands their offsets out again. Restore the file from a backup, or move the"
        + " stream's directory " + directory() + " away to start the stream empty",
        e.getMessage());
    assertArrayEquals(cut, Files.readAllBytes(logFile()), "nothing was truncated");
    assertThrows(StreamLogException.class, this::open, "fails every time, never reuses 4");
  }

  @Test void shouldFailWhenTheLastAcknowledgedRecordHasAFlippedBit() throws Exception {
    List<Long> sizes;
    try (MemoryStream stream = open()) {
      sizes = addStatements(stream, 4);
    }
    byte[] flipped = Files.readAllBytes(logFile());
    flipped[flipped.length - 2] ^= 0x40;
    Files.write(logFile(), flipped);
    StreamLogException e = assertThrows(StreamLogException.class, this::open);
    assertEquals(StreamLogException.Code.CORRUPT, e.code());
    assertTrue(e.getMessage().startsWith("Stream log " + logFile() + " is corrupt at offset 4"
        + " (byte " + sizes.get(3) + "): the checksum of the record does not match its "
        + (sizes.get(4) - sizes.get(3) - StreamLog.RECORD_HEADER_BYTES) + " bytes, though"
        + " offsets up to 4 were acknowledged (rows.ack). "), e.getMessage());
    assertArrayEquals(flipped, Files.readAllBytes(logFile()), "nothing was truncated");
  }

  @Test void shouldKeepACompleteRecordThatWasNotAcknowledgedYet() throws Exception {
    List<Long> sizes;
    byte[] ackedThree;
    try (MemoryStream stream = open()) {
      sizes = addStatements(stream, 3);
      ackedThree = Files.readAllBytes(ackFile());
      stream.addData(statement(4));
      sizes.add(Files.size(logFile()));
    }
    // A crash between the log's force and the ack's: the record is whole, so it is kept ...
    Files.write(ackFile(), ackedThree);
    try (MemoryStream stream = open()) {
      assertOffsets(stream, 4);
    }
    // ... and acknowledged on open: cutting it off now is damage.
    Files.write(logFile(), Arrays.copyOf(Files.readAllBytes(logFile()), sizes.get(3).intValue()));
    assertThrows(StreamLogException.class, this::open);
  }

  @Test void shouldUseTheOtherSlotWhenOneIsTorn() throws Exception {
    try (MemoryStream stream = open()) {
      addStatements(stream, 4);
    }
    // Offset 4's slot (slot 0, at byte 0) torn: slot 1 says 3, and the whole record 4 is kept.
    byte[] ack = Files.readAllBytes(ackFile());
    ack[10] ^= 1;
    Files.write(ackFile(), ack);
    try (MemoryStream stream = open()) {
      assertOffsets(stream, 4);
      assertEquals(5, stream.addData(statement(5)));
    }
    // Both slots damaged: how far the log was acknowledged is unknown.
    ack = Files.readAllBytes(ackFile());
    ack[10] ^= 1;
    ack[4096 + 10] ^= 1;
    Files.write(ackFile(), ack);
    StreamLogException e = assertThrows(StreamLogException.class, this::open);
    assertEquals(StreamLogException.Code.CORRUPT, e.code());
    assertEquals(ackFile(), e.file());
    Files.delete(ackFile());
    e = assertThrows(StreamLogException.class, this::open);
    assertEquals(ackFile(), e.file());
    assertTrue(e.getMessage().contains("the file is missing"), e.getMessage());
  }

  @Test void shouldRejectACorruptRecordInTheMiddle() throws Exception {
    List<Long> sizes;
    try (MemoryStream stream = open()) {
      sizes = addStatements(stream, 3);
    }
    byte[] complete = Files.readAllBytes(logFile());
    long second = sizes.get(1);

    byte[] badPayload = complete.clone();
    badPayload[(int) second + StreamLog.RECORD_HEADER_BYTES + 9] ^= 1;
    byte[] badLength = complete.clone();
    badLength[(int) second + 3] ^= 1;
    for (byte[] content : List.of(badPayload, badLength)) {
      Files.write(logFile(), content);
      StreamLogException e = assertThrows(StreamLogException.class, this::open);
      assertEquals(StreamLogException.Code.CORRUPT, e.code());
      assertEquals(logFile(), e.file());
      assertTrue(e.getMessage().startsWith("Stream log " + logFile() + " is corrupt at offset 2"
          + " (byte " + second + "): "), e.getMessage());
      assertTrue(e.getMessage().endsWith("Freshet does not discard them: restore the file from"
          + " a backup, or move the stream's directory " + directory() + " away to start the"
          + " stream empty"), e.getMessage());
      assertArrayEquals(content, Files.readAllBytes(logFile()), "nothing was truncated");
    }
  }

  @Test void shouldRejectARecordWithAnotherOffset() throws Exception {
    try (MemoryStream stream = open()) {
      addStatements(stream, 2);
    }
    // Offset 2 twice: the checksums hold, the sequence does not.
    byte[] complete = Files.readAllBytes(logFile());
    byte[] first = Arrays.copyOfRange(complete, 3, complete.length);
    byte[] doubled = new byte[complete.length + first.length];
    System.arraycopy(complete, 0, doubled, 0, complete.length);
    System.arraycopy(first, 0, doubled, complete.length, first.length);
    Files.write(logFile(), doubled);
    StreamLogException e = assertThrows(StreamLogException.class, this::open);
    assertEquals(StreamLogException.Code.CORRUPT, e.code());
    assertTrue(e.getMessage().contains("is corrupt at offset 3 (byte " + complete.length
        + "): the record says it is offset 1."), e.getMessage());
  }

  @Test void shouldRefuseOtherColumnsWhenReopened() throws Exception {
    try (MemoryStream stream = open()) {
      addStatements(stream, 1);
    }
    List<StreamColumn> other = List.of(new StreamColumn("K", "VARCHAR"),
        new StreamColumn("N", "BIGINT"), new StreamColumn("X", "DECIMAL(10, 2)"));
    StreamLogException e = assertThrows(StreamLogException.class,
        () -> MemoryStream.open("CLICKS", other, directory()));
    assertEquals(StreamLogException.Code.COLUMNS_DIFFER, e.code());
    assertEquals("Stream 'CLICKS' has rows in " + directory() + " with columns (K VARCHAR,"
        + " N BIGINT NOT NULL, X DECIMAL(10, 2)), but is declared with columns (K VARCHAR,"
        + " N BIGINT, X DECIMAL(10, 2)). Declare the columns of the stored rows to reopen"
        + " them, or move " + directory() + " away to start the stream empty", e.getMessage());
    try (MemoryStream stream = open()) {
      assertOffsets(stream, 1);
    }
  }

  @Test void shouldRejectAFormatVersionItDoesNotKnow() throws Exception {
    try (MemoryStream stream = open()) {
      addStatements(stream, 1);
    }
    byte[] log = Files.readAllBytes(logFile());
    log[1] = '2';
    Files.write(logFile(), log);
    StreamLogException e = assertThrows(StreamLogException.class, this::open);
    assertEquals(StreamLogException.Code.UNSUPPORTED_VERSION, e.code());
    assertEquals("Stream file " + logFile() + " has format version 'v2', but this Freshet reads"
        + " v1 only: it was written by a newer Freshet. Open the data directory with that"
        + " version", e.getMessage());

    Path metadata = directory().resolve(StreamLog.METADATA_FILE);
    Files.writeString(metadata, "v12\nstream\tCLICKS\n");
    e = assertThrows(StreamLogException.class, this::open);
    assertEquals(StreamLogException.Code.UNSUPPORTED_VERSION, e.code());
    assertEquals(metadata, e.file());
  }

  @Test void shouldStartOverWhenTheMetadataIsMissing() throws Exception {
    // A crash between writing the log and the metadata (CREATE) or between deleting them (DROP).
    try (MemoryStream stream = open()) {
      addStatements(stream, 2);
    }
    Files.delete(directory().resolve(StreamLog.METADATA_FILE));
    try (MemoryStream stream = open()) {
      assertEquals(0, stream.latestOffset());
    }
  }

  @Test void shouldDeleteTheStreamsFiles() throws Exception {
    try (MemoryStream stream = open()) {
      addStatements(stream, 2);
    }
    MemoryStream.delete(directory());
    assertFalse(Files.exists(directory()));
    MemoryStream.delete(directory());
    try (MemoryStream stream = open()) {
      assertEquals(0, stream.latestOffset());
    }
  }

  @Test void shouldAddNothingWhenAValueCannotBeEncoded() throws Exception {
    try (MemoryStream stream = open()) {
      addStatements(stream, 1);
      long size = Files.size(logFile());
      assertThrows(IllegalArgumentException.class, () -> stream.addData(
          List.<Object[]>of(new Object[] {"a", 1L, new Object()})));
      assertEquals(1, stream.latestOffset());
      assertEquals(size, Files.size(logFile()));
      assertEquals(2, stream.addData(statement(2)));
    }
    try (MemoryStream stream = open()) {
      assertOffsets(stream, 2);
    }
  }

  @Test void shouldRefuseRowsAfterClosingButKeepThemReadable() throws Exception {
    MemoryStream stream = open();
    addStatements(stream, 1);
    stream.close();
    stream.close();
    StreamLogException e = assertThrows(StreamLogException.class,
        () -> stream.addData(statement(2)));
    assertEquals(StreamLogException.Code.IO_ERROR, e.code());
    assertEquals("Stream log " + logFile() + " is closed: the stream was dropped or its engine"
        + " closed", e.getMessage());
    assertOffsets(stream, 1);
  }

  @Test void shouldNotWriteWhenKeptInMemory() throws Exception {
    try (MemoryStream stream = new MemoryStream("mem", 1)) {
      stream.addData(List.<Object[]>of(new Object[] {new Object()}));
      assertTrue(stream.directory().isEmpty());
    }
    try (var files = Files.list(dataDir)) {
      assertEquals(0, files.count());
    }
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage in a data directory found when the engine starts again: a stream log that lost or
 * damaged an acknowledged record, a view whose checkpoint is ahead of its stream, a corrupt
 * checkpoint file. Each fails with an error naming the file or the offsets, never by skipping
 * rows or handing an offset out twice; a torn write that was never acknowledged is still cut off
 * silently.
 */
class LogDamageTest {
  private static final String STREAM = "CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR)"
      + " WITH (connector = 'memory')";
  private static final String VIEW = "CREATE MATERIALIZED VIEW IF NOT EXISTS per_user AS"
      + " SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id";

  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws SQLException {
    engine().close();
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
  }

  private Path log() {
    return dataDir.resolve("streams").resolve("CLICKS").resolve("rows.log");
  }

  private Path checkpoint() {
    return dataDir.resolve("checkpoints").resolve("PER_USER");
  }

  /** A stream with three acknowledged INSERTs and a view that has read them; engine closed. */
  private void threeInserts() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(VIEW);
      for (int i = 0; i < 3; i++) {
        s.execute("INSERT INTO clicks VALUES ('a')");
      }
      awaitCount(s, 3);
    }
    engine().close();
  }

  private static void awaitCount(Statement s, long count) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!List.of(List.of("a", count)).equals(rows(s, "SELECT user_id, n FROM per_user"))) {
      assertTrue(System.nanoTime() < deadline, "the view did not reach " + count);
      Thread.onSpinWait();
    }
  }

  private static List<List<Object>> rows(Statement s, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (ResultSet r = s.executeQuery(sql)) {
      while (r.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
          row.add(r.getObject(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** The byte positions where the records of rows.log start, and its end. */
  private List<Integer> recordStarts() throws Exception {
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(log()));
    List<Integer> starts = new ArrayList<>();
    for (int at = 3; at <= bytes.capacity(); at += 12 + bytes.getInt(at)) {
      starts.add(at);
      if (at == bytes.capacity()) {
        break;
      }
    }
    return starts;
  }

  private SQLException insertFails() throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      return assertThrows(SQLException.class, () -> s.execute("INSERT INTO clicks VALUES ('a')"));
    }
  }

  @Test void shouldFailTheStreamWhenAnAcknowledgedRecordWasCutAtItsStart() throws Exception {
    threeInserts();
    List<Integer> starts = recordStarts();
    byte[] cut = Arrays.copyOf(Files.readAllBytes(log()), starts.get(2));
    Files.write(log(), cut);

    SQLException e = insertFails();
    assertEquals("XX001", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Stream CLICKS could not be declared again when the"
        + " engine started: Stream log " + log() + " ends after offset 2 (byte " + starts.get(2)
        + "), but offsets up to 3 (byte " + starts.get(3) + ") were acknowledged"),
        e.getMessage());
    assertArrayEquals(cut, Files.readAllBytes(log()), "nothing truncated, offset 3 not reused");
    try (Connection c = connect(); Statement s = c.createStatement()) {
      SQLException select = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT * FROM per_user"));
      assertEquals("XX001", select.getSQLState());
      assertTrue(select.getMessage().contains("ends after offset 2"), select.getMessage());
      // Declaring the stream again tries again, and says why it cannot.
      SQLException create = assertThrows(SQLException.class, () -> s.execute(STREAM));
      assertEquals("XX001", create.getSQLState());
    }
  }

  @Test void shouldFailTheStreamWhenTheLastAcknowledgedRecordHasAFlippedBit() throws Exception {
    threeInserts();
    byte[] flipped = Files.readAllBytes(log());
    flipped[flipped.length - 1] ^= 0x01;
    Files.write(log(), flipped);

    SQLException e = insertFails();
    assertEquals("XX001", e.getSQLState());
    assertTrue(e.getMessage().contains("Stream log " + log() + " is corrupt at offset 3 (byte "
        + recordStarts().get(2) + "): the checksum of the record does not match"),
        e.getMessage());
    assertArrayEquals(flipped, Files.readAllBytes(log()));
  }

  @Test void shouldCutATornUnacknowledgedTailSilentlyAndLoseNoRow() throws Exception {
    threeInserts();
    // What a crash in the middle of a fourth INSERT leaves: a record header and half a payload.
    byte[] log = Files.readAllBytes(log());
    byte[] torn = Arrays.copyOf(log, log.length + 20);
    ByteBuffer.wrap(torn, log.length, 8).putInt(40).putInt(~40);
    Files.write(log(), torn);

    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO clicks VALUES ('a')");
      awaitCount(s, 4);
      assertEquals(List.of(List.of(4L)), rows(s, "SELECT COUNT(*) FROM clicks"));
    }
  }

  @Test void shouldFailTheViewWhenItsCheckpointIsAheadOfTheStream() throws Exception {
    threeInserts();
    // As a stream-log error advises: the stream's directory moved away, the stream starts empty.
    Files.move(log().getParent(), dataDir.resolve("clicks-damaged"));

    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO clicks VALUES ('a')");
      // The view's query fails when it starts, on its own thread.
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!rows(s, "SELECT status FROM sys.queries").equals(List.of(List.of("FAILED")))) {
        assertTrue(System.nanoTime() < deadline, "the view's query did not fail");
        Thread.onSpinWait();
      }
      // The batch that read offset 3 may be any of the first three.
      String expected = " records offset 3 of MemoryStream[CLICKS], which is ahead of the"
          + " source's latest offset ";
      SQLException e = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT * FROM per_user"));
      assertEquals("XX001", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Materialized view PER_USER failed: Checkpoint file "
          + checkpoint().resolve("offsets")), e.getMessage());
      assertTrue(e.getMessage().contains(expected), e.getMessage());
      List<List<Object>> query = rows(s, "SELECT status, last_error FROM sys.queries");
      assertEquals("FAILED", query.get(0).get(0));
      assertTrue(((String) query.get(0).get(1)).contains(expected), query.toString());
      SQLException again = assertThrows(SQLException.class, () -> s.execute(VIEW));
      assertEquals(e.getMessage(), again.getMessage());
    }
  }

  @Test void shouldFailTheViewWhenItsCheckpointMetadataIsCorrupt() throws Exception {
    threeInserts();
    Path metadata = checkpoint().resolve("metadata");
    Files.writeString(metadata, "{\"id\":");

    try (Connection c = connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT * FROM per_user"));
      assertEquals("XX001", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Materialized view PER_USER could not be declared"
          + " again when the engine started: Checkpoint file " + metadata + " is corrupt"),
          e.getMessage());
      SQLException again = assertThrows(SQLException.class, () -> s.execute(VIEW));
      assertEquals("XX001", again.getSQLState());
      assertTrue(again.getMessage().startsWith("Checkpoint file " + metadata + " is corrupt"),
          again.getMessage());
      // DROP removes what is left; the view can then start afresh.
      s.execute("DROP MATERIALIZED VIEW per_user");
      s.execute(VIEW);
      awaitCount(s, 3);
    }
  }

  @Test void shouldFailTheViewWhenItsLatestOffsetsFileIsCorrupt() throws Exception {
    threeInserts();
    Path offsets = checkpoint().resolve("offsets");
    long latest;
    try (var files = Files.list(offsets)) {
      latest = files.map(f -> f.getFileName().toString()).filter(n -> n.matches("[0-9]+"))
          .mapToLong(Long::parseLong).max().orElseThrow();
    }
    Path file = offsets.resolve(Long.toString(latest));
    Files.writeString(file, "v1\n{\"batchWatermarkMs\":0,");

    try (Connection c = connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT * FROM per_user"));
      assertEquals("XX001", e.getSQLState());
      assertTrue(e.getMessage().contains("Checkpoint file " + file + " is corrupt"),
          e.getMessage());
    }
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A view whose checkpoint is ahead of its stream, or whose checkpoint metadata or latest offsets
 * file is corrupt, fails with the offsets or the file: in SYS.QUERIES, for a plain SELECT and
 * when declared again; never an empty view or one silently left out.
 */
class CheckpointDamageTest extends DataDirDamage {
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
        ViewResults.betweenPolls();
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

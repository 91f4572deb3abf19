package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream's retention options through JDBC: a malformed value refused naming the option, an
 * INSERT into a full memory-only stream refused with 53200 naming {@code 'memory.max'} and the
 * lagging query, and on a data directory, a view created after retention deleted offsets starting
 * at the oldest one held, which EXPLAIN states.
 */
class StreamRetentionJdbcTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws SQLException {
    EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString())).close();
  }

  @Test void shouldRefuseAMalformedRetention() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE STREAM clicks (n BIGINT) WITH ('retention' = 'soon')"));
      assertEquals("42000", e.getSQLState());
      assertTrue(e.getMessage().contains("Option 'retention' of stream CLICKS is 'soon'"),
          e.getMessage());
      s.execute("CREATE STREAM clicks (n BIGINT) WITH ('retention' = '7 days',"
          + " 'memory.max' = '64 MB', 'segment.size' = '1 MB')");
    }
  }

  @Test void shouldRefuseAnInsertThatAQueryHasNotReadBeyondTheMemoryBound() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (n BIGINT, pad VARCHAR) WITH ('memory.max' = '4 KB')");
      s.executeUpdate("INSERT INTO clicks VALUES (0, 'first')");
      // Its first batch runs now, reading row 0, then none for an hour: it reads none of the
      // rows below.
      s.execute("SET 'trigger.interval' = '1 h'");
      s.execute("CREATE MATERIALIZED VIEW slow AS SELECT COUNT(*) AS c FROM clicks");
      awaitCount(s, "slow", 1);
      String pad = "x".repeat(200);
      SQLException refused = null;
      int inserted = 0;
      for (int i = 1; i < 100 && refused == null; i++) {
        try {
          s.executeUpdate("INSERT INTO clicks VALUES (" + i + ", '" + pad + "')");
          inserted++;
        } catch (SQLException e) {
          refused = e;
        }
      }
      assertTrue(refused != null && inserted > 3, "refused after " + inserted + " rows");
      assertEquals("53200", refused.getSQLState());
      assertTrue(refused.getMessage().contains("'memory.max'")
          && refused.getMessage().contains("query SLOW"), refused.getMessage());
      // Nothing the view has not read was dropped (row 0, read, may have left memory).
      try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM clicks WHERE n > 0")) {
        r.next();
        assertEquals(inserted, r.getLong(1));
      }
    }
  }

  @Test void shouldStartANewViewAtTheOldestOffsetRetentionHolds() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM clicks (n BIGINT) WITH ('retention' = '0',"
          + " 'segment.size' = '100')");
      s.execute("CREATE MATERIALIZED VIEW seen AS SELECT COUNT(*) AS c FROM clicks");
      for (int i = 1; i <= 30; i++) {
        s.executeUpdate("INSERT INTO clicks VALUES (" + i + ")");
      }
      awaitCount(s, "seen", 30);
      // The view's commits let retention delete the segments before the active one; once only
      // the active one is left, nothing deletes more, and the oldest offset is final.
      long oldest = awaitOldest(s, dataDir);
      assertTrue(oldest > 1, "offsets deleted: " + oldest);
      s.execute("CREATE MATERIALIZED VIEW late AS SELECT COUNT(*) AS c FROM clicks");
      awaitCount(s, "late", 30 - oldest + 1);
    }
  }

  /**
   * The offset EXPLAIN names as where a new query starts, once retention has deleted every
   * segment but the active one: before that, a commit of the view in flight may still delete
   * one and move it.
   */
  private static long awaitOldest(Statement s, Path dataDir) throws SQLException, IOException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    Pattern note = Pattern.compile("-- CLICKS: a new query starts at offset (\\d+), the oldest"
        + " its 'retention' holds");
    while (true) {
      try (ResultSet r = s.executeQuery("EXPLAIN PLAN FOR SELECT STREAM n FROM clicks")) {
        r.next();
        Matcher m = note.matcher(r.getString(1));
        if (m.find() && segmentFiles(dataDir) == 1) {
          return Long.parseLong(m.group(1));
        }
        if (System.nanoTime() > deadline) {
          fail("EXPLAIN never named where a new query starts: " + r.getString(1));
        }
      }
      ViewResults.betweenPolls();
    }
  }

  /** How many stream log segments the data directory holds (this test has one stream). */
  private static long segmentFiles(Path dataDir) throws IOException {
    try (Stream<Path> files = Files.walk(dataDir)) {
      return files.filter(f -> {
        String name = f.getFileName().toString();
        return name.startsWith("segment-") && name.endsWith(".log");
      }).count();
    }
  }

  private static void awaitCount(Statement s, String view, long expected) throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    long seen = -1;
    while (seen != expected) {
      if (System.nanoTime() > deadline) {
        fail("after " + DEADLINE + " view " + view + " counted " + seen + ", not " + expected);
      }
      if (seen != -1) {
        ViewResults.betweenPolls();
      }
      try (ResultSet r = s.executeQuery("SELECT c FROM " + view)) {
        seen = r.next() ? r.getLong(1) : -1;
      }
    }
  }
}

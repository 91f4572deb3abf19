package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code CURRENT_TIMESTAMP}, {@code LOCALTIMESTAMP} and {@code CURRENT_DATE} in a continuous
 * query are the batch's processing time (Spark's {@code CurrentBatchTimestamp}): one value for
 * every row of a batch, the value {@code sys.query_progress} shows as the batch's
 * {@code BATCH_TIMESTAMP}, and, since the offset log records it, the same value when the batch
 * runs again after a crash.
 */
class BatchTimeTest extends DataDirDamage {
  private static final String STAMPED = "CREATE MATERIALIZED VIEW stamped AS SELECT user_id,"
      + " CURRENT_TIMESTAMP AS t, LOCALTIMESTAMP AS lt, CURRENT_DATE AS d FROM clicks";
  private static final String LAST_SEEN = "CREATE MATERIALIZED VIEW last_seen AS SELECT user_id,"
      + " COUNT(*) AS n, MAX(CURRENT_TIMESTAMP) AS seen FROM clicks GROUP BY user_id";

  @Test void shouldGiveEveryRowOfABatchTheBatchsTimestamp() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(STAMPED);
      s.execute("INSERT INTO clicks VALUES ('a'), ('b'), ('c')");
      awaitRows(s, "SELECT COUNT(*) FROM stamped", 3L);
      s.execute("INSERT INTO clicks VALUES ('d'), ('e')");
      awaitRows(s, "SELECT COUNT(*) FROM stamped", 5L);

      // Each batch that read rows: its time, and how many rows carry it.
      Map<Timestamp, Long> batches = new HashMap<>();
      for (List<Object> batch : rows(s, "SELECT batch_timestamp, num_input_rows"
          + " FROM sys.query_progress WHERE name = 'STAMPED' AND num_input_rows > 0")) {
        batches.merge((Timestamp) batch.get(0), (Long) batch.get(1), Long::sum);
      }
      Map<Timestamp, Long> stamped = new HashMap<>();
      for (List<Object> row : rows(s, "SELECT t, COUNT(*) FROM stamped GROUP BY t")) {
        stamped.put((Timestamp) row.get(0), (Long) row.get(1));
      }
      assertEquals(batches, stamped);
      assertTrue(stamped.size() >= 2, "two INSERTs, two batches at least: " + stamped);
      // UTC is Freshet's time zone: local time is current time, and the date is its day.
      assertEquals(List.of(List.of(0L)), rows(s, "SELECT COUNT(*) FROM stamped"
          + " WHERE lt <> t OR d <> CAST(t AS DATE) OR t IS NULL"));
    }
  }

  @Test void shouldGiveTheRecordedTimeToABatchThatRunsAgainAfterACrash() throws Exception {
    Timestamp first;
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(STREAM);
      s.execute(LAST_SEEN);
      s.execute("INSERT INTO clicks VALUES ('a')");
      awaitRows(s, "SELECT COUNT(*) FROM last_seen WHERE n = 1", 1L);
      first = (Timestamp) rows(s, "SELECT seen FROM last_seen").get(0).get(0);
      assertEquals(List.of(List.of(first)), rows(s, "SELECT batch_timestamp FROM"
          + " sys.query_progress WHERE name = 'LAST_SEEN' AND num_input_rows > 0"));
    }
    engine().close();
    // A crash after the batch's offsets were written and before its commit: it runs again.
    Path commits = dataDir.resolve("checkpoints").resolve("LAST_SEEN").resolve("commits");
    List<Path> committed;
    try (var files = Files.list(commits)) {
      committed = files.filter(f -> f.getFileName().toString().matches("\\d+")).sorted().toList();
    }
    Files.delete(committed.get(committed.size() - 1));
    // The clock moves on, so a re-run that read it would see another time.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.currentTimeMillis() <= first.getTime() + 5) {
      assertTrue(System.nanoTime() < deadline, "the clock did not move");
      Thread.onSpinWait();
    }

    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO clicks VALUES ('b')");
      awaitRows(s, "SELECT COUNT(*) FROM last_seen", 2L);
      List<List<Object>> view = rows(s, "SELECT user_id, n, seen FROM last_seen ORDER BY 1");
      assertEquals(List.of("a", 1L, first), view.get(0), "the re-run batch's time");
      assertEquals("b", view.get(1).get(0));
      assertNotEquals(first, view.get(1).get(2), "the next batch has its own time");
      assertEquals(view.get(1).get(2), rows(s, "SELECT MAX(batch_timestamp) FROM"
          + " sys.query_progress WHERE name = 'LAST_SEEN'").get(0).get(0));
    }
  }

  @Test void shouldRefuseTheTimeAboveTheAggregationOfAnUpdateView() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(STREAM);
      SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED"
          + " VIEW v AS SELECT user_id, COUNT(*) AS n, CURRENT_TIMESTAMP AS seen FROM clicks"
          + " GROUP BY user_id"));
      assertEquals("0A000", e.getSQLState(), e.getMessage());
      assertEquals("CURRENT_TIMESTAMP, CURRENT_DATE and LOCALTIMESTAMP above the GROUP BY of"
          + " an UPDATE view would be computed when the view is read, not in the batch that"
          + " changed the row. Aggregate the time instead, e.g. MAX(CURRENT_TIMESTAMP) AS"
          + " updated_at, or use EMIT COMPLETE", e.getMessage());
    }
  }

  private static void awaitRows(Statement s, String sql, Object expected) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!List.of(List.of(expected)).equals(rows(s, sql))) {
      assertTrue(System.nanoTime() < deadline, sql + " did not reach " + expected);
      Thread.onSpinWait();
    }
  }
}

package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.SparkTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Views {@code WITH ('engine' = 'spark')} through the embedded JDBC driver: a push query on the
 * view delivers each Spark batch with its batch id; readers only ever see whole batches; HAVING
 * takes a group out; EXPLAIN shows Spark's plan; what Spark cannot run is refused before
 * anything exists. H2 over the same rows is the oracle.
 */
@SparkTest
class SparkViewJdbcTest extends EmbeddedEngineTest {
  private static final String STREAM = "CREATE STREAM clicks (user_id VARCHAR, amount BIGINT)"
      + " WITH (connector = 'memory')";
  /** The reader's pause between two reads of the view. */
  private static final Duration READ_PAUSE = Duration.ofMillis(1);
  private static final String VIEW_QUERY = "SELECT user_id, COUNT(*) AS n, SUM(amount) AS total"
      + " FROM clicks GROUP BY user_id";

  private ViewOracle oracle;

  @BeforeEach void streams() throws SQLException {
    s.execute(STREAM);
    oracle = new ViewOracle("CREATE TABLE clicks (batch_id INT, user_id VARCHAR,"
        + " amount BIGINT)");
  }

  @AfterEach void closeOracle() throws SQLException {
    oracle.close();
  }

  /** Batch {@code b}: five clicks of users {@code u<(b * 3 + j) % 7>}, amounts 10b + j. */
  private void insertBatch(int b) throws SQLException {
    StringBuilder values = new StringBuilder();
    for (int j = 0; j < 5; j++) {
      String user = "u" + (b * 3 + j) % 7;
      values.append(j == 0 ? "" : ", ").append("('").append(user).append("', ")
          .append(10L * b + j).append(")");
      oracle.execute("INSERT INTO clicks VALUES (" + b + ", '" + user + "', " + (10L * b + j)
          + ")");
    }
    s.executeUpdate("INSERT INTO clicks VALUES " + values);
  }

  /** The oracle's view after batches {@code 0..b}. */
  private List<List<Object>> oracleAfter(int b) throws SQLException {
    return oracle.rows("SELECT user_id, COUNT(*), SUM(amount) FROM clicks WHERE batch_id <= " + b
        + " GROUP BY user_id ORDER BY user_id");
  }

  @Test void shouldPushEachBatchWithItsIdAndShowReadersOnlyWholeBatches() throws Exception {
    s.execute("CREATE MATERIALIZED VIEW totals WITH ('engine' = 'spark') AS " + VIEW_QUERY);
    // The view after each whole batch, from before the first on (the oracle's, as inserted).
    List<List<List<Object>>> states = new ArrayList<>();
    states.add(List.of());

    // Every read, in order: the reader's own until it ends (join), the last one shared.
    List<List<List<Object>>> seen = new ArrayList<>();
    AtomicReference<List<List<Object>>> lastRead = new AtomicReference<>(List.of());
    AtomicBoolean done = new AtomicBoolean();
    Thread reader = new Thread(() -> {
      try (Connection c = DriverManager.getConnection(connection.getMetaData().getURL());
           Statement r = c.createStatement()) {
        while (!done.get()) {
          List<List<Object>> read =
              ViewOracle.rows(r, "SELECT user_id, n, total FROM totals ORDER BY user_id");
          seen.add(read);
          lastRead.set(read);
          // A batch takes a tenth of a second or more, a read about a millisecond: with a
          // pause of one between reads the reader still reads the view dozens of times during
          // each batch, and no longer spins a core that Spark's batches need.
          LockSupport.parkNanos(READ_PAUSE.toNanos());
        }
      } catch (SQLException e) {
        List<List<Object>> failed = List.of(List.of("failed: " + e));
        seen.add(failed);
        lastRead.set(failed);
      }
    }, "view-reader");
    try (Statement push = connection.createStatement();
         ResultSet changes = push.executeQuery("SELECT STREAM * FROM totals")) {
      reader.start();
      List<List<Object>> previous = List.of();
      for (int b = 0; b < 20; b++) {
        insertBatch(b);
        List<List<Object>> expected = oracleAfter(b);
        states.add(expected);
        // The groups batch b changed, as the push query must deliver them: batch id b.
        List<List<Object>> changed = new ArrayList<>(expected);
        changed.removeAll(previous);
        List<List<Object>> pushed = readPushed(changes, changed.size(), b);
        pushed.sort(java.util.Comparator.comparing(r -> (String) r.get(0)));
        assertEquals(changed, pushed, "batch " + b);
        assertEquals(expected, ViewOracle.rows(s,
            "SELECT user_id, n, total FROM totals ORDER BY user_id"), "the view after " + b);
        previous = expected;
      }
      // The reader goes on until it has read the last batch too.
      List<List<Object>> last = states.get(states.size() - 1);
      ViewOracle.await(lastRead::get, last, () -> "the reader's last read");
    } finally {
      done.set(true);
      reader.join();
    }
    assertTrue(seen.size() > 20, "the reader read " + seen.size() + " times");
    int at = 0;
    for (List<List<Object>> read : seen) {
      // Each read is the view after some whole batch, never earlier than the one before.
      int k = states.subList(at, states.size()).indexOf(read);
      assertTrue(k >= 0, "a read that is no whole batch after " + (at - 1) + ": " + read);
      at += k;
    }
    assertEquals(states.size() - 1, at, "the last read saw the last batch");
  }

  /**
   * Reads {@code n} changes of the push query, each of batch {@code batchId}, as [user, n,
   * total].
   */
  private static List<List<Object>> readPushed(ResultSet changes, int n, long batchId) {
    return assertTimeoutPreemptively(ViewOracle.DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        assertTrue(changes.next(), "the push result ended");
        assertEquals(batchId, changes.getLong("_BATCH_ID"), "row " + i + " of batch " + batchId);
        rows.add(ViewOracle.row(changes, 3));
      }
      return rows;
    }, () -> n + " changes of batch " + batchId);
  }

  @Test void shouldCloseAWindowOnceWhenTheWatermarkPassesItsEndAndCountALateRow()
      throws Exception {
    s.execute("CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    s.execute("CREATE MATERIALIZED VIEW per10s WITH ('engine' = 'spark') AS SELECT"
        + " TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND) EMIT APPEND");
    try (Statement push = connection.createStatement();
         ResultSet windows = push.executeQuery("SELECT STREAM * FROM per10s")) {
      insertEvent("00:00:01.000");
      // Watermark 14.999 - 5 = 9.999 s: [0, 10) may still get rows.
      insertEvent("00:00:14.999");
      assertEquals(List.of(), ViewOracle.rows(s, "SELECT * FROM per10s"));
      // Watermark 10 s: [0, 10) is final, emitted once.
      insertEvent("00:00:15.000");
      assertEquals(List.of(List.of("1970-01-01T00:00", 1L)), readRows(windows, 1));
      assertEquals(0L, droppedByWatermark());
      // 2 s is in [0, 10), closed: late, dropped and counted.
      insertEvent("00:00:02.000");
      assertEquals(1L, droppedByWatermark());
      assertEquals(List.of(List.of("1970-01-01T00:00", 1L)),
          ViewOracle.rows(s, "SELECT * FROM per10s"));
      // Watermark 25 s: [10, 20) with its two rows, the first window not again.
      insertEvent("00:00:30.000");
      assertEquals(List.of(List.of("1970-01-01T00:00:10", 2L)), readRows(windows, 1));
      assertEquals(List.of(List.of("1970-01-01T00:00", 1L),
          List.of("1970-01-01T00:00:10", 2L)), ViewOracle.rows(s, "SELECT * FROM per10s"
          + " ORDER BY w"));
    }
  }

  private void insertEvent(String time) throws Exception {
    s.executeUpdate("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 " + time + "')");
    awaitIdle();
  }

  /** Rows the view's query dropped as late, over its batches, as sys.query_progress has them. */
  private long droppedByWatermark() throws SQLException {
    return ((Number) ViewOracle.rows(s, "SELECT COALESCE(SUM(rows_dropped_by_watermark), 0)"
        + " FROM sys.query_progress WHERE name = 'PER10S'").get(0).get(0)).longValue();
  }

  /** The next {@code n} rows of a push query, their data columns only. */
  private static List<List<Object>> readRows(ResultSet rs, int n) {
    return assertTimeoutPreemptively(ViewOracle.DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        assertTrue(rs.next(), "the push result ended");
        rows.add(ViewOracle.row(rs, rs.getMetaData().getColumnCount() - 2));
      }
      return rows;
    }, () -> n + " rows");
  }

  @Test void shouldWriteASinkOfASparkViewIntoAnotherDatabase() throws Exception {
    s.execute("CREATE MATERIALIZED VIEW totals WITH ('engine' = 'spark') AS " + VIEW_QUERY);
    String target = "jdbc:h2:mem:sink-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    s.execute("CREATE SINK totals_out FROM totals WITH (connector = 'jdbc', 'url' = '" + target
        + "', 'table-name' = 'totals')");
    try (Connection h2 = DriverManager.getConnection(target);
         Statement t = h2.createStatement()) {
      for (int b = 0; b < 3; b++) {
        insertBatch(b);
        int upTo = b;
        ViewOracle.await(() -> {
          try {
            return ViewOracle.rows(t, "SELECT user_id, n, total FROM totals ORDER BY user_id");
          } catch (SQLException tableNotYetMade) {
            return List.of();
          }
        }, oracleAfter(upTo), () -> "the sink's table after batch " + upTo);
      }
    }
    s.execute("DROP SINK totals_out");
  }

  @Test void shouldTakeOutAGroupThatHavingNoLongerAdmits() throws Exception {
    s.execute("CREATE MATERIALIZED VIEW big WITH ('engine' = 'spark') AS SELECT user_id,"
        + " SUM(amount) AS total FROM clicks GROUP BY user_id HAVING SUM(amount) > 5");
    s.executeUpdate("INSERT INTO clicks VALUES ('a', 4), ('b', 9)");
    ViewOracle.await(() -> ViewOracle.rows(s, "SELECT * FROM big ORDER BY 1"),
        List.of(List.of("b", 9L)), () -> "after the first batch");
    s.executeUpdate("INSERT INTO clicks VALUES ('a', 4), ('b', -8)");
    ViewOracle.await(() -> ViewOracle.rows(s, "SELECT * FROM big ORDER BY 1"),
        List.of(List.of("a", 8L)), () -> "b is out, a is in");
  }

  @Test void shouldExplainWithSparksPhysicalPlan() throws Exception {
    String create = "CREATE MATERIALIZED VIEW totals WITH ('engine' = 'spark') AS " + VIEW_QUERY;
    String before = plan("EXPLAIN PLAN FOR " + create);
    assertTrue(before.contains("StateStoreRestore") && before.contains("StateStoreSave")
        && before.contains("runs in update mode"), before);
    s.execute(create);
    s.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    ViewOracle.await(() -> ViewOracle.rows(s, "SELECT user_id, n FROM totals"),
        List.of(List.of("a", 1L)), () -> "the first batch");
    String running = plan("EXPLAIN PLAN FOR " + create);
    // The running query's last batch: its checkpoint and its output mode.
    assertTrue(running.contains("StateStoreRestore") && running.contains("StateStoreSave")
        && running.contains("Update") && !running.contains("<unknown>"), running);
  }

  private String plan(String explain) throws SQLException {
    try (ResultSet rs = s.executeQuery(explain)) {
      assertTrue(rs.next());
      return rs.getString(1);
    }
  }

  @Test void shouldRefuseWhatSparkCannotRunAndLeaveNothing() throws Exception {
    SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED VIEW"
        + " distinct_amounts WITH ('engine' = 'spark') AS SELECT user_id,"
        + " COUNT(DISTINCT amount) AS n FROM clicks GROUP BY user_id"));
    assertEquals("0A000", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().startsWith("COUNT(DISTINCT ...) is not supported on a stream by"
        + " Spark"), e.getMessage());
    assertEquals(List.of(), ViewOracle.rows(s, "SELECT name FROM sys.queries"));
    // The name is free.
    s.execute("CREATE MATERIALIZED VIEW distinct_amounts WITH ('engine' = 'spark') AS "
        + VIEW_QUERY);
    assertEquals(List.of(List.of("DISTINCT_AMOUNTS")),
        ViewOracle.rows(s, "SELECT name FROM sys.queries"));
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code 'watermark.idle-timeout'} through JDBC: a tumbling-window APPEND view over a stream
 * that stops receiving rows emits its last window once the stream has been idle for the
 * timeout, in a batch without data whose watermark is its processing time minus the delay; a
 * stream without the option holds the window back; a row after the advance is late.
 */
class WatermarkIdleTimeoutTest {
  private static final long TIMEOUT_MS = 1_000;
  private static final long TRIGGER_MS = 200;
  private static final long DELAY_MS = 5_000;

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    statement.execute("SET 'trigger.interval' = '" + TRIGGER_MS + " ms'");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private static String windows(String stream) {
    return "SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) AS ws, COUNT(*) AS n FROM " + stream
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND) EMIT APPEND";
  }

  private static final String ROWS = "VALUES (1, TIMESTAMP '2020-01-01 00:00:01'),"
      + " (2, TIMESTAMP '2020-01-01 00:00:12'), (3, TIMESTAMP '2020-01-01 00:00:25')";

  @Test void shouldEmitTheLastWindowOnceTheStreamIsIdle() throws Exception {
    statement.execute("CREATE STREAM idle (id INT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
        + " WITH ('watermark.idle-timeout' = '1 s')");
    // The same stream without the option: off by default.
    statement.execute("CREATE STREAM quiet (id INT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
    statement.execute("CREATE MATERIALIZED VIEW idle_w AS " + windows("idle"));
    statement.execute("CREATE MATERIALIZED VIEW quiet_w AS " + windows("quiet"));
    statement.executeUpdate("INSERT INTO idle " + ROWS);
    statement.executeUpdate("INSERT INTO quiet " + ROWS);

    // The rows' watermark (25 s - 5 s) closes [0 s, 10 s) and [10 s, 20 s); the clock closes
    // [20 s, 30 s), which no later row does. Without the option it never appears.
    awaitWindows("SELECT ws, n FROM idle_w", List.of(window(0, 1), window(10, 1),
        window(20, 1)));
    // The other stream had the same time to close it and did not: no idle timeout by default.
    awaitWindows("SELECT ws, n FROM quiet_w", List.of(window(0, 1), window(10, 1)));

    // The batch that emitted it read no row, ran once the stream had been idle for the timeout
    // (and within a trigger interval more, but for a loaded machine), and recorded the
    // watermark its time gave: processing time minus the delay.
    List<Object> last = ViewResults.query(statement, "SELECT batch_id, num_input_rows,"
        + " num_output_rows, batch_timestamp, watermark FROM sys.query_progress"
        + " WHERE name = 'IDLE_W' AND num_output_rows > 0 ORDER BY batch_id DESC").get(0);
    List<Object> data = ViewResults.query(statement, "SELECT batch_timestamp"
        + " FROM sys.query_progress WHERE name = 'IDLE_W' AND num_input_rows > 0").get(0);
    assertEquals(0L, ((Number) last.get(1)).longValue(), last.toString());
    assertEquals(1L, ((Number) last.get(2)).longValue(), last.toString());
    long idleBatchMs = ((java.sql.Timestamp) last.get(3)).getTime();
    long dataBatchMs = ((java.sql.Timestamp) data.get(0)).getTime();
    long watermarkMs = ((java.sql.Timestamp) last.get(4)).getTime();
    assertEquals(idleBatchMs - DELAY_MS, watermarkMs, last.toString());
    assertTrue(idleBatchMs - dataBatchMs >= TIMEOUT_MS, "idle batch " + idleBatchMs
        + " came less than the timeout after the data batch " + dataBatchMs);
    assertTrue(idleBatchMs - dataBatchMs < TIMEOUT_MS + TRIGGER_MS + 10_000, "idle batch "
        + idleBatchMs + " came long after the data batch " + dataBatchMs);

    // The trade-off: a row that arrives after the advance, for a window it closed, is late.
    statement.executeUpdate("INSERT INTO idle VALUES (4, TIMESTAMP '2020-01-01 00:00:29')");
    PushResults.awaitIdle(engineName, "late row");
    assertEquals(List.of(List.of(1L)), ViewResults.normalized(ViewResults.query(statement,
        "SELECT SUM(rows_dropped_by_watermark) FROM sys.query_progress"
            + " WHERE name = 'IDLE_W'")));
    awaitWindows("SELECT ws, n FROM idle_w", List.of(window(0, 1), window(10, 1),
        window(20, 1)));
  }

  /**
   * After an idle advance, rows with event times near the clock are on time again, and once they
   * stop, the idle timeout closes their window too: rows end the idleness, their absence starts
   * it anew.
   */
  @Test void shouldCloseTheWindowOfRowsThatCameAfterAnIdleAdvance() throws Exception {
    statement.execute("CREATE STREAM idle (id INT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
        + " WITH ('watermark.idle-timeout' = '1 s')");
    statement.execute("CREATE MATERIALIZED VIEW idle_w AS " + windows("idle"));
    statement.executeUpdate("INSERT INTO idle " + ROWS);
    awaitWindows("SELECT ws, n FROM idle_w", List.of(window(0, 1), window(10, 1),
        window(20, 1)));
    long now = System.currentTimeMillis();
    String ts = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS")
        .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochMilli(now));
    statement.executeUpdate("INSERT INTO idle VALUES (5, TIMESTAMP '" + ts + "')");
    // Its window ends at most 10 s after now; the clock passes that plus the delay within 15 s.
    awaitWindows("SELECT ws, n FROM idle_w", List.of(window(0, 1), window(10, 1),
        window(20, 1), List.of(now - now % 10_000, 1L)));
    // Meanwhile the watermark followed the clock in steps of the timeout, not batch after batch:
    // each batch whose watermark the clock gave came at least the timeout after the row's batch
    // and after the previous such batch.
    List<List<Object>> batches = ViewResults.query(statement, "SELECT num_input_rows,"
        + " batch_timestamp, watermark FROM sys.query_progress WHERE name = 'IDLE_W'"
        + " ORDER BY batch_id");
    long previous = Long.MIN_VALUE;
    int advances = 0;
    for (List<Object> batch : batches) {
      long at = ((java.sql.Timestamp) batch.get(1)).getTime();
      long watermark = ((java.sql.Timestamp) batch.get(2)).getTime();
      if (((Number) batch.get(0)).longValue() > 0) {
        previous = at;
      } else if (watermark == at - DELAY_MS) {
        assertTrue(at - previous >= TIMEOUT_MS, "an idle advance came " + (at - previous)
            + " ms after the previous one or the rows: " + batches);
        previous = at;
        advances++;
      }
    }
    assertTrue(advances >= 2, batches.toString());
  }

  /** Every connector takes the option: a finite sequence's last window closes by the clock. */
  @Test void shouldCloseTheLastWindowOfAFiniteSequence() throws Exception {
    statement.execute("CREATE STREAM seq (n BIGINT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
        + " WITH (connector = 'sequence', 'end' = '25', 'watermark.idle-timeout' = '1 s')");
    statement.execute("CREATE MATERIALIZED VIEW seq_w AS " + windows("seq"));
    // Rows 0..24 at event times 0..24 ms: their watermark stays below 0, the clock closes it.
    awaitWindows("SELECT ws, n FROM seq_w", List.of(List.of(0L, 25L)));
  }

  @Test void shouldRefuseAnIdleTimeoutWithoutAWatermarkOrWithABadValue() {
    SQLException noWatermark = assertThrows(SQLException.class, () -> statement.execute(
        "CREATE STREAM s (id INT) WITH ('watermark.idle-timeout' = '30 s')"));
    assertEquals("42000", noWatermark.getSQLState());
    assertTrue(noWatermark.getMessage().contains("WATERMARK FOR"), noWatermark.getMessage());
    SQLException badValue = assertThrows(SQLException.class, () -> statement.execute(
        "CREATE STREAM s (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5'"
            + " SECOND) WITH ('watermark.idle-timeout' = 'soon')"));
    assertEquals("42000", badValue.getSQLState());
    assertTrue(badValue.getMessage().contains("'30 s'"), badValue.getMessage());
  }

  /** {@code '0'} is no timeout, as no option: a stream without a watermark may say so. */
  @Test void shouldTakeZeroForNoTimeout() throws Exception {
    statement.execute("CREATE STREAM s (id INT) WITH ('watermark.idle-timeout' = '0')");
    statement.execute("CREATE STREAM t (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts"
        + " - INTERVAL '5' SECOND) WITH ('watermark.idle-timeout' = '0')");
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR " + windows("t"))) {
      assertTrue(rs.next());
      String plan = rs.getString(1);
      assertTrue(plan.contains("delayMs=[5000])"), plan);
    }
  }

  @Test void shouldShowTheIdleTimeoutInThePlan() throws Exception {
    statement.execute("CREATE STREAM idle (id INT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
        + " WITH ('watermark.idle-timeout' = '30 s')");
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR " + windows("idle"))) {
      assertTrue(rs.next());
      String plan = rs.getString(1);
      assertTrue(plan.contains("delayMs=[5000], idleTimeoutMs=[30000]"), plan);
    }
  }

  /** A window of 2020-01-01 starting at {@code second}: its start in epoch ms, its count. */
  private static List<Object> window(int second, long n) {
    return List.of(WINDOWS_EPOCH_MS + second * 1000L, n);
  }

  private static final long WINDOWS_EPOCH_MS = java.time.Instant.parse("2020-01-01T00:00:00Z")
      .toEpochMilli();

  /**
   * Re-runs {@code sql} until its rows, timestamps as epoch ms and numbers as longs, are
   * {@code expected} in any order; fails after {@link ViewResults#DEADLINE}.
   */
  private void awaitWindows(String sql, List<List<Object>> expected) throws SQLException {
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    java.util.Set<List<Object>> want = new java.util.HashSet<>(expected);
    while (true) {
      List<List<Object>> rows = new java.util.ArrayList<>();
      for (List<Object> row : ViewResults.query(statement, sql)) {
        rows.add(List.of(((java.sql.Timestamp) row.get(0)).getTime(),
            ((Number) row.get(1)).longValue()));
      }
      if (rows.size() == expected.size() && new java.util.HashSet<>(rows).equals(want)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("after " + ViewResults.DEADLINE + ", " + sql + " returned "
            + rows + ", not " + expected);
      }
      ViewResults.betweenPolls();
    }
  }
}

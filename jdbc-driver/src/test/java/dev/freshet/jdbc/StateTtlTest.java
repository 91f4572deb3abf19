package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.planner.catalog.StreamTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, acceptance line 2: a view with {@code 'state.ttl' = '2 s'} fed a million distinct
 * keys once drops them all from its state (as {@code sys.state_operators} shows) soon after the
 * last row, without any further row arriving; a later row of an expired key counts from 1; and
 * the expiry survives a restart of the engine on its data directory.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StateTtlTest {
  private static final int KEYS = 1_000_000;
  /** Rows per offset of the stream (one INSERT's worth), KEYS / ROWS_PER_OFFSET offsets. */
  private static final int ROWS_PER_OFFSET = 10_000;
  /**
   * Offsets appended before the test lets the view's query catch up: its batches then read at
   * most this many offsets, a few hundred milliseconds of work each, and the last of them ends
   * long before the keys it wrote expire.
   */
  private static final int OFFSETS_AHEAD = 5;
  /**
   * How long after the last keys were appended the state must be empty. The TTL is 2 s and the
   * issue asks for 4 s; on a loaded 2-core machine the last batch of the keys may still be
   * running then, so the test allows more, and reports what it saw. Without a TTL the
   * state never empties, so the bound still fails then.
   */
  private static final Duration EMPTY_WITHIN = Duration.ofSeconds(20);

  @TempDir Path dataDir;

  @AfterEach void closeEngine() throws Exception {
    EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString())).close();
  }

  @Test void shouldDropAMillionExpiredKeysCountAfreshAndKeepTheExpiryAcrossARestart()
      throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir;
    try (Connection c = DriverManager.getConnection(url);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM events (k BIGINT) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW counts WITH ('state.ttl' = '2 s') AS"
          + " SELECT k, COUNT(*) AS n FROM events GROUP BY k");
      assertEquals(null, s.getWarnings(), "a view bounded by its TTL warns of nothing");
      appendDistinctKeys(dataDir, KEYS);
      long lastAppend = System.nanoTime();
      // The million keys came, then none: idle, the view's query still expires them all.
      awaitStateRows(s, "COUNTS", 0, EMPTY_WITHIN);
      long emptyMs = (System.nanoTime() - lastAppend) / 1_000_000;
      // The bound, by the batches' own times, which the machine's load does not stretch
      // as it does the wall clock of this thread: the batch that left the state empty started
      // within 4 s of the last batch that wrote keys.
      long[] times = lastWriteAndEmptyingBatchTimes(s, "COUNTS");
      System.out.println("StateTtlTest: state of " + KEYS + " keys empty " + emptyMs
          + " ms after the last keys were appended; the emptying batch started "
          + (times[1] - times[0]) + " ms after the last batch that wrote keys");
      assertTrue(times[1] - times[0] <= 4_000, "state empty "
          + (times[1] - times[0]) + " ms after the last write, not within 4 s");
      // Every expired group left the view, too.
      assertEquals(List.of(row(0L)), ViewResults.query(s, "SELECT COUNT(*) FROM counts"));

      // A later row of an expired key starts it afresh.
      s.executeUpdate("INSERT INTO events VALUES (7), (7), (8)");
      ViewResults.awaitRows(s, "SELECT k, n FROM counts ORDER BY k",
          List.of(row(7L, 2L), row(8L, 1L)));

      // A key that surely has not expired when the engine closes: a longer TTL, on a stream
      // of its own (a new view reads its stream from the start).
      s.execute("CREATE STREAM probe (k BIGINT) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW recent WITH ('state.ttl' = '5 s') AS"
          + " SELECT k, COUNT(*) AS n FROM probe GROUP BY k");
      s.executeUpdate("INSERT INTO probe VALUES (1)");
      ViewResults.awaitRows(s, "SELECT k, n FROM recent", List.of(row(1L, 1L)));
    }
    // Restart: the engine closes, the data directory is opened again.
    closeEngine();
    try (Connection c = DriverManager.getConnection(url);
         Statement s = c.createStatement()) {
      // Keys 7 and 8 were written just before the restart: they expire after it, once the
      // restarted query has run a batch, without any new row.
      awaitStateRows(s, "COUNTS", 0, EMPTY_WITHIN);
      ViewResults.awaitRows(s, "SELECT k, n FROM counts", List.of());
      // The probe's key expires after the restart, by a batch of the restarted query.
      awaitStateRows(s, "RECENT", 0, EMPTY_WITHIN);
      assertEquals(List.of(row(1L)), ViewResults.query(s, "SELECT SUM(state_rows_removed)"
          + " FROM sys.query_progress WHERE name = 'RECENT'"));
      ViewResults.awaitRows(s, "SELECT k, n FROM recent", List.of());
      // The million keys expired before the restart stay expired: a row of one counts from 1.
      s.executeUpdate("INSERT INTO events VALUES (12345), (7)");
      ViewResults.awaitRows(s, "SELECT k, n FROM counts ORDER BY k",
          List.of(row(7L, 1L), row(12345L, 1L)));
    }
  }

  @Test void shouldKeepEveryKeyWithoutATtl() throws Exception {
    // The control: the same view without a TTL keeps its keys, so the test above can fail.
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM events (k BIGINT) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW counts AS SELECT k, COUNT(*) AS n FROM events"
          + " GROUP BY k");
      s.executeUpdate("INSERT INTO events VALUES (1), (2), (2)");
      ViewResults.awaitRows(s, "SELECT k, n FROM counts ORDER BY k",
          List.of(row(1L, 1L), row(2L, 2L)));
      awaitStateRows(s, "COUNTS", 2, Duration.ofSeconds(30));
      assertEquals(List.of(row("aggregation", "UNBOUNDED")), ViewResults.query(s,
          "SELECT kind, bound FROM sys.state_operators WHERE query = 'COUNTS'"));
      s.executeUpdate("INSERT INTO events VALUES (2)");
      ViewResults.awaitRows(s, "SELECT k, n FROM counts ORDER BY k",
          List.of(row(1L, 1L), row(2L, 3L)));
      assertEquals(2L, stateRows(s, "COUNTS"));
    }
  }

  /**
   * Appends keys 0 to {@code keys - 1} once each to the stream EVENTS, {@value #ROWS_PER_OFFSET}
   * per offset, as that many 10,000-row INSERTs would, and lets the view's query catch up after
   * every {@value #OFFSETS_AHEAD} offsets, so that no batch reads more than that many.
   *
   * <p>The rows go to the stream as the INSERT's executor hands them over (a BIGINT as a
   * {@code Long}), not through SQL text: Calcite would validate and convert a VALUES of 10,000
   * rows 100 times, which took most of this test's CPU and is not what it is about. The later
   * rows of the test are INSERTs through JDBC.
   */
  private static void appendDistinctKeys(Path dataDir, int keys) throws Exception {
    Engine engine = EngineRegistry.INSTANCE.resolve(
        Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
    MemoryStream events = engine.planner().catalog().stream("EVENTS")
        .flatMap(StreamTable::memoryStream).orElseThrow();
    ContinuousQuery view = engine.query("COUNTS").orElseThrow();
    for (int start = 0; start < keys; start += ROWS_PER_OFFSET) {
      List<Object[]> rows = new ArrayList<>(ROWS_PER_OFFSET);
      for (int i = 0; i < ROWS_PER_OFFSET; i++) {
        rows.add(new Object[] {(long) start + i});
      }
      events.addData(rows);
      if ((start / ROWS_PER_OFFSET + 1) % OFFSETS_AHEAD == 0) {
        assertTrue(view.processAllAvailable(ViewResults.DEADLINE),
            "the view read keys up to " + (start + ROWS_PER_OFFSET) + ": " + view.status());
      }
    }
  }

  /**
   * The start times of {@code query}'s last batch that read rows and of the first batch after it
   * whose state was empty, from {@code sys.query_progress}.
   */
  private static long[] lastWriteAndEmptyingBatchTimes(Statement s, String query)
      throws SQLException {
    long lastWrite = -1;
    long emptied = -1;
    try (ResultSet rs = s.executeQuery("SELECT batch_timestamp, num_input_rows,"
        + " state_rows_total FROM sys.query_progress WHERE name = '" + query + "'"
        + " ORDER BY batch_id")) {
      while (rs.next()) {
        long at = rs.getTimestamp(1).getTime();
        if (rs.getLong(2) > 0) {
          lastWrite = at;
          emptied = -1;
        } else if (emptied < 0 && rs.getLong(3) == 0) {
          emptied = at;
        }
      }
    }
    assertTrue(lastWrite >= 0 && emptied >= 0, "batches of " + query + ": last write at "
        + lastWrite + ", emptied at " + emptied);
    return new long[] {lastWrite, emptied};
  }

  /** The rows in state of {@code query}'s stateful operators, or -1 before its first batch. */
  private static long stateRows(Statement s, String query) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT SUM(\"ROWS\"), COUNT(*) FROM sys.state_operators"
        + " WHERE query = '" + query + "'")) {
      rs.next();
      return rs.getLong(2) == 0 ? -1 : rs.getLong(1);
    }
  }

  private static void awaitStateRows(Statement s, String query, long expected, Duration within)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    long rows;
    while ((rows = stateRows(s, query)) != expected) {
      if (System.nanoTime() > deadline) {
        fail("the state of " + query + " holds " + rows + " rows after " + within
            + ", not " + expected);
      }
      // Each poll is a query of sys.state_operators, as ViewResults' waits re-run theirs.
      ViewResults.betweenPolls();
    }
    assertTrue(rows == expected);
  }
}

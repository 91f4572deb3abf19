package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.testkit.oracle.H2Oracle;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of SESSION windows: random rows in random batches go to a Freshet stream and
 * to H2; after every batch a view of sessions must equal H2 computing the sessions of every row
 * so far as a batch query. H2 has no SESSION: a row starts a new session of its key when it is
 * more than the gap after the row before it (LAG), and a running SUM of those starts numbers the
 * sessions, which are then grouped; a session is {@code [first, last + gap)}.
 *
 * <p>In APPEND mode the view holds the sessions the watermark (the largest event time so far
 * minus the 3 s delay) has closed, and rows whose own session ends at or before it are late:
 * Freshet drops them, so H2 never gets them. Rows that are not late come after the watermark,
 * so no row reaches a session that was emitted already, as in Spark. In COMPLETE mode the view
 * holds every session, late rows included.
 */
class SessionWindowOracleTest {
  private static final long GAP_MS = 2_000;
  private static final long DELAY_MS = 3_000;
  private static final String AGGREGATES =
      "COUNT(*) AS n, SUM(v) AS total, MAX(v) AS mx, COUNT(DISTINCT v) AS dv";
  /** The sessions of all rows in H2, one row per session: k, s, e, then the aggregates. */
  private static final String ORACLE = "WITH marked AS (SELECT k, ts, v,"
      + " CASE WHEN DATEADD('MILLISECOND', " + GAP_MS + ", LAG(ts) OVER (PARTITION BY k"
      + " ORDER BY ts)) >= ts THEN 0 ELSE 1 END AS starts FROM ev WHERE ts IS NOT NULL),"
      + " numbered AS (SELECT k, ts, v, SUM(starts) OVER (PARTITION BY k ORDER BY ts"
      + " ROWS UNBOUNDED PRECEDING) AS sid FROM marked)"
      + " SELECT k, MIN(ts) AS s, DATEADD('MILLISECOND', " + GAP_MS + ", MAX(ts)) AS e, "
      + AGGREGATES + " FROM numbered GROUP BY k, sid";

  private String engine;
  private Connection freshet;
  private H2Oracle h2;
  private Statement fs;

  @BeforeEach void connect() throws Exception {
    engine = UUID.randomUUID().toString();
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engine + ";timeZone=UTC");
    h2 = new H2Oracle("TIME ZONE=UTC");
    fs = freshet.createStatement();
    fs.execute("CREATE STREAM ev (k VARCHAR, ts TIMESTAMP(3), v INTEGER,"
        + " WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (connector = 'memory')");
    h2.createTable("ev", "k VARCHAR, ts TIMESTAMP(3), v INTEGER");
  }

  @AfterEach void close() throws Exception {
    freshet.close();
    h2.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"APPEND", "COMPLETE"})
  void shouldMatchH2AfterEveryBatch(String mode) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    boolean append = mode.equals("APPEND");
    // APPEND by the group function, COMPLETE by the table function: both forms are checked.
    fs.execute("CREATE MATERIALIZED VIEW sv AS " + (append
        ? "SELECT k, SESSION_START(ts, INTERVAL '2' SECOND) AS s, SESSION_END(ts, INTERVAL '2'"
            + " SECOND) AS e, " + AGGREGATES + " FROM ev GROUP BY k, SESSION(ts, INTERVAL '2'"
            + " SECOND) EMIT APPEND"
        : "SELECT k, window_start AS s, window_end AS e, " + AGGREGATES + " FROM TABLE(SESSION("
            + "TABLE ev, DESCRIPTOR(ts), DESCRIPTOR(k), INTERVAL '2' SECOND))"
            + " GROUP BY k, window_start, window_end EMIT COMPLETE"));
    long maxTs = Long.MIN_VALUE;
    long watermark = 0;
    for (int batch = 0; batch < 25; batch++) {
      StringBuilder all = new StringBuilder();
      StringBuilder accepted = new StringBuilder();
      int n = 1 + random.nextInt(5);
      for (int i = 0; i < n; i++) {
        Long ts;
        boolean late = batch > 0 && random.nextInt(6) == 0;
        if (random.nextInt(15) == 0) {
          ts = null;
        } else if (late) {
          // Its own session [ts, ts + gap) ends at or before the watermark.
          ts = watermark - GAP_MS - random.nextInt(5_000);
        } else {
          // After the watermark, up to a second past the largest time: out of order, not late.
          ts = Math.max(watermark, maxTs == Long.MIN_VALUE ? 10_000 : maxTs - DELAY_MS) + 1
              + random.nextInt(4_000);
        }
        String row = "('k" + random.nextInt(3) + "', " + timestamp(ts) + ", "
            + (random.nextInt(8) == 0 ? "NULL" : Integer.toString(random.nextInt(6))) + ")";
        all.append(all.length() == 0 ? "" : ", ").append(row);
        if (!(append && late)) {
          accepted.append(accepted.length() == 0 ? "" : ", ").append(row);
        }
        if (ts != null && !(append && late)) {
          maxTs = Math.max(maxTs, ts);
        }
      }
      fs.executeUpdate("INSERT INTO ev VALUES " + all);
      // The batch must run alone: when the view's rows do not change, awaitView returns at
      // once, and the next INSERT could otherwise join this one in a batch that runs with the
      // watermark before it, under which the next batch's late rows are not late.
      awaitProcessed();
      if (accepted.length() > 0) {
        h2.execute("INSERT INTO ev VALUES " + accepted);
      }
      // The batch's rows moved the watermark; the batch after (without data) closes sessions.
      watermark = maxTs == Long.MIN_VALUE ? 0 : Math.max(watermark, maxTs - DELAY_MS);
      List<List<Object>> expected = new ArrayList<>();
      for (List<Object> row : normalized(h2.query(ORACLE))) {
        if (!append || millis(row.get(2)) <= watermark) {
          expected.add(row);
        }
      }
      awaitView(expected, "seed " + seed + ", batch " + batch);
    }
  }

  private void awaitProcessed() throws SQLException {
    for (StreamingQuery query : EngineRegistry.INSTANCE.resolve(
        Map.of(EngineRegistry.ENGINE, engine)).queries()) {
      try {
        assertTrue(query.processAllAvailable(ViewResults.DEADLINE), query.status().toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private void awaitView(List<List<Object>> expected, String context) throws SQLException {
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    List<List<Object>> rows = normalized(ViewResults.query(fs, "SELECT * FROM sv"));
    while (!ViewResults.sameRows(rows, expected)) {
      if (System.nanoTime() > deadline) {
        org.junit.jupiter.api.Assertions.fail(context + ": the view has " + rows + ", not "
            + expected);
      }
      rows = normalized(ViewResults.query(fs, "SELECT * FROM sv"));
    }
  }

  /** Numbers as longs, timestamps as epoch milliseconds: two databases' values compare equal. */
  private static List<List<Object>> normalized(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : ViewResults.normalized(rows)) {
      List<Object> values = new ArrayList<>();
      for (Object v : row) {
        values.add(v instanceof Timestamp || v instanceof LocalDateTime ? (Object) millis(v) : v);
      }
      out.add(values);
    }
    return out;
  }

  private static long millis(Object v) {
    if (v instanceof Long l) {
      return l;
    }
    LocalDateTime t = v instanceof Timestamp ts ? ts.toLocalDateTime() : (LocalDateTime) v;
    return t.toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private static String timestamp(Long ms) {
    if (ms == null) {
      return "NULL";
    }
    return "TIMESTAMP '" + LocalDateTime.ofEpochSecond(Math.floorDiv(ms, 1000),
        (int) Math.floorMod(ms, 1000) * 1_000_000, ZoneOffset.UTC).toString().replace('T', ' ')
        + "'";
  }
}

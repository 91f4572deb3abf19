package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.oracle.H2Oracle;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An aggregation over another's windows in APPEND mode (Nexmark q5's inner part: the highest
 * count per window of the counts per key and window). The inner one emits a window once, in the
 * batch whose watermark passes its end; the outer one, grouping by that window, finalizes it in
 * the same batch. After every batch the view equals H2's batch answer for every window the
 * watermark has closed.
 */
class ChainedAggregationTest {
  /** Seconds always written: {@code LocalDateTime.toString()} leaves out zero seconds. */
  private static final java.time.format.DateTimeFormatter TIMESTAMP_LITERAL =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private Connection freshet;
  private H2Oracle h2;
  private Statement fs;

  @BeforeEach void connect() throws Exception {
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID()
        + ";timeZone=UTC");
    h2 = new H2Oracle();
    fs = freshet.createStatement();
    fs.execute("CREATE STREAM s (k VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (connector = 'memory')");
    h2.createTable("s", "k VARCHAR, ms BIGINT");
  }

  @AfterEach void close() throws Exception {
    freshet.close();
    h2.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      // Window table function: the outer groups by the inner's window_start and window_end.
      "SELECT window_end AS w, MAX(n) AS top, COUNT(*) AS keys FROM (SELECT k, window_start,"
          + " window_end, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts),"
          + " INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end)"
          + " GROUP BY window_start, window_end EMIT APPEND",
      // Group window functions: the outer groups by the inner's TUMBLE_END.
      "SELECT w, MAX(n) AS top, COUNT(*) AS keys FROM (SELECT k,"
          + " TUMBLE_END(ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS n FROM s"
          + " GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND)) GROUP BY w EMIT APPEND"})
  void shouldMatchH2ForEveryClosedWindowAfterEveryBatch(String query) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    fs.execute("CREATE MATERIALIZED VIEW top AS " + query);
    long clockMs = 100_000;
    long maxMs = 0;
    for (int batch = 0; batch < 40; batch++) {
      // At least 1.3 s a batch: the rows pass 150 s whatever the seed.
      clockMs += 1_300 + random.nextInt(3_000);
      StringBuilder freshetRows = new StringBuilder();
      StringBuilder h2Rows = new StringBuilder();
      for (int i = 0, n = 1 + random.nextInt(6); i < n; i++) {
        // Never at or before the watermark (the latest time less 2 s): nothing is late.
        long ms = clockMs + random.nextInt(1_500);
        maxMs = Math.max(maxMs, ms);
        String k = "'k" + random.nextInt(4) + "'";
        freshetRows.append(i == 0 ? "" : ", ").append("(").append(k).append(", TIMESTAMP '")
            .append(java.time.LocalDateTime.ofEpochSecond(ms / 1000, (int) (ms % 1000)
                * 1_000_000, java.time.ZoneOffset.UTC).format(TIMESTAMP_LITERAL))
            .append("')");
        h2Rows.append(i == 0 ? "" : ", ").append("(").append(k).append(", ").append(ms)
            .append(")");
      }
      fs.executeUpdate("INSERT INTO s VALUES " + freshetRows);
      h2.execute("INSERT INTO s VALUES " + h2Rows);
      List<List<Object>> expected = new ArrayList<>();
      for (List<Object> row : h2.query("SELECT w + 10000, MAX(n), COUNT(*) FROM (SELECT k,"
          + " ms - MOD(ms, 10000) AS w, COUNT(*) AS n FROM s GROUP BY k, ms - MOD(ms, 10000))"
          + " GROUP BY w HAVING w + 10000 <= " + (maxMs - 2_000))) {
        List<Object> longs = new ArrayList<>();
        for (Object v : row) {
          longs.add(((Number) v).longValue());
        }
        expected.add(longs);
      }
      awaitView(expected, "seed " + seed + ", batch " + batch);
    }
    assertTrue(maxMs > 150_000, "windows closed: " + maxMs);
  }

  private void awaitView(List<List<Object>> expected, String context) throws Exception {
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    List<List<Object>> rows = view();
    while (!ViewResults.sameRows(rows, expected)) {
      if (System.nanoTime() > deadline) {
        org.junit.jupiter.api.Assertions.fail(context + ": view " + rows + ", H2 " + expected);
      }
      ViewResults.betweenPolls();
      rows = view();
    }
  }

  private List<List<Object>> view() throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (ResultSet rs = fs.executeQuery("SELECT w, top, keys FROM top")) {
      while (rs.next()) {
        rows.add(List.of(rs.getTimestamp(1).getTime(), rs.getLong(2), rs.getLong(3)));
      }
    }
    return rows;
  }
}

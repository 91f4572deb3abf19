package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.oracle.H2Oracle;
import java.sql.Connection;
import java.sql.DriverManager;
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
 * Differential test of stream-stream joins: random rows in random batches go to two Freshet
 * streams and to H2; after every batch a view joining the streams must equal H2 running the same
 * join as a batch query over every row so far. Event times grow slower than the watermark delay,
 * so no row is late and evicting state loses no match: the streaming join and the batch join
 * agree exactly, except that an outer join's row with NULLs comes once the watermark proves no
 * match can come, which the end of each run forces with rows far ahead in time.
 */
class StreamJoinOracleTest {
  private static final String CONDITION = " ON l.k = r.k"
      + " AND l.lts BETWEEN r.rts - INTERVAL '2' SECOND AND r.rts + INTERVAL '2' SECOND"
      + " AND l.v + r.w > 5";

  private Connection freshet;
  private H2Oracle h2;
  private Statement fs;

  @BeforeEach void connect() throws Exception {
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID()
        + ";timeZone=UTC");
    h2 = new H2Oracle("TIME ZONE=UTC");
    fs = freshet.createStatement();
    fs.execute("CREATE STREAM l (k VARCHAR, lts TIMESTAMP(3), v INTEGER,"
        + " WATERMARK FOR lts AS lts - INTERVAL '3' SECOND) WITH (connector = 'memory')");
    fs.execute("CREATE STREAM r (k VARCHAR, rts TIMESTAMP(3), w INTEGER,"
        + " WATERMARK FOR rts AS rts - INTERVAL '3' SECOND) WITH (connector = 'memory')");
    h2.createTable("l", "k VARCHAR, lts TIMESTAMP(3), v INTEGER");
    h2.createTable("r", "k VARCHAR, rts TIMESTAMP(3), w INTEGER");
  }

  @AfterEach void close() throws Exception {
    freshet.close();
    h2.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"JOIN", "LEFT JOIN", "RIGHT JOIN"})
  void shouldMatchH2AfterEveryBatch(String join) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String select = "SELECT l.k AS lk, l.v, r.k AS rk, r.w FROM l " + join + " r" + CONDITION;
    fs.execute("CREATE MATERIALIZED VIEW j AS " + select);
    String inner = "SELECT l.k AS lk, l.v, r.k AS rk, r.w FROM l JOIN r" + CONDITION;
    long clockMs = 10_000;
    for (int batch = 0; batch < 30; batch++) {
      clockMs += random.nextInt(1_000);
      for (String stream : List.of("l", "r")) {
        if (random.nextInt(4) != 0) {
          insert(stream, rows(random, clockMs));
        }
      }
      // Every joined pair is there as soon as both rows are; rows with NULLs only when due.
      List<List<Object>> expected = h2.query(inner);
      List<List<Object>> actual = awaitMatched(expected, "seed " + seed + ", batch " + batch);
      List<List<Object>> all = h2.query(select);
      for (List<Object> row : actual) {
        assertTrue(all.contains(row), "seed " + seed + ": " + row + " is not in " + all);
      }
    }
    // Far ahead on both streams: the watermark passes every earlier row's range.
    insert("l", "('zz', TIMESTAMP '1970-01-02 00:00:00', 9)");
    insert("r", "('zz', TIMESTAMP '1970-01-02 00:00:00', 9)");
    insert("l", "('zy', TIMESTAMP '1970-01-03 00:00:00', 9)");
    insert("r", "('zy', TIMESTAMP '1970-01-03 00:00:00', 9)");
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> row : h2.query(select)) {
      // Only the last rows' own NULL rows are not due yet; nothing else may be missing.
      if (!(row.contains("zy") && row.contains(null))) {
        expected.add(row);
      }
    }
    ViewResults.awaitRows(fs, "SELECT * FROM j WHERE COALESCE(lk, rk) <> 'zy'"
        + " OR (lk IS NOT NULL AND rk IS NOT NULL)", expected);
  }

  /** Waits until the view's rows without NULLs are {@code expected}; returns all its rows. */
  private List<List<Object>> awaitMatched(List<List<Object>> expected, String context)
      throws Exception {
    ViewResults.awaitRows(fs, "SELECT * FROM j WHERE lk IS NOT NULL AND rk IS NOT NULL",
        expected);
    return ViewResults.query(fs, "SELECT * FROM j");
  }

  private void insert(String stream, String values) throws Exception {
    fs.executeUpdate("INSERT INTO " + stream + " VALUES " + values);
    h2.execute("INSERT INTO " + stream + " VALUES " + values);
  }

  /** 1 to 5 rows at event times in {@code [clock, clock + 2 s)}: never late. */
  private static String rows(Random random, long clockMs) {
    StringBuilder values = new StringBuilder();
    int n = 1 + random.nextInt(5);
    for (int i = 0; i < n; i++) {
      long ts = clockMs + random.nextInt(2_000);
      values.append(i == 0 ? "" : ", ").append("('k").append(random.nextInt(3))
          .append("', TIMESTAMP '").append(java.time.LocalDateTime.ofEpochSecond(ts / 1000,
              (int) (ts % 1000) * 1_000_000, java.time.ZoneOffset.UTC).toString().replace('T', ' '))
          .append("', ")
          .append(random.nextInt(8) == 0 ? "NULL" : Integer.toString(random.nextInt(10)))
          .append(")");
    }
    return values.toString();
  }

  /**
   * Windows counted over a join (Spark 3.5's join then aggregation in APPEND): the join moves the
   * aggregation's watermark back by how far a joined row's time can be behind it (2 s, the
   * range), so that no joined row is late and a window is emitted once, complete. After every
   * batch the view equals H2's count for every window that watermark has closed.
   */
  @org.junit.jupiter.api.Test void shouldCountTheWindowsOfJoinedRowsAsH2() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    fs.execute("CREATE MATERIALIZED VIEW j AS SELECT TUMBLE_START(l.lts, INTERVAL '5' SECOND)"
        + " AS w, COUNT(*) AS n, SUM(r.w) AS total FROM l JOIN r" + CONDITION
        + " GROUP BY TUMBLE(l.lts, INTERVAL '5' SECOND) EMIT APPEND");
    long clockMs = 10_000;
    long maxL = Long.MIN_VALUE;
    long maxR = Long.MIN_VALUE;
    long watermark = 0;
    for (int batch = 0; batch < 30; batch++) {
      // At least 0.4 s a batch: the watermark passes 20 s whatever the seed.
      clockMs += 400 + random.nextInt(1_000);
      for (String stream : List.of("l", "r")) {
        if (random.nextInt(4) != 0) {
          insert(stream, rows(random, clockMs));
          if (stream.equals("l")) {
            maxL = Math.max(maxL, latest("SELECT MAX(lts) FROM l"));
          } else {
            maxR = Math.max(maxR, latest("SELECT MAX(rts) FROM r"));
          }
        }
      }
      if (maxL != Long.MIN_VALUE && maxR != Long.MIN_VALUE) {
        watermark = Math.max(watermark, Math.min(maxL, maxR) - 3_000);
      }
      // Closed: the window's end at or before the join's output watermark, 2 s behind.
      List<List<Object>> expected = new ArrayList<>();
      for (List<Object> row : h2.query("SELECT ws, COUNT(*), SUM(rw) FROM (SELECT"
          + " DATEADD(MILLISECOND, -MOD(DATEDIFF(MILLISECOND, TIMESTAMP '1970-01-01 00:00:00',"
          + " l.lts), 5000), l.lts) AS ws, r.w AS rw FROM l JOIN r" + CONDITION + ")"
          + " GROUP BY ws")) {
        long start = ((java.sql.Timestamp) row.get(0)).getTime();
        if (start + 5_000 <= watermark - 2_000) {
          expected.add(row);
        }
      }
      ViewResults.awaitRows(fs, "SELECT * FROM j", expected);
    }
    assertTrue(watermark > 20_000, "seed " + seed + ": windows closed up to " + watermark);
  }

  /** The time in milliseconds of H2's timestamp {@code sql}. */
  private long latest(String sql) throws Exception {
    return ((java.sql.Timestamp) h2.query(sql).get(0).get(0)).getTime();
  }
}

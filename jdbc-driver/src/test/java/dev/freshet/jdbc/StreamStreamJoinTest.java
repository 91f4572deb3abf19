package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.ArrayList;
import java.util.List;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Joins of two streams through JDBC: the plan, Spark's output-mode rules for them, and Spark's
 * StreamingJoinSuite scenarios batch by batch.
 */
class StreamStreamJoinTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    statement.execute("CREATE STREAM impressions (ad VARCHAR, its TIMESTAMP(3),"
        + " WATERMARK FOR its AS its - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    statement.execute("CREATE STREAM clicks (ad VARCHAR, cts TIMESTAMP(3), n INTEGER,"
        + " WATERMARK FOR cts AS cts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    statement.execute("CREATE STREAM plain (ad VARCHAR, v INTEGER) WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private static final String RANGE = " ON i.ad = c.ad AND c.cts BETWEEN i.its"
      + " AND i.its + INTERVAL '10' SECOND";

  @Test void shouldShowTheJoinWithItsKeysAndTimeRange() throws Exception {
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR SELECT STREAM i.ad, c.n"
        + " FROM impressions i JOIN clicks c" + RANGE + " AND c.n > 1")) {
      assertTrue(rs.next());
      String plan = rs.getString(1);
      assertTrue(plan.contains("LogicalStreamingJoin(condition="), plan);
      assertTrue(plan.contains("joinType=[inner], operatorId=[0],"
          + " timeRange=[ITS >= CTS - 10000 ms AND ITS <= CTS]"), plan);
    }
  }

  /**
   * A plain query (no STREAM) joining two streams is a batch join over what they hold: the
   * impression without a click has its row with NULLs at once, with no watermark to wait for.
   */
  @Test void shouldAnswerAPlainOuterJoinOfTwoStreamsAsABatchJoin() throws Exception {
    statement.executeUpdate("INSERT INTO impressions VALUES ('a', TIMESTAMP '1970-01-01"
        + " 00:01:40'), ('b', TIMESTAMP '1970-01-01 00:01:41')");
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', TIMESTAMP '1970-01-01 00:01:45', 1)");
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT i.ad, c.n FROM impressions i"
        + " LEFT JOIN clicks c" + RANGE)) {
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getObject(2));
      }
    }
    rows.sort(null);
    assertEquals(List.of("a 1", "b null"), rows);
  }

  @Test void shouldRefuseAJoinOfTwoStreamsInUpdateMode() {
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM i.ad, COUNT(*) FROM impressions i JOIN clicks c" + RANGE
            + " GROUP BY i.ad"));
    assertEquals("42KDE", e.getSQLState());
    assertTrue(e.getMessage().startsWith("A join of two streams is not supported in EMIT UPDATE"
        + " (the default for an aggregation) mode, only in EMIT APPEND, because a joined row,"
        + " once emitted, is never changed"), e.getMessage());
    assertTrue(e.getMessage().contains("Use EMIT APPEND"), e.getMessage());
  }

  @Test void shouldRefuseAnOuterJoinWithoutARangeOfEventTimes() {
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM i.ad, c.n FROM impressions i LEFT JOIN clicks c ON i.ad = c.ad"));
    assertEquals("42KDE", e.getSQLState());
    assertTrue(e.getMessage().contains("A LEFT OUTER join of two streams needs a watermark on"
        + " both streams and a range of event times in its condition"), e.getMessage());
    assertTrue(e.getMessage().contains("l.ts BETWEEN r.ts - INTERVAL '10' SECOND"),
        e.getMessage());
    // A bound on the wrong side does not do: a right row can still come for any left row.
    SQLException upperOnly = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM i.ad, c.n FROM impressions i LEFT JOIN clicks c ON i.ad = c.ad"
            + " AND c.cts >= i.its"));
    assertEquals("42KDE", upperOnly.getSQLState());
    // Without a watermark on one stream, its times bound nothing.
    SQLException noWatermark = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM i.ad, p.v FROM impressions i RIGHT JOIN plain p ON i.ad = p.ad"));
    assertEquals("42KDE", noWatermark.getSQLState());
  }

  @Test void shouldRefuseAnAggregationOverAJoinWhoseTimesAreNotBoundedOnBothSides() {
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM TUMBLE_START(i.its, INTERVAL '10' SECOND), COUNT(*) FROM impressions i"
            + " JOIN clicks c ON i.ad = c.ad AND c.cts >= i.its"
            + " GROUP BY TUMBLE(i.its, INTERVAL '10' SECOND) EMIT APPEND"));
    assertEquals("0A000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("An aggregation over a join of two streams needs a range"
        + " of event times in the join's condition bounded on both sides"), e.getMessage());
  }

  /** Inserts rows {@code (ad, seconds[, n])} into {@code stream}; waits until the query is idle. */
  private void insert(String stream, String... rows) throws Exception {
    StringBuilder values = new StringBuilder();
    for (String row : rows) {
      String[] parts = row.split(" ");
      values.append(values.length() == 0 ? "" : ", ").append("('").append(parts[0])
          .append("', TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '").append(parts[1])
          .append("' SECOND").append(stream.equals("clicks") ? ", 1" : "").append(")");
    }
    statement.executeUpdate("INSERT INTO " + stream + " VALUES " + values);
    PushResults.awaitOnlyQuery(engineName, "join");
  }

  private StreamingQueryProgress lastProgress() throws Exception {
    List<StreamingQueryProgress> progress =
        PushResults.awaitOnlyQuery(engineName, "join").recentProgress();
    return progress.get(progress.size() - 1);
  }

  /** The view's rows as {@code ad its cts}, seconds, {@code -} for NULL. */
  private List<String> joined() throws Exception {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT * FROM j")) {
      while (rs.next()) {
        java.sql.Timestamp its = rs.getTimestamp(2);
        java.sql.Timestamp cts = rs.getTimestamp(3);
        rows.add(rs.getString(1) + " " + (its == null ? "-" : its.getTime() / 1000) + " "
            + (cts == null ? "-" : cts.getTime() / 1000));
      }
    }
    rows.sort(null);
    return rows;
  }

  /**
   * Spark's inner join with a two-sided time range (StreamingInnerJoinSuite "stream stream inner
   * join with time range"): impressions leave the state once the watermark passes their range's
   * end, clicks once it passes them; a late click joins nothing, though its impression is there.
   */
  @Test void shouldEvictByTheWatermarkAndJoinNoLateRowInAnInnerJoin() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW j AS SELECT i.ad, i.its, c.cts"
        + " FROM impressions i JOIN clicks c" + RANGE);
    insert("impressions", "a 1", "b 2");
    assertEquals(List.of(), joined());
    assertEquals(2, lastProgress().stateOperators().get(0).numRowsTotal());
    insert("clicks", "a 5");
    assertEquals(List.of("a 1 5"), joined());
    insert("clicks", "b 30");
    // b's click is 28 s after its impression: out of range. Impressions have no watermark yet
    // (2 - 5 s), so the global watermark stays 0 and nothing leaves the state.
    assertEquals(List.of("a 1 5"), joined());
    assertEquals(4, lastProgress().stateOperators().get(0).numRowsTotal());
    insert("impressions", "c 40", "e 20");
    // Watermark min(35, 25) = 25 s: impressions at or before 25 - 10 s can match no later
    // click (a, b), nor can clicks at or before 25 s a later impression (a 5): three rows fall.
    StreamingQueryProgress evicted = lastProgress();
    assertEquals(25_000, evicted.batchWatermarkMs());
    assertEquals(3, evicted.stateOperators().get(0).numRowsRemoved());
    assertEquals(3, evicted.stateOperators().get(0).numRowsTotal());
    insert("clicks", "e 24");
    // 24 s is in e's range [20, 30], but at or before the watermark: late, dropped.
    assertEquals(1, lastProgress().stateOperators().get(0).numRowsDroppedByWatermark());
    assertEquals(List.of("a 1 5"), joined());
    insert("clicks", "e 26");
    assertEquals(List.of("a 1 5", "e 20 26"), joined());
  }

  /**
   * Spark's left outer join (StreamingOuterJoinSuite "left outer early state exclusion"): the
   * impression without a click gets its row with NULLs in the batch whose watermark passes the
   * end of its range, never before, and one that matched never does.
   */
  @Test void shouldEmitTheLeftRowWithNullsOnlyOnceTheWatermarkPassesItsRange() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW j AS SELECT i.ad, i.its, c.cts"
        + " FROM impressions i LEFT JOIN clicks c" + RANGE);
    insert("impressions", "a 1", "b 2");
    insert("clicks", "a 5");
    assertEquals(List.of("a 1 5"), joined());
    insert("clicks", "z 14");
    insert("impressions", "c 20");
    // Watermark min(15, 9) = 9 s: b's range [2, 12] may still see a click.
    assertEquals(9_000, lastProgress().batchWatermarkMs());
    assertEquals(List.of("a 1 5"), joined());
    insert("clicks", "z 30");
    // Watermark min(15, 25) = 15 s > 12 s: no click can come for b any more.
    assertEquals(15_000, lastProgress().batchWatermarkMs());
    assertEquals(List.of("a 1 5", "b 2 -"), joined());
  }

  /** The same from the right: a click without an impression, once none can come for it. */
  @Test void shouldEmitTheRightRowWithNullsOnlyOnceTheWatermarkPassesItsRange()
      throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW j AS SELECT c.ad, i.its, c.cts"
        + " FROM impressions i RIGHT JOIN clicks c" + RANGE);
    insert("clicks", "a 5", "q 6");
    insert("impressions", "a 1");
    assertEquals(List.of("a 1 5"), joined());
    insert("impressions", "x 20");
    // Watermark min(15, 1) = 1 s: q's impression could still be anywhere in [-4, 6].
    assertEquals(List.of("a 1 5"), joined());
    insert("clicks", "y 30");
    // Watermark min(15, 25) = 15 s: impressions after 15 s cannot be q's.
    assertEquals(15_000, lastProgress().batchWatermarkMs());
    assertEquals(List.of("a 1 5", "q - 6"), joined());
  }

  /**
   * Nexmark q7's shape: bids joined with the highest price of their 10 s window. The windows come
   * from an aggregation in APPEND mode, each once, in the batch whose watermark passes its end;
   * joined on its end, it bounds the bids' state like a stream would.
   */
  @Test void shouldJoinAStreamWithTheWindowsAnAggregationAppends() throws Exception {
    statement.execute("CREATE STREAM bids (auction BIGINT, price BIGINT, bts TIMESTAMP(3),"
        + " WATERMARK FOR bts AS bts - INTERVAL '2' SECOND) WITH (connector = 'memory')");
    String query = "SELECT b.auction, b.price, b.bts FROM bids b JOIN ("
        + "SELECT MAX(price) AS maxprice, window_end FROM TABLE(TUMBLE(TABLE bids,"
        + " DESCRIPTOR(bts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end) m"
        + " ON b.price = m.maxprice"
        + " AND b.bts BETWEEN m.window_end - INTERVAL '10' SECOND AND m.window_end EMIT APPEND";
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR " + query)) {
      assertTrue(rs.next());
      assertTrue(rs.getString(1).contains("timeRange=[BTS >= WINDOW_END - 10000 ms AND BTS <="
          + " WINDOW_END]"), rs.getString(1));
    }
    statement.execute("CREATE MATERIALIZED VIEW j AS " + query);
    bids("1 10 101", "2 30 103", "3 20 108");
    assertEquals(List.of(), highest());
    // Watermark 111 s: [100, 110) is final, its highest bid 30, which bid 2 made.
    bids("4 5 113");
    assertEquals(List.of("2 30 103"), highest());
    bids("5 30 115", "6 7 125");
    // [110, 120) is final: 30 again, now bid 5's; bid 2 is outside this window.
    assertEquals(List.of("2 30 103", "5 30 115"), highest());
    // The bids of finished windows left the state: at most the last 10 s of bids, and the
    // window rows once joined.
    assertTrue(lastProgress().stateOperators().stream()
        .filter(p -> p.operatorName().equals("symmetricHashJoin"))
        .allMatch(p -> p.numRowsTotal() <= 2), lastProgress().stateOperators().toString());
  }

  private void bids(String... rows) throws Exception {
    StringBuilder values = new StringBuilder();
    for (String row : rows) {
      String[] parts = row.split(" ");
      values.append(values.length() == 0 ? "" : ", ").append("(").append(parts[0]).append(", ")
          .append(parts[1]).append(", TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '")
          .append(parts[2]).append("' SECOND)");
    }
    statement.executeUpdate("INSERT INTO bids VALUES " + values);
    PushResults.awaitOnlyQuery(engineName, "join");
  }

  private List<String> highest() throws Exception {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT * FROM j")) {
      while (rs.next()) {
        rows.add(rs.getLong(1) + " " + rs.getLong(2) + " " + rs.getTimestamp(3).getTime() / 1000);
      }
    }
    rows.sort(null);
    return rows;
  }
}

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

  @Test void shouldRefuseAnAggregationOverAJoinOfTwoStreams() {
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM TUMBLE_START(i.its, INTERVAL '10' SECOND), COUNT(*) FROM impressions i"
            + " JOIN clicks c" + RANGE + " GROUP BY TUMBLE(i.its, INTERVAL '10' SECOND)"
            + " EMIT APPEND"));
    assertEquals("0A000", e.getSQLState());
    assertTrue(e.getMessage().contains("An aggregation over a join of two streams is not"
        + " supported yet"), e.getMessage());
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A time range written in ISO 8601 with a T and a zone, as BI tools write it (Grafana's
 * {@code $__timeFilter}), selects the rows of a TIMESTAMP column as SQL's own form does, an
 * offset taken to UTC; over a stream and in a materialized view.
 */
class IsoTimestampTextTest {
  private static Connection connection;
  private static Statement statement;

  @BeforeAll static void createStream() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM visits (ts TIMESTAMP(3), n INT)");
    statement.execute("INSERT INTO visits VALUES (TIMESTAMP '2026-12-07 21:59:59.999', 1),"
        + " (TIMESTAMP '2026-12-07 22:00:00', 2), (TIMESTAMP '2026-12-07 22:30:00.250', 3),"
        + " (TIMESTAMP '2026-12-07 23:00:00', 4), (TIMESTAMP '2026-12-07 23:00:00.001', 5)");
  }

  @AfterAll static void close() throws Exception {
    connection.close();
  }

  private static List<Integer> ns(String where) throws Exception {
    List<Integer> ns = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT n FROM visits WHERE " + where
        + " ORDER BY n")) {
      while (rs.next()) {
        ns.add(rs.getInt(1));
      }
    }
    return ns;
  }

  @Test void shouldSelectAnIsoRangeAsTheSqlFormDoes() throws Exception {
    List<Integer> sqlForm = ns("ts BETWEEN '2026-12-07 22:00:00' AND '2026-12-07 23:00:00'");
    assertEquals(List.of(2, 3, 4), sqlForm);
    assertEquals(sqlForm, ns("ts BETWEEN '2026-12-07T22:00:00Z' AND '2026-12-07T23:00:00Z'"));
    assertEquals(sqlForm, ns("ts BETWEEN '2026-12-07T22:00:00.000Z'"
        + " AND '2026-12-07T23:00:00.000Z'"));
    assertEquals(sqlForm, ns("ts >= '2026-12-07T22:00' AND ts <= '2026-12-07T23:00:00'"));
  }

  @Test void shouldTakeAnOffsetToUtc() throws Exception {
    assertEquals(List.of(2, 3, 4), ns("ts BETWEEN '2026-12-07T23:00:00+01:00'"
        + " AND '2026-12-07T20:30:00-02:30'"));
    assertEquals(List.of(3), ns("ts = '2026-12-08T04:00:00.25+0530'"));
    assertEquals(List.of(1), ns("ts < CAST('2026-12-07T22:00:00Z' AS TIMESTAMP(3))"));
  }

  @Test void shouldReadTheRangeInAMaterializedView() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW in_range AS SELECT COUNT(*) AS c, SUM(n) AS s"
        + " FROM visits WHERE ts BETWEEN '2026-12-07T22:00:00Z' AND '2026-12-07T23:00:00Z'");
    ViewResults.awaitNormalized(statement, "SELECT c, s FROM in_range",
        List.of(List.of(3L, 9L)));
  }

  @Test void shouldSelectAnIsoRangeFromAViewsRows() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW last_seen AS SELECT n, MAX(ts) AS last_ts"
        + " FROM visits GROUP BY n");
    ViewResults.awaitNormalized(statement, "SELECT n FROM last_seen WHERE last_ts"
        + " BETWEEN '2026-12-07T22:00:00Z' AND '2026-12-07T23:00:00Z'",
        List.of(List.of(2L), List.of(3L), List.of(4L)));
  }
}

package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 32, acceptance line 2, per kind of stateful operator: EXPLAIN labels it
 * {@code BOUNDED BY WATERMARK}, {@code BOUNDED BY TTL} or {@code UNBOUNDED}, creating a view or
 * sink with an unbounded one returns an {@link SQLWarning} naming it and the fix,
 * {@code sys.state_operators} shows it, and {@code 'state.ttl'} expires its keys.
 */
class StateBoundsTest {
  private static final String AGGREGATION = "SELECT k, COUNT(*) AS n FROM pairs GROUP BY k";
  private static final String WINDOWED = "SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
      + " COUNT(*) AS n FROM events GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)";
  private static final String SESSIONS = "SELECT k, SESSION_START(ts, INTERVAL '5' SECOND) AS s,"
      + " COUNT(*) AS n FROM events GROUP BY k, SESSION(ts, INTERVAL '5' SECOND) EMIT APPEND";
  private static final String JOIN = "SELECT l.k, l.v AS lv, r.v AS rv FROM pairs l"
      + " JOIN others r ON l.k = r.k";
  private static final String INTERVAL_JOIN = "SELECT a.k, b.ts AS bts FROM events a"
      + " JOIN events2 b ON a.k = b.k AND b.ts BETWEEN a.ts AND a.ts + INTERVAL '10' SECOND";
  private static final String DEDUP = "SELECT k, v FROM (SELECT *, ROW_NUMBER() OVER"
      + " (PARTITION BY k ORDER BY v) AS rn FROM pairs) WHERE rn = 1";
  private static final String DEDUP_BY_TIME = "SELECT k, ts FROM (SELECT *, ROW_NUMBER() OVER"
      + " (PARTITION BY k ORDER BY ts) AS rn FROM events) WHERE rn = 1";
  private static final String TOP_N = "SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER"
      + " (PARTITION BY k ORDER BY v DESC) AS rn FROM pairs) WHERE rn <= 2 EMIT COMPLETE";

  private Connection connection;
  private Statement statement;
  private final String targetUrl = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM pairs (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
    statement.execute("CREATE STREAM others (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
    for (String name : List.of("events", "events2")) {
      statement.execute("CREATE STREAM " + name + " (k VARCHAR, ts TIMESTAMP(3),"
          + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    }
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  @Test void shouldLabelAnAggregationUnboundedWithoutATtlAndWarnWhenAViewHasOne()
      throws Exception {
    assertEquals("UNBOUNDED", label(explainView(AGGREGATION, ""), "LogicalStateStoreSave"));
    assertEquals("BOUNDED BY TTL",
        label(explainView(AGGREGATION, "WITH ('state.ttl' = '1 h')"), "LogicalStateStoreSave"));
    List<String> warnings = createView("counts", AGGREGATION, "");
    assertEquals(1, warnings.size(), warnings::toString);
    String warning = warnings.get(0);
    assertTrue(warning.startsWith("Materialized view COUNTS keeps the state of its aggregation"
        + " StateStoreSave(operatorId=0) without bound"), warning);
    assertTrue(warning.contains("GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"), warning);
    assertTrue(warning.contains("WITH ('state.ttl' = '1 h')"), warning);
    assertEquals(List.of(), createView("ttl_counts", AGGREGATION, "WITH ('state.ttl' = '1 h')"));
    // The next statement's warnings are its own.
    statement.executeUpdate("INSERT INTO pairs VALUES ('a', 1)");
    assertNull(statement.getWarnings());
    awaitOperators("TTL_COUNTS", List.of(row(0, "stateStoreSave", "aggregation",
        "BOUNDED BY TTL", 1L)));
    awaitOperators("COUNTS", List.of(row(0, "stateStoreSave", "aggregation", "UNBOUNDED", 1L)));
  }

  @Test void shouldLabelAWindowedAggregationAndSessionsBoundedByTheWatermark()
      throws Exception {
    assertEquals("BOUNDED BY WATERMARK",
        label(explainView(WINDOWED, ""), "LogicalStateStoreSave"));
    assertEquals(List.of(), createView("per_minute", WINDOWED, ""));
    assertEquals("BOUNDED BY WATERMARK",
        label(explainView(SESSIONS, ""), "LogicalSessionAggregate"));
    assertEquals(List.of(), createView("sessions", SESSIONS, ""));
    statement.executeUpdate("INSERT INTO events VALUES ('a', TIMESTAMP '2026-01-01 00:00:00')");
    awaitOperators("PER_MINUTE", List.of(row(0, "stateStoreSave", "window aggregation",
        "BOUNDED BY WATERMARK", 1L)));
    awaitOperators("SESSIONS", List.of(row(0, "sessionWindowStateStoreSaveExec",
        "session window", "BOUNDED BY WATERMARK", 1L)));
  }

  @Test void shouldLabelAJoinAndExpireItsRowsByTtl() throws Exception {
    assertEquals("UNBOUNDED", label(explainView(JOIN, ""), "LogicalStreamingJoin"));
    assertEquals("BOUNDED BY WATERMARK",
        label(explainView(INTERVAL_JOIN, ""), "LogicalStreamingJoin"));
    assertEquals("BOUNDED BY TTL",
        label(explainView(JOIN, "WITH ('state.ttl' = '1 s')"), "LogicalStreamingJoin"));
    List<String> warnings = createView("joined", JOIN, "");
    assertEquals(1, warnings.size(), warnings::toString);
    assertTrue(warnings.get(0).contains("its join StreamingJoin(operatorId=0) without bound"),
        warnings::toString);
    assertTrue(warnings.get(0).contains("BETWEEN"), warnings::toString);
    assertEquals(List.of(), createView("interval_joined", INTERVAL_JOIN, ""));

    assertEquals(List.of(), createView("ttl_joined", JOIN, "WITH ('state.ttl' = '1 s')"));
    statement.executeUpdate("INSERT INTO pairs VALUES ('a', 1)");
    awaitOperators("TTL_JOINED", List.of(row(0, "symmetricHashJoin", "join", "BOUNDED BY TTL",
        1L)));
    // Idle, the kept left row expires: a right row of its key joins nothing.
    awaitOperators("TTL_JOINED", List.of(row(0, "symmetricHashJoin", "join", "BOUNDED BY TTL",
        0L)));
    statement.executeUpdate("INSERT INTO others VALUES ('a', 10)");
    statement.executeUpdate("INSERT INTO pairs VALUES ('a', 2)");
    ViewResults.awaitRows(statement, "SELECT k, lv, rv FROM ttl_joined",
        List.of(row("a", 2, 10)));
    // Without a TTL both left rows join.
    ViewResults.awaitRows(statement, "SELECT k, lv, rv FROM joined ORDER BY lv",
        List.of(row("a", 1, 10), row("a", 2, 10)));
  }

  @Test void shouldLabelADeduplicationAndForgetItsKeysByTtl() throws Exception {
    assertEquals("UNBOUNDED", label(explainView(DEDUP, ""), "LogicalStreamDeduplicate"));
    assertEquals("BOUNDED BY WATERMARK",
        label(explainView(DEDUP_BY_TIME, ""), "LogicalStreamDeduplicate"));
    List<String> warnings = createView("firsts", DEDUP, "");
    assertEquals(1, warnings.size(), warnings::toString);
    assertTrue(warnings.get(0).contains("its deduplication StreamDeduplicate(operatorId=0)"),
        warnings::toString);
    assertEquals(List.of(), createView("first_events", DEDUP_BY_TIME, ""));

    assertEquals(List.of(), createView("ttl_firsts", DEDUP, "WITH ('state.ttl' = '1 s')"));
    statement.executeUpdate("INSERT INTO pairs VALUES ('a', 1), ('a', 0)");
    ViewResults.awaitRows(statement, "SELECT k, v FROM ttl_firsts", List.of(row("a", 0)));
    awaitOperators("TTL_FIRSTS", List.of(row(0, "dedupe", "deduplication", "BOUNDED BY TTL",
        0L)));
    // The key expired: its next row is a first row again; the view without a TTL drops it.
    statement.executeUpdate("INSERT INTO pairs VALUES ('a', 5)");
    ViewResults.awaitRows(statement, "SELECT k, v FROM ttl_firsts",
        List.of(row("a", 0), row("a", 5)));
    awaitOperators("FIRSTS", List.of(row(0, "dedupe", "deduplication", "UNBOUNDED", 1L)));
    ViewResults.awaitRows(statement, "SELECT k, v FROM firsts", List.of(row("a", 0)));
  }

  @Test void shouldLabelATopNAndDropItsGroupsByTtl() throws Exception {
    assertEquals("UNBOUNDED", label(explainView(TOP_N, ""), "LogicalStreamTopN"));
    List<String> warnings = createView("best", TOP_N, "");
    assertEquals(1, warnings.size(), warnings::toString);
    assertTrue(warnings.get(0).contains("its top-n StreamTopN(operatorId=0) without bound"),
        warnings::toString);

    assertEquals(List.of(), createView("ttl_best", TOP_N, "WITH ('state.ttl' = '1 s')"));
    statement.executeUpdate("INSERT INTO pairs VALUES ('a', 1), ('a', 3), ('a', 2)");
    ViewResults.awaitRows(statement, "SELECT k, v, rn FROM ttl_best",
        List.of(row("a", 3, 1L), row("a", 2, 2L)));
    // The group expires while idle and leaves the COMPLETE result.
    ViewResults.awaitRows(statement, "SELECT k, v, rn FROM ttl_best", List.of());
    statement.executeUpdate("INSERT INTO pairs VALUES ('a', 0)");
    ViewResults.awaitRows(statement, "SELECT k, v, rn FROM ttl_best", List.of(row("a", 0, 1L)));
    ViewResults.awaitRows(statement, "SELECT k, v, rn FROM best",
        List.of(row("a", 3, 1L), row("a", 2, 2L)));
  }

  @Test void shouldWarnWhenASinkKeepsUnboundedStateUnlessItHasATtl() throws Exception {
    try (Connection target = DriverManager.getConnection(targetUrl);
         Statement t = target.createStatement()) {
      t.execute("CREATE TABLE counts (k VARCHAR PRIMARY KEY, n BIGINT)");
      t.execute("CREATE TABLE counts2 (k VARCHAR PRIMARY KEY, n BIGINT)");
      statement.execute("CREATE SINK counts_out AS " + AGGREGATION + " WITH (connector = 'jdbc',"
          + " 'url' = '" + targetUrl + "', 'table-name' = 'counts')");
      List<String> warnings = warnings(statement);
      assertEquals(1, warnings.size(), warnings::toString);
      assertTrue(warnings.get(0).startsWith("Sink COUNTS_OUT keeps the state of its aggregation"
          + " StateStoreSave(operatorId=0) without bound"), warnings::toString);
      statement.execute("CREATE SINK counts_ttl AS " + AGGREGATION + " WITH (connector = 'jdbc',"
          + " 'url' = '" + targetUrl + "', 'table-name' = 'counts2', 'state.ttl' = '1 h')");
      assertEquals(List.of(), warnings(statement));
      statement.executeUpdate("INSERT INTO pairs VALUES ('a', 1)");
      awaitOperators("COUNTS_TTL", List.of(row(0, "stateStoreSave", "aggregation",
          "BOUNDED BY TTL", 1L)));
    }
  }

  @Test void shouldGiveAPushQueryTheSessionsTtl() throws Exception {
    statement.execute("SET 'state.ttl' = '30 min'");
    assertEquals("BOUNDED BY TTL", label(plan("EXPLAIN PLAN FOR SELECT STREAM " + AGGREGATION
        .substring("SELECT ".length())), "LogicalStateStoreSave"));
    // A view's own option wins over the session's.
    assertEquals("BOUNDED BY TTL", label(explainView(AGGREGATION, ""), "LogicalStateStoreSave"));
    assertEquals(List.of(), createView("counts", AGGREGATION, ""));
    statement.execute("SET 'state.ttl' = '0'");
    assertEquals("UNBOUNDED", label(plan("EXPLAIN PLAN FOR SELECT STREAM " + AGGREGATION
        .substring("SELECT ".length())), "LogicalStateStoreSave"));
    SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> statement.execute("SET 'state.ttl' = 'forever'"));
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().contains("'1 h', '30 min', '7 days'"), e.getMessage());
    e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> statement.execute("CREATE MATERIALIZED VIEW bad WITH ('state.ttl' = '-1 h') AS "
            + AGGREGATION));
    assertEquals("42000", e.getSQLState());
  }

  private String explainView(String query, String with) throws SQLException {
    return plan("EXPLAIN PLAN FOR CREATE MATERIALIZED VIEW explained " + with + " AS " + query);
  }

  private String plan(String explain) throws SQLException {
    try (ResultSet rs = statement.executeQuery(explain)) {
      assertTrue(rs.next());
      return rs.getString(1);
    }
  }

  /** The {@code state} label of the plan's line that starts with {@code node}. */
  private static String label(String plan, String node) {
    for (String line : plan.split("\n")) {
      if (line.trim().startsWith(node + "(")) {
        int at = line.indexOf("state=[");
        if (at < 0) {
          fail("no state label on " + line + " of\n" + plan);
        }
        return line.substring(at + 7, line.indexOf(']', at));
      }
    }
    throw new AssertionError("no " + node + " in\n" + plan);
  }

  private List<String> createView(String name, String query, String with) throws SQLException {
    statement.execute("CREATE MATERIALIZED VIEW " + name + " " + with + " AS " + query);
    return warnings(statement);
  }

  private static List<String> warnings(Statement s) throws SQLException {
    List<String> messages = new ArrayList<>();
    for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
      assertEquals("01000", w.getSQLState());
      messages.add(w.getMessage());
    }
    return messages;
  }

  /** Waits until {@code sys.state_operators} shows {@code expected} for {@code query}. */
  private void awaitOperators(String query, List<List<Object>> expected) throws SQLException {
    ViewResults.awaitRows(statement, "SELECT operator_id, operator, kind, bound, \"ROWS\""
        + " FROM sys.state_operators WHERE query = '" + query + "'", expected);
  }
}

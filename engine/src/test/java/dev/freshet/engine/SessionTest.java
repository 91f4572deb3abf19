package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.engine.query.ResultColumn;

/** Statements executed by a {@link Session}, below JDBC. */
class SessionTest {
  private final Engine engine = new Engine("session-test");
  private final Session session = engine.openSession();

  @BeforeEach void createStream() throws Exception {
    session.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE, ts TIMESTAMP(3))"
        + " WITH (connector = 'memory')");
  }

  @AfterEach void close() {
    engine.close();
  }

  private StatementResult.Push push(String sql) throws SQLException {
    return (StatementResult.Push) session.execute(sql);
  }

  private static List<Object[]> next(StatementResult.Push push, int n) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Object[] row = push.query().next(Duration.ofSeconds(30));
      assertNotNull(row, "row " + i + " did not arrive within 30 s");
      rows.add(row);
    }
    return rows;
  }

  private static Set<List<Object>> asSet(List<Object[]> rows) {
    Set<List<Object>> set = new HashSet<>();
    for (Object[] row : rows) {
      set.add(Arrays.asList(row));
    }
    return set;
  }

  @Test void shouldComputeAverageAsSumOverCount() throws Exception {
    StatementResult.Push push = push("SELECT STREAM user_id, COUNT(*) AS n, SUM(amount) AS total,"
        + " AVG(amount) AS a FROM clicks WHERE amount > 0 GROUP BY user_id EMIT UPDATE");
    assertEquals(List.of("USER_ID", "N", "TOTAL", "A", "_BATCH_ID", "_ROW_KIND"),
        push.columns().stream().map(ResultColumn::name).toList());
    session.execute("INSERT INTO clicks (user_id, amount) VALUES ('a', 1), ('b', 2)");
    assertEquals(Set.of(List.of("a", 1L, 1.0, 1.0, 0L, "INSERT"),
        List.of("b", 1L, 2.0, 2.0, 0L, "INSERT")), asSet(next(push, 2)));
    session.execute("INSERT INTO clicks (user_id, amount) VALUES ('a', 3)");
    assertArrayEquals(new Object[] {"a", 2L, 4.0, 2.0, 1L, "UPDATE"}, next(push, 1).get(0));
  }

  @Test void shouldEmitEveryGroupInCompleteMode() throws Exception {
    StatementResult.Push push = push("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id EMIT COMPLETE");
    session.execute("INSERT INTO clicks (user_id) VALUES ('a'), ('b')");
    assertEquals(Set.of(List.of("a", 1L, 0L, "INSERT"), List.of("b", 1L, 0L, "INSERT")),
        asSet(next(push, 2)));
    session.execute("INSERT INTO clicks (user_id) VALUES ('a')");
    assertEquals(Set.of(List.of("a", 2L, 1L, "UPDATE"), List.of("b", 1L, 1L, "UPDATE")),
        asSet(next(push, 2)));
  }

  @Test void shouldFilterGroupsWithHavingAfterTheAggregation() throws Exception {
    StatementResult.Push push = push("SELECT STREAM user_id, COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id HAVING COUNT(*) > 1");
    session.execute("INSERT INTO clicks (user_id) VALUES ('a'), ('b')");
    // Batch 0 ends first, so that 'a' has state when batch 1 counts it again.
    assertTrue(push.query().query().processAllAvailable(Duration.ofSeconds(30)));
    session.execute("INSERT INTO clicks (user_id) VALUES ('a'), ('c')");
    // UPDATE although HAVING kept 'a' out of batch 0: the kind says the group had state.
    assertArrayEquals(new Object[] {"a", 2L, 1L, "UPDATE"}, next(push, 1).get(0));
  }

  @Test void shouldStreamEveryRowOfAQueryWithoutAggregation() throws Exception {
    StatementResult.Push push = push("SELECT STREAM UPPER(user_id) AS u, amount * 2 AS twice,"
        + " ts FROM clicks WHERE amount > 1");
    session.execute("INSERT INTO clicks VALUES ('a', 1, TIMESTAMP '2026-11-29 10:00:00'),"
        + " ('b', 5, TIMESTAMP '2026-11-29 10:00:01.5')");
    assertArrayEquals(new Object[] {"B", 10.0, 1795946401500L, 0L, "INSERT"},
        next(push, 1).get(0));
  }

  @Test void shouldUseTheSessionsStatePartitions() throws Exception {
    session.execute("SET 'state.partitions' = '4'");
    StatementResult.Rows plan = (StatementResult.Rows) session.execute("EXPLAIN PLAN FOR"
        + " SELECT STREAM user_id, COUNT(*) FROM clicks GROUP BY user_id");
    String text = (String) plan.rows().get(0)[0];
    assertEquals(true, text.contains("statePartitions=[4]"), text);
    StatementResult.Push push = push("SELECT STREAM user_id, COUNT(*) FROM clicks"
        + " GROUP BY user_id");
    session.execute("INSERT INTO clicks (user_id) VALUES ('a'), ('b'), ('c'), ('d'), ('a')");
    assertEquals(Set.of(List.of("a", 2L, 0L, "INSERT"), List.of("b", 1L, 0L, "INSERT"),
        List.of("c", 1L, 0L, "INSERT"), List.of("d", 1L, 0L, "INSERT")), asSet(next(push, 4)));
    SQLException e = assertThrows(SQLException.class,
        () -> session.execute("SET 'state.partitions' = 'many'"));
    assertEquals("42000", e.getSQLState());
  }

  @Test void shouldAnswerABoundedQueryOverTheRowsTheStreamHolds() throws Exception {
    session.execute("INSERT INTO clicks (user_id, amount) VALUES ('a', 1), ('b', 2)");
    session.execute("INSERT INTO clicks (user_id, amount) VALUES ('a', 3)");
    StatementResult.Rows rows = (StatementResult.Rows) session.execute(
        "SELECT user_id, SUM(amount) FROM clicks GROUP BY user_id");
    assertEquals(Set.of(List.of("a", 4.0), List.of("b", 2.0)), asSet(rows.rows()));
  }

  @Test void shouldShowAndDescribeStreams() throws Exception {
    session.execute("CREATE STREAM events (k VARCHAR NOT NULL, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    StatementResult.Rows streams = (StatementResult.Rows) session.execute("SHOW STREAMS");
    assertEquals(List.of(List.of("CLICKS"), List.of("EVENTS")),
        streams.rows().stream().map(Arrays::asList).toList());
    StatementResult.Rows columns = (StatementResult.Rows) session.execute("DESCRIBE events");
    assertEquals(List.of(Arrays.asList("K", "VARCHAR NOT NULL", null),
        Arrays.asList("TS", "TIMESTAMP(3)", "WATERMARK 5000 ms")),
        columns.rows().stream().map(Arrays::asList).toList());
  }

  @Test void shouldRejectANullForANotNullColumn() throws Exception {
    session.execute("CREATE STREAM strict (k VARCHAR NOT NULL) WITH (connector = 'memory')");
    SQLException e = assertThrows(SQLException.class,
        () -> session.execute("INSERT INTO strict VALUES (NULL)"));
    assertNotNull(e.getSQLState());
  }

  @Test void shouldStopTheQueryWhenThePushResultIsClosed() throws Exception {
    StatementResult.Push push = push("SELECT STREAM user_id FROM clicks");
    assertEquals(1, engine.queries().size());
    push.query().close();
    assertEquals(0, engine.queries().size());
    assertEquals(null, push.query().next(Duration.ofSeconds(30)));
    assertEquals(true, push.query().isClosed());
  }
}

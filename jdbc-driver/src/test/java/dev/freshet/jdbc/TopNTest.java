package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Top-N per group with {@code ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) <= N} through
 * JDBC, batch by batch: the ranks an UPDATE push query emits, descending and ascending orders,
 * COMPLETE views, a view after an engine restart, the plan and the refusals.
 */
class TopNTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @TempDir Path dataDir;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    statement.execute("CREATE STREAM scores (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  /** The 3 best v of each k, best (largest) first. */
  private static final String TOP3 = "SELECT k, v, rn FROM (SELECT *, ROW_NUMBER() OVER"
      + " (PARTITION BY k ORDER BY v DESC) AS rn FROM scores) WHERE rn <= 3";

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  /** The rows of one batch of a push query with batch markers, up to its marker. */
  private static List<List<Object>> batch(ResultSet rs, int rows) {
    List<List<Object>> read = PushResults.read(rs, rows + 1);
    List<Object> marker = read.get(rows);
    assertEquals("BATCH_END", marker.get(marker.size() - 1), "the batch ends after " + read);
    List<List<Object>> data = new ArrayList<>();
    for (List<Object> r : read.subList(0, rows)) {
      // Data columns and the row kind, without the batch id.
      List<Object> d = new ArrayList<>(r.subList(0, r.size() - 2));
      d.add(r.get(r.size() - 1));
      data.add(d);
    }
    return data;
  }

  /** The acceptance line: top-N in UPDATE emits only the ranks that changed. */
  @Test void shouldEmitOnlyTheRanksThatChangedInUpdateMode() throws Exception {
    try (Statement query = connection.createStatement()) {
      query.execute("SET 'push.batch.markers' = 'true'");
      try (ResultSet rs = query.executeQuery("SELECT STREAM * FROM (" + TOP3 + ")"
          + " EMIT UPDATE")) {
        statement.executeUpdate("INSERT INTO scores VALUES ('a', 10), ('a', 5), ('b', 7)");
        assertEquals(List.of(row("a", 10, 1L, "INSERT"), row("a", 5, 2L, "INSERT"),
            row("b", 7, 1L, "INSERT")), batch(rs, 3));
        statement.executeUpdate("INSERT INTO scores VALUES ('a', 1)");
        assertEquals(List.of(row("a", 1, 3L, "INSERT")), batch(rs, 1));
        // 8 enters a at rank 2 of 3: ranks 2 and 3 change; rank 1 (10) is not emitted.
        statement.executeUpdate("INSERT INTO scores VALUES ('a', 8)");
        assertEquals(List.of(row("a", 8, 2L, "UPDATE"), row("a", 5, 3L, "UPDATE")),
            batch(rs, 2));
        // 0 ranks below a's third: only b's ranks change.
        statement.executeUpdate("INSERT INTO scores VALUES ('a', 0), ('b', 9)");
        assertEquals(List.of(row("b", 9, 1L, "UPDATE"), row("b", 7, 2L, "INSERT")),
            batch(rs, 2));
      }
    }
  }

  /** In COMPLETE mode a push query gets every rank of every group after each batch. */
  @Test void shouldEmitEveryRankInCompleteMode() throws Exception {
    try (Statement query = connection.createStatement()) {
      query.execute("SET 'push.batch.markers' = 'true'");
      try (ResultSet rs = query.executeQuery("SELECT STREAM * FROM (" + TOP3 + ")"
          + " EMIT COMPLETE")) {
        statement.executeUpdate("INSERT INTO scores VALUES ('a', 1), ('b', 2)");
        assertEquals(List.of(row("a", 1, 1L, "INSERT"), row("b", 2, 1L, "INSERT")),
            sorted(batch(rs, 2)));
        statement.executeUpdate("INSERT INTO scores VALUES ('a', 3)");
        assertEquals(List.of(row("a", 1, 2L, "INSERT"), row("a", 3, 1L, "UPDATE"),
            row("b", 2, 1L, "UPDATE")), sorted(batch(rs, 3)));
      }
    }
  }

  /** {@code rows} ordered by their strings: the order of a complete result is no rule. */
  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(java.util.Comparator.comparing(Object::toString));
    return copy;
  }

  /**
   * Ascending order with {@code rn < N + 1} and without {@code rn} in the select list, in the
   * default mode (UPDATE): the rows are still upserted by group and rank, which the result
   * carries hidden. Equal values rank by arrival.
   */
  @Test void shouldRankInAscendingOrderWithoutShowingTheRank() throws Exception {
    try (ResultSet rs = connection.createStatement().executeQuery("SELECT STREAM k, v FROM"
        + " (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) AS rn FROM scores)"
        + " WHERE rn < 3")) {
      statement.executeUpdate("INSERT INTO scores VALUES ('a', 5), ('a', 9), ('a', 7)");
      assertEquals(List.of(row("a", 5), row("a", 7)), PushResults.readData(rs, 2));
      statement.executeUpdate("INSERT INTO scores VALUES ('a', 5)");
      // The new 5 ranks after the earlier one: rank 2 (7) becomes 5.
      assertEquals(List.of(row("a", 5)), PushResults.readData(rs, 1));
    }
  }

  /**
   * {@code rn = 1} ordered by {@code DESC} is a top-1: each key's latest row, replaced when a
   * later one comes (here over a stream with a watermark); an earlier one changes nothing.
   */
  @Test void shouldKeepEachKeysLatestRowAsATopOne() throws Exception {
    statement.execute("CREATE STREAM events (id VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    try (ResultSet rs = connection.createStatement().executeQuery("SELECT STREAM id,"
        + " EXTRACT(SECOND FROM ts) AS s FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id"
        + " ORDER BY ts DESC) AS rn FROM events) WHERE rn = 1")) {
      statement.executeUpdate("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:10'),"
          + " ('a', TIMESTAMP '1970-01-01 00:00:12'), ('b', TIMESTAMP '1970-01-01 00:00:11')");
      assertEquals(List.of(row("a", 12L), row("b", 11L)), PushResults.readData(rs, 2));
      statement.executeUpdate("INSERT INTO events VALUES ('a', TIMESTAMP"
          + " '1970-01-01 00:00:30'), ('b', TIMESTAMP '1970-01-01 00:00:01')");
      assertEquals(List.of(row("a", 30L)), PushResults.readData(rs, 1));
    }
  }

  @Test void shouldShowTheTopNInThePlan() throws Exception {
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR SELECT STREAM * FROM ("
        + TOP3 + ") EMIT COMPLETE")) {
      assertTrue(rs.next());
      String plan = rs.getString(1);
      assertTrue(plan.contains("LogicalStreamTopN(keys=[[K]], order=[V DESC], limit=[3],"
          + " mode=[Complete], operatorId=[0], state=[UNBOUNDED])"), plan);
    }
  }

  /** Runs {@code insert}, waits until the query is idle and returns its last progress. */
  private StreamingQueryProgress insert(String insert) throws Exception {
    statement.executeUpdate(insert);
    List<StreamingQueryProgress> progress =
        PushResults.awaitOnlyQuery(engineName, insert).recentProgress();
    return progress.get(progress.size() - 1);
  }

  /** The rows of {@code sql}, each as its columns' strings joined by spaces, sorted. */
  private static List<String> rows(Statement s, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
          row.append(c == 1 ? "" : " ").append(rs.getObject(c));
        }
        rows.add(row.toString());
      }
    }
    rows.sort(null);
    return rows;
  }

  /** A COMPLETE view holds every rank of every group after each batch; progress counts them. */
  @Test void shouldKeepEveryRankInACompleteView() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW top2 AS SELECT k, v, rn FROM (SELECT *,"
        + " ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM scores)"
        + " WHERE rn <= 2 EMIT COMPLETE");
    StreamingQueryProgress first = insert("INSERT INTO scores VALUES ('a', 1), ('a', 3),"
        + " ('b', 2), ('a', 2)");
    assertEquals(List.of("a 2 2", "a 3 1", "b 2 1"), rows(statement, "SELECT * FROM top2"));
    StateOperatorProgress topN = first.stateOperators().get(0);
    assertEquals("topN", topN.operatorName());
    assertEquals(3, topN.numRowsTotal());
    assertEquals(3, topN.numRowsUpdated());
    StreamingQueryProgress second = insert("INSERT INTO scores VALUES ('b', 1), ('c', 4)");
    assertEquals(List.of("a 2 2", "a 3 1", "b 1 2", "b 2 1", "c 4 1"),
        rows(statement, "SELECT * FROM top2"));
    assertEquals(5, second.stateOperators().get(0).numRowsTotal());
    assertEquals(2, second.stateOperators().get(0).numRowsUpdated());
  }

  /** A COMPLETE view's ranks are in its checkpoint: after a restart they are shown and kept. */
  @Test void shouldRestoreAViewAfterAnEngineRestart() throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM scores (k VARCHAR, v INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW top2 AS SELECT k, v, rn FROM (SELECT *,"
          + " ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM scores)"
          + " WHERE rn <= 2 EMIT COMPLETE");
      s.executeUpdate("INSERT INTO scores VALUES ('a', 1), ('a', 3), ('b', 2)");
      awaitIdle();
    }
    engine().close();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      assertEquals(List.of("a 1 2", "a 3 1", "b 2 1"), rows(s, "SELECT * FROM top2"));
      s.executeUpdate("INSERT INTO scores VALUES ('a', 2), ('b', 0)");
      awaitIdle();
      assertEquals(List.of("a 2 2", "a 3 1", "b 0 2", "b 2 1"), rows(s, "SELECT * FROM top2"));
    } finally {
      engine().close();
    }
  }

  private Engine engine() throws SQLException {
    return EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()));
  }

  private void awaitIdle() throws Exception {
    for (StreamingQuery query : engine().queries()) {
      assertTrue(query.processAllAvailable(PushResults.DEADLINE), query.status().toString());
    }
  }

  @Test void shouldRefuseWhatATopNCannotRun() {
    SQLException append = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM (" + TOP3 + ") EMIT APPEND"));
    assertEquals("42KDE", append.getSQLState());
    assertEquals("EMIT APPEND is not supported for a top-N per group (ROW_NUMBER() OVER (...)"
        + " with rn <= N, or rn = 1 in descending order), because a better row that comes later"
        + " changes the row at a rank. Use EMIT UPDATE (only the ranks that changed) or EMIT"
        + " COMPLETE (every rank)", append.getMessage());
    SQLException updateView = assertThrows(SQLException.class, () -> statement.execute(
        "CREATE MATERIALIZED VIEW top3 AS " + TOP3));
    assertEquals("0A000", updateView.getSQLState());
    assertEquals("Materialized view TOP3 cannot keep a top-N per group (ROW_NUMBER() OVER"
        + " (...) with rn <= N) in UPDATE mode yet. Add EMIT COMPLETE to the view's query, or"
        + " run it as a push query: SELECT STREAM ... EMIT UPDATE", updateView.getMessage());
    SQLException aggregated = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM k, COUNT(*) FROM (" + TOP3 + ") GROUP BY k"));
    assertEquals("0A000", aggregated.getSQLState());
    assertEquals("A top-N per group (ROW_NUMBER() OVER (...) with rn <= N) must be the last"
        + " step of a continuous query, but its rows are read by Aggregate, which would need"
        + " the rows a rank no longer has taken back. Query the top-N's result as it is, e.g."
        + " from a materialized view with EMIT COMPLETE", aggregated.getMessage());
    SQLException ofAggregate = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM (SELECT k, n, ROW_NUMBER() OVER (PARTITION BY n ORDER BY k) AS rn"
            + " FROM (SELECT k, COUNT(*) AS n FROM scores GROUP BY k)) WHERE rn <= 2"));
    assertEquals("0A000", ofAggregate.getSQLState());
    assertEquals("A top-N per group (ROW_NUMBER() OVER (...) with rn <= N) of a streaming"
        + " aggregation's result is not supported, because the aggregation changes the rows it"
        + " emitted. Rank the stream's rows, or keep the aggregation in a materialized view with"
        + " EMIT COMPLETE and sort it when you read it: SELECT * FROM v ORDER BY n DESC LIMIT 3",
        ofAggregate.getMessage());
    SQLException filtered = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC)"
            + " AS rn FROM scores) WHERE rn <= 3 AND v > 0"));
    assertEquals("0A000", filtered.getSQLState());
    assertTrue(filtered.getMessage().startsWith("A top-N per group (ROW_NUMBER() OVER (...)"
        + " with rn <= 3) on a stream must be filtered on the row number alone"),
        filtered.getMessage());
    SQLException sink = assertThrows(SQLException.class, () -> statement.execute(
        "CREATE SINK top3_out AS " + TOP3 + " WITH (connector = 'jdbc', 'url' ="
            + " 'jdbc:h2:mem:topn', 'table-name' = 'top3')"));
    assertEquals("0A000", sink.getSQLState());
    assertEquals("Sink TOP3_OUT cannot write a top-N per group (ROW_NUMBER() OVER (...) with"
        + " rn <= N) yet. Keep it in a materialized view with EMIT COMPLETE, or read it with a"
        + " push query: SELECT STREAM ... EMIT UPDATE", sink.getMessage());
  }
}

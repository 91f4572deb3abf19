package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SESSION windows batch by batch, after Spark's StreamingSessionWindowSuite: a 10 s watermark,
 * a 5 s gap, event times in seconds since the epoch. A session is {@code [first, last + gap)};
 * sessions that overlap or touch merge.
 */
class SessionWindowTest {
  private static final String GROUP_FUNCTION = "SELECT STREAM k,"
      + " SESSION_START(ts, INTERVAL '5' SECOND) AS s, SESSION_END(ts, INTERVAL '5' SECOND) AS e,"
      + " COUNT(*) AS n FROM events GROUP BY k, SESSION(ts, INTERVAL '5' SECOND)";
  private static final String TABLE_FUNCTION = "SELECT STREAM k, window_start, window_end,"
      + " COUNT(*) AS n FROM TABLE(SESSION(TABLE events, DESCRIPTOR(ts), DESCRIPTOR(k),"
      + " INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end";

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    statement.execute("CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '10' SECOND) WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  /** Inserts one row per (key, second) pair given; one INSERT, one batch. */
  private static void insert(Statement s, Object... keysAndSeconds) throws SQLException {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < keysAndSeconds.length; i += 2) {
      values.append(i == 0 ? "" : ", ").append("('").append(keysAndSeconds[i])
          .append("', TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '")
          .append(keysAndSeconds[i + 1]).append("' SECOND)");
    }
    s.executeUpdate("INSERT INTO events VALUES " + values);
  }

  private void insert(Object... keysAndSeconds) throws Exception {
    insert(statement, keysAndSeconds);
    awaitIdle();
  }

  private StreamingQuery awaitIdle() throws Exception {
    return PushResults.awaitOnlyQuery(engineName, "session windows");
  }

  private StreamingQueryProgress lastProgress() throws Exception {
    List<StreamingQueryProgress> progress = awaitIdle().recentProgress();
    return progress.get(progress.size() - 1);
  }

  private static List<Object> session(String k, long startSeconds, long endSeconds, long n) {
    return List.of(k, new Timestamp(startSeconds * 1000), new Timestamp(endSeconds * 1000), n);
  }

  @Test void shouldMergeTwoSessionsBridgedByARowAndEmitThemOnceInAppendMode() throws Exception {
    try (Statement q = connection.createStatement();
         ResultSet rs = q.executeQuery(GROUP_FUNCTION + " EMIT APPEND")) {
      insert("a", 10, "a", 11, "a", 20, "b", 12);
      // a: [10, 16) and [20, 25); b: [12, 17). Watermark 20 - 10 = 10 s: nothing is final.
      insert("a", 15);
      // [15, 20) touches both of a's sessions: one session [10, 25) of 4 rows.
      assertEquals(2, lastProgress().stateOperators().get(0).numRowsTotal());
      insert("a", 40);
      // Watermark 30 s: both sessions ended, each emitted once with all its rows.
      assertEquals(Set.of(session("a", 10, 25, 4), session("b", 12, 17, 1)),
          Set.copyOf(PushResults.readData(rs, 2)));
      assertEquals("sessionWindowStateStoreSaveExec",
          lastProgress().stateOperators().get(0).operatorName());

      // 18 + 5 <= 30: the row's own session ended before the watermark, a late row.
      insert("a", 18);
      StreamingQueryProgress late = lastProgress();
      assertEquals(1, late.stateOperators().get(0).numRowsDroppedByWatermark());
      assertEquals(1, late.stateOperators().get(0).numRowsTotal());

      insert("a", 60);
      // Watermark 50 s: [40, 45) is final; the late row is in no session.
      assertEquals(List.of(session("a", 40, 45, 1)), PushResults.readData(rs, 1));
    }
  }

  /**
   * COMPLETE mode: every session every batch. A push query's rows are keyed by the grouping
   * columns, the session's bounds too, so the sessions merged away come as DELETEs.
   */
  @Test void shouldEmitEverySessionEveryBatchInCompleteModeTheMergedOneReplacingTwo()
      throws Exception {
    try (Statement q = connection.createStatement();
         ResultSet rs = q.executeQuery(TABLE_FUNCTION + " EMIT COMPLETE")) {
      insert("a", 10, "a", 20, "b", 12);
      assertEquals(Set.of(change("a", 10, 15, 1, 0, "INSERT"), change("a", 20, 25, 1, 0, "INSERT"),
          change("b", 12, 17, 1, 0, "INSERT")), Set.copyOf(PushResults.read(rs, 3)));
      insert("a", 15);
      assertEquals(Set.of(change("a", 10, 15, 1, 1, "DELETE"), change("a", 20, 25, 1, 1, "DELETE"),
          change("a", 10, 25, 3, 1, "INSERT"), change("b", 12, 17, 1, 1, "UPDATE")),
          Set.copyOf(PushResults.read(rs, 4)));
      // COMPLETE ignores the watermark (10 s): a row at 1 s opens a session of its own.
      insert("a", 1);
      assertEquals(Set.of(change("a", 1, 6, 1, 2, "INSERT"), change("a", 10, 25, 3, 2, "UPDATE"),
          change("b", 12, 17, 1, 2, "UPDATE")), Set.copyOf(PushResults.read(rs, 3)));
      assertEquals(0, lastProgress().stateOperators().get(0).numRowsDroppedByWatermark());
    }
  }

  private static List<Object> change(String k, long startSeconds, long endSeconds, long n,
      long batch, String kind) {
    return List.of(k, new Timestamp(startSeconds * 1000), new Timestamp(endSeconds * 1000), n,
        batch, kind);
  }

  @Test void shouldGiveTheSameSessionsInBothForms() throws Exception {
    try (Statement q1 = connection.createStatement();
         ResultSet group = q1.executeQuery(GROUP_FUNCTION + " EMIT APPEND");
         Statement q2 = connection.createStatement();
         ResultSet table = q2.executeQuery(TABLE_FUNCTION + " EMIT APPEND")) {
      statement.executeUpdate("INSERT INTO events VALUES"
          + " ('a', TIMESTAMP '1970-01-01 00:00:10'), ('a', TIMESTAMP '1970-01-01 00:00:13'),"
          + " ('b', TIMESTAMP '1970-01-01 00:00:14'), ('a', NULL)");
      statement.executeUpdate("INSERT INTO events VALUES ('c', TIMESTAMP '1970-01-01 00:01:00')");
      Set<List<Object>> expected = Set.of(session("a", 10, 18, 2), session("b", 14, 19, 1));
      assertEquals(expected, Set.copyOf(PushResults.readData(group, 2)));
      assertEquals(expected, Set.copyOf(PushResults.readData(table, 2)));
    }
  }

  @Test void shouldShowTheGapAndKeyInThePlan() throws Exception {
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR " + GROUP_FUNCTION
        + " EMIT APPEND")) {
      assertTrue(rs.next());
      String plan = rs.getString(1);
      assertTrue(plan.contains("LogicalSessionAggregate(operatorId=[0], group=[{0, 1}],"
          + " sessionKeys=[{0}], sessionStart=[$f1], gapMs=[5000], partial=[[MAX($2), COUNT()]],"
          + " merge=[[MAX($2), $SUM0($3)]], outputMode=[Append], statePartitions="), plan);
      assertTrue(plan.contains("watermark=[TS - 10000 ms], state=[BOUNDED BY WATERMARK])"),
          plan);
    }
  }

  /** A restarted view resumes with the sessions its last batch left open, merged further. */
  @Test void shouldKeepOpenSessionsAcrossARestartOfAView(@TempDir Path dataDir) throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir + ";timeZone=UTC";
    String view = "SELECT k, SESSION_START(ts, INTERVAL '5' SECOND) AS s,"
        + " SESSION_END(ts, INTERVAL '5' SECOND) AS e, COUNT(*) AS n FROM events"
        + " GROUP BY k, SESSION(ts, INTERVAL '5' SECOND)";
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3),"
          + " WATERMARK FOR ts AS ts - INTERVAL '10' SECOND) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW sessions AS " + view + " EMIT APPEND");
      s.execute("CREATE MATERIALIZED VIEW all_sessions AS " + view + " EMIT COMPLETE");
      insert(s, "a", 10, "a", 20);
      ViewResults.awaitRows(s, "SELECT * FROM all_sessions",
          List.of(session("a", 10, 15, 1), session("a", 20, 25, 1)));
    } finally {
      closeEngine(dataDir);
    }
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      // The COMPLETE view's rows come back from its state before any batch.
      ViewResults.awaitRows(s, "SELECT * FROM all_sessions",
          List.of(session("a", 10, 15, 1), session("a", 20, 25, 1)));
      insert(s, "a", 15);
      insert(s, "a", 50);
      // The restored sessions merged with the new row, then the watermark (40 s) closed them.
      ViewResults.awaitRows(s, "SELECT * FROM sessions", List.of(session("a", 10, 25, 3)));
      ViewResults.awaitRows(s, "SELECT * FROM all_sessions",
          List.of(session("a", 10, 25, 3), session("a", 50, 55, 1)));
    } finally {
      closeEngine(dataDir);
    }
  }

  private static void closeEngine(Path dataDir) throws Exception {
    EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString()))
        .close();
  }

  @Test void shouldRefuseAppendWithoutAWatermark() throws Exception {
    statement.execute("CREATE STREAM plain (k VARCHAR, ts TIMESTAMP(3))"
        + " WITH (connector = 'memory')");
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        GROUP_FUNCTION.replace("FROM events", "FROM plain") + " EMIT APPEND"));
    assertEquals("42KDE", e.getSQLState());
    assertEquals("EMIT APPEND is not supported for a streaming aggregation without a watermark"
        + " on a grouping column, because no group could ever be final. Add WATERMARK FOR ts AS"
        + " ts - INTERVAL '5' SECOND to the stream, ts being the session's time column; or use"
        + " EMIT COMPLETE", e.getMessage());
  }

  @Test void shouldRefuseAGapThatIsNotAPositiveInterval() throws Exception {
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        GROUP_FUNCTION.replace("'5' SECOND", "'0' SECOND") + " EMIT APPEND"));
    assertEquals("22023", e.getSQLState());
    assertEquals("The gap of a SESSION window must be a positive interval literal, but it is 0 ms."
        + " Use a gap such as INTERVAL '5' MINUTE", e.getMessage());
  }

  @Test void shouldRefuseUpdateModeAndASessionWindowThatNothingMerges() throws Exception {
    SQLException update = assertThrows(SQLException.class, () -> statement.executeQuery(
        GROUP_FUNCTION + " EMIT UPDATE"));
    assertEquals("42KDE", update.getSQLState());
    assertTrue(update.getMessage().contains("Use EMIT APPEND, which emits a session once the"
        + " watermark closes it, or EMIT COMPLETE"), update.getMessage());
    SQLException unmerged = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM TABLE(SESSION(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))"));
    assertEquals("0A000", unmerged.getSQLState());
    assertEquals("A SESSION window must be merged by an aggregation that groups by its"
        + " window_start or window_end. Add GROUP BY window_start, window_end (and the"
        + " DESCRIPTOR key columns) with an aggregate such as COUNT(*)", unmerged.getMessage());
    SQLException otherKey = assertThrows(SQLException.class, () -> statement.executeQuery(
        TABLE_FUNCTION.replace("DESCRIPTOR(k),", "") + " EMIT COMPLETE"));
    assertEquals("0A000", otherKey.getSQLState());
    assertEquals("The sessions of a SESSION table function are per its DESCRIPTOR key [], so"
        + " its aggregation must group by exactly those columns with window_start and"
        + " window_end. GROUP BY window_start, window_end, or change the DESCRIPTOR key",
        otherKey.getMessage());
  }
}

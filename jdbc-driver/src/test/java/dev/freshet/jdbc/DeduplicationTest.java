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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deduplication with {@code ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) = 1} through JDBC:
 * Spark's StreamingDeduplicationSuite and DeduplicationWithinWatermarkSuite scenarios batch by
 * batch, the plan, a restart, and the refusals.
 */
class DeduplicationTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @TempDir Path dataDir;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    statement.execute("CREATE STREAM words (w VARCHAR) WITH (connector = 'memory')");
    statement.execute("CREATE STREAM pairs (k VARCHAR, v INTEGER) WITH (connector = 'memory')");
    statement.execute("CREATE STREAM events (id VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private static final String FIRST_EVENT = "SELECT id, ts FROM (SELECT *, ROW_NUMBER() OVER"
      + " (PARTITION BY id ORDER BY ts) AS rn FROM events) WHERE rn = 1";

  @Test void shouldShowTheDeduplicationWithItsKeysOrderAndExpiry() throws Exception {
    try (ResultSet rs = statement.executeQuery("EXPLAIN PLAN FOR SELECT STREAM id FROM"
        + " (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts) AS rn FROM events)"
        + " WHERE rn <= 1")) {
      assertTrue(rs.next());
      String plan = rs.getString(1);
      assertTrue(plan.contains("LogicalStreamDeduplicate(keys=[[ID]], order=[TS],"
          + " eventTime=[TS], expiresAfter=[TS + 5000 ms], operatorId=[0],"
          + " state=[BOUNDED BY WATERMARK])"), plan);
    }
  }

  /** Runs {@code insert}, waits until the query is idle and returns its last progress. */
  private StreamingQueryProgress insert(String insert) throws Exception {
    statement.executeUpdate(insert);
    List<StreamingQueryProgress> progress =
        PushResults.awaitOnlyQuery(engineName, insert).recentProgress();
    return progress.get(progress.size() - 1);
  }

  private static StateOperatorProgress dedup(StreamingQueryProgress progress) {
    return progress.stateOperators().get(0);
  }

  /** The rows of {@code sql}, each as its columns' strings joined by spaces, sorted. */
  private List<String> rows(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
          Object value = rs.getObject(c);
          row.append(c == 1 ? "" : " ").append(value instanceof java.sql.Timestamp t
              ? String.valueOf(t.getTime() / 1000) : String.valueOf(value));
        }
        rows.add(row.toString());
      }
    }
    rows.sort(null);
    return rows;
  }

  /** Spark's "deduplicate with all columns": a word passes once, also within one batch. */
  @Test void shouldPassEachRowOnceWhenDeduplicatingOnAllColumns() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW d AS SELECT w FROM (SELECT w, ROW_NUMBER()"
        + " OVER (PARTITION BY w) AS rn FROM words) WHERE rn = 1");
    StreamingQueryProgress first = insert("INSERT INTO words VALUES ('a')");
    assertEquals(List.of("a"), rows("SELECT * FROM d"));
    assertEquals("dedupe", dedup(first).operatorName());
    assertEquals(1, dedup(first).numRowsTotal());
    assertEquals(1, dedup(first).numRowsUpdated());
    StreamingQueryProgress second = insert("INSERT INTO words VALUES ('a')");
    assertEquals(List.of("a"), rows("SELECT * FROM d"));
    assertEquals(0, dedup(second).numRowsUpdated());
    StreamingQueryProgress third = insert("INSERT INTO words VALUES ('b'), ('a'), ('b')");
    assertEquals(List.of("a", "b"), rows("SELECT * FROM d"));
    assertEquals(2, dedup(third).numRowsTotal());
    assertEquals(1, dedup(third).numRowsUpdated());
  }

  /**
   * Spark's "deduplicate with some columns", with {@code rn} in the select list: a key's later
   * rows go; within a batch the least ORDER BY value wins.
   */
  @Test void shouldKeepTheFirstRowOfEachKeyWhenDeduplicatingOnSomeColumns() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW d AS SELECT * FROM (SELECT k, v, ROW_NUMBER()"
        + " OVER (PARTITION BY k ORDER BY v) AS rn FROM pairs) WHERE rn < 2");
    insert("INSERT INTO pairs VALUES ('a', 1)");
    assertEquals(List.of("a 1 1"), rows("SELECT * FROM d"));
    insert("INSERT INTO pairs VALUES ('a', 2)");
    assertEquals(List.of("a 1 1"), rows("SELECT * FROM d"));
    insert("INSERT INTO pairs VALUES ('b', 1)");
    assertEquals(List.of("a 1 1", "b 1 1"), rows("SELECT * FROM d"));
    insert("INSERT INTO pairs VALUES ('c', 5), ('c', 3), ('a', 0), ('c', 4)");
    assertEquals(List.of("a 1 1", "b 1 1", "c 3 1"), rows("SELECT * FROM d"));
    // The state holds every key, forever: there is no watermark.
    StreamingQueryProgress last = insert("INSERT INTO pairs VALUES ('b', 0)");
    assertEquals(3, dedup(last).numRowsTotal());
    assertEquals(0, dedup(last).numRowsRemoved());
  }

  /**
   * Spark's DeduplicationWithinWatermarkSuite: a key is forgotten once the watermark passes its
   * first row's event time plus the delay (in the batch without data that the watermark's
   * advance runs), so a later duplicate passes again; a row at or before the watermark is
   * dropped as late and counted.
   */
  @Test void shouldForgetAKeyOnTimeAndDropLateDuplicatesWithAWatermark() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW d AS " + FIRST_EVENT);
    StreamingQueryProgress first = insert("INSERT INTO events VALUES ('a', TIMESTAMP"
        + " '1970-01-01 00:00:10')");
    assertEquals("dedupeWithinWatermark", dedup(first).operatorName());
    assertEquals(List.of("a 10"), rows("SELECT * FROM d"));
    // Watermark 5 s: a expires at 10 + 5 = 15 s; its duplicate at 12 s goes.
    insert("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:12')");
    assertEquals(List.of("a 10"), rows("SELECT * FROM d"));
    StreamingQueryProgress evicted = insert("INSERT INTO events VALUES ('b', TIMESTAMP"
        + " '1970-01-01 00:00:21')");
    // Watermark 16 s passes a's 15 s: the batch without data forgets a.
    assertEquals(16_000, evicted.batchWatermarkMs());
    assertEquals(1, dedup(evicted).numRowsRemoved());
    assertEquals(1, dedup(evicted).numRowsTotal());
    assertEquals(List.of("a 10", "b 21"), rows("SELECT * FROM d"));
    insert("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:17')");
    assertEquals(List.of("a 10", "a 17", "b 21"), rows("SELECT * FROM d"));
    // 15 s is at or before the watermark (16 s): late, although c is new.
    StreamingQueryProgress late = insert("INSERT INTO events VALUES ('c', TIMESTAMP"
        + " '1970-01-01 00:00:15'), ('b', TIMESTAMP '1970-01-01 00:00:22')");
    assertEquals(1, dedup(late).numRowsDroppedByWatermark());
    assertEquals(List.of("a 10", "a 17", "b 21"), rows("SELECT * FROM d"));
  }

  /** A push query in UPDATE mode emits the rows APPEND does: each key's first row, once. */
  @Test void shouldEmitEachKeysFirstRowOnceToAPushQueryInUpdateMode() throws Exception {
    try (Statement query = connection.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM * FROM (SELECT k, v, ROW_NUMBER()"
             + " OVER (PARTITION BY k ORDER BY v) AS rn FROM pairs) WHERE rn = 1 EMIT UPDATE")) {
      statement.executeUpdate("INSERT INTO pairs VALUES ('a', 2), ('a', 1)");
      assertEquals(List.of(List.of("a", 1, 1L)), PushResults.readData(rs, 1));
      statement.executeUpdate("INSERT INTO pairs VALUES ('a', 0), ('b', 7)");
      assertEquals(List.of(List.of("b", 7, 1L)), PushResults.readData(rs, 1));
    }
  }

  /** A deduplication's rows are append-only: an aggregation over them counts each once. */
  @Test void shouldAggregateTheDeduplicatedRows() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW visitors AS SELECT k, COUNT(*) AS n FROM"
        + " (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k, v) AS rn FROM pairs) WHERE rn = 1"
        + " GROUP BY k");
    insert("INSERT INTO pairs VALUES ('page', 1), ('page', 2), ('page', 1)");
    assertEquals(List.of("page 2"), rows("SELECT * FROM visitors"));
    insert("INSERT INTO pairs VALUES ('page', 2), ('page', 3), ('home', 1)");
    assertEquals(List.of("home 1", "page 3"), rows("SELECT * FROM visitors"));
  }

  /**
   * The deduplicated rows keep their event time: windows of them are counted in APPEND, each
   * emitted once the watermark passes its end.
   */
  @Test void shouldCountWindowsOfDeduplicatedRowsInAppendMode() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW w AS SELECT TUMBLE_START(ts, INTERVAL '10'"
        + " SECOND) AS ws, COUNT(*) AS n FROM (" + FIRST_EVENT + ")"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND) EMIT APPEND");
    insert("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:01'), ('a', TIMESTAMP"
        + " '1970-01-01 00:00:02'), ('b', TIMESTAMP '1970-01-01 00:00:03')");
    insert("INSERT INTO events VALUES ('b', TIMESTAMP '1970-01-01 00:00:04')");
    assertEquals(List.of(), rows("SELECT * FROM w"));
    // Watermark 25 s closes [0 s, 10 s): a and b once each.
    insert("INSERT INTO events VALUES ('c', TIMESTAMP '1970-01-01 00:00:30')");
    assertEquals(List.of("0 2"), rows("SELECT * FROM w"));
  }

  /** The first click of each ad among a join's rows: a deduplication over a join of streams. */
  @Test void shouldDeduplicateTheRowsOfAJoinOfTwoStreams() throws Exception {
    statement.execute("CREATE STREAM clicks (id VARCHAR, cts TIMESTAMP(3),"
        + " WATERMARK FOR cts AS cts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    statement.execute("CREATE MATERIALIZED VIEW firsts AS SELECT id, cts FROM (SELECT e.id,"
        + " c.cts, ROW_NUMBER() OVER (PARTITION BY e.id ORDER BY c.cts) AS rn FROM events e"
        + " JOIN clicks c ON e.id = c.id AND c.cts BETWEEN e.ts AND e.ts + INTERVAL '10'"
        + " SECOND) WHERE rn = 1");
    statement.executeUpdate("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:01'),"
        + " ('b', TIMESTAMP '1970-01-01 00:00:01')");
    insert("INSERT INTO clicks VALUES ('a', TIMESTAMP '1970-01-01 00:00:02'), ('a', TIMESTAMP"
        + " '1970-01-01 00:00:03')");
    assertEquals(List.of("a 2"), rows("SELECT * FROM firsts"));
    insert("INSERT INTO clicks VALUES ('a', TIMESTAMP '1970-01-01 00:00:04'), ('b', TIMESTAMP"
        + " '1970-01-01 00:00:05')");
    assertEquals(List.of("a 2", "b 5"), rows("SELECT * FROM firsts"));
  }

  @Test void shouldRefuseWhatADeduplicationCannotRun() {
    // rn <= 3 and ORDER BY ... DESC are top-Ns, which run (TopNTest); expressions do not.
    SQLException expression = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY -v)"
            + " AS rn FROM pairs) WHERE rn = 1"));
    assertEquals("0A000", expression.getSQLState());
    assertTrue(expression.getMessage().startsWith("ROW_NUMBER() OVER (... ORDER BY ...) on a"
        + " stream must order by columns, not expressions"), expression.getMessage());
    SQLException overAggregate = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM (SELECT k, n, ROW_NUMBER() OVER (PARTITION BY n) AS rn FROM"
            + " (SELECT k, COUNT(*) AS n FROM pairs GROUP BY k)) WHERE rn = 1"));
    assertEquals("0A000", overAggregate.getSQLState());
    assertEquals("Deduplication with ROW_NUMBER() of a streaming aggregation's result is not"
        + " supported, because the aggregation changes the rows it emitted. Deduplicate the"
        + " stream's rows before aggregating them", overAggregate.getMessage());
    SQLException complete = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT STREAM * FROM (SELECT k, ROW_NUMBER() OVER (PARTITION BY k) AS rn FROM pairs)"
            + " WHERE rn = 1 EMIT COMPLETE"));
    assertEquals("42KDE", complete.getSQLState());
    assertTrue(complete.getMessage().startsWith("EMIT COMPLETE is not supported for a query"
        + " without a streaming aggregation"), complete.getMessage());
  }

  /** A view's keys are in its checkpoint's state: after a restart, duplicates still go. */
  @Test void shouldRememberTheKeysAcrossAnEngineRestart() throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM pairs (k VARCHAR, v INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW d AS SELECT k, v FROM (SELECT k, v, ROW_NUMBER()"
          + " OVER (PARTITION BY k) AS rn FROM pairs) WHERE rn = 1");
      s.executeUpdate("INSERT INTO pairs VALUES ('a', 1), ('b', 2)");
      awaitIdle();
    }
    engine().close();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO pairs VALUES ('a', 3), ('c', 4)");
      awaitIdle();
      List<String> rows = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT k, v FROM d ORDER BY k")) {
        while (rs.next()) {
          rows.add(rs.getString(1) + " " + rs.getInt(2));
        }
      }
      assertEquals(List.of("a 1", "b 2", "c 4"), rows);
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
}

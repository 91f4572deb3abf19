package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.query;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code SYS.QUERIES} and {@code SYS.QUERY_PROGRESS} read through plain SELECTs: the metrics of
 * known batches of a windowed APPEND view with a late row (the timeline of
 * {@link EventTimeTest}), and the error of a failed query.
 */
class SystemTablesTest {
  private static final String PROGRESS_COLUMNS = "batch_id, num_input_rows, watermark,"
      + " state_rows_total, state_rows_updated, state_rows_removed, rows_dropped_by_watermark,"
      + " num_output_rows";

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

  /** Inserts one row per second given; one INSERT, one batch; waits until the view is idle. */
  private void insertSeconds(int... seconds) throws Exception {
    StringBuilder values = new StringBuilder();
    for (int s : seconds) {
      values.append(values.length() == 0 ? "" : ", ")
          .append("('a', TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '").append(s)
          .append("' SECOND)");
    }
    statement.executeUpdate("INSERT INTO events VALUES " + values);
    PushResults.awaitIdle(engineName, "sys tables");
  }

  private static Timestamp seconds(long s) {
    return new Timestamp(s * 1000);
  }

  @Test void shouldCallTheStatementOfAQueryQueryTextNotTheReservedWordSql() throws Exception {
    String create = "CREATE MATERIALIZED VIEW per_key AS SELECT k, COUNT(*) AS n FROM events"
        + " GROUP BY k";
    statement.execute(create);
    assertEquals(List.of(row("PER_KEY", create)),
        query(statement, "SELECT name, query_text FROM sys.queries"));
    try (ResultSet rs = statement.executeQuery("SHOW QUERIES")) {
      assertEquals("QUERY_TEXT", rs.getMetaData().getColumnLabel(6));
      assertTrue(rs.next());
      assertEquals(create, rs.getString("QUERY_TEXT"));
    }
  }

  @Test void shouldReportTheMetricsOfEachBatchOfAWindowedAppendQuery() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW windows AS SELECT"
        + " TUMBLE_START(ts, INTERVAL '5' SECOND) AS w, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '5' SECOND) EMIT APPEND");
    // Batch 0: windows [10, 15) and [15, 20); batch 1 without data: the watermark moved to 5 s.
    insertSeconds(10, 11, 12, 13, 14, 15);
    // Batch 2: window [25, 30); batch 3 without data: the watermark moved to 15 s.
    insertSeconds(25);
    // Batch 4: late for [10, 15), which is final.
    insertSeconds(12);

    List<List<Object>> progress = query(statement, "SELECT " + PROGRESS_COLUMNS
        + " FROM sys.query_progress WHERE name = 'WINDOWS' ORDER BY batch_id");
    assertEquals(List.of(
        row(0L, 6L, seconds(0), 2L, 2L, 0L, 0L, 0L),
        row(1L, 0L, seconds(5), 2L, 0L, 0L, 0L, 0L),
        row(2L, 1L, seconds(5), 3L, 1L, 0L, 0L, 0L),
        // The watermark passed [10, 15): removed from state and emitted, once.
        row(3L, 0L, seconds(15), 2L, 0L, 1L, 0L, 1L),
        // The late row is dropped and counted; nothing is updated.
        row(4L, 1L, seconds(15), 2L, 0L, 0L, 1L, 0L)), progress);

    List<List<Object>> queries = query(statement, "SELECT name, status, output_mode,"
        + " last_batch_id, watermark, state_rows, last_error FROM sys.queries");
    assertEquals(List.of(row("WINDOWS", "ACTIVE", "APPEND", 4L, seconds(15), 2L, null)),
        queries);

    // The rates of the last batch: 1 input row over the time since batch 3 started, and over
    // the batch's own duration (at least 1 ms), as Spark computes them.
    List<List<Object>> lastTwo = query(statement, "SELECT batch_timestamp, duration_ms"
        + " FROM sys.query_progress WHERE name = 'WINDOWS' AND batch_id >= 3 ORDER BY batch_id");
    long sinceBatch3 = ((Timestamp) lastTwo.get(1).get(0)).getTime()
        - ((Timestamp) lastTwo.get(0).get(0)).getTime();
    long duration = (Long) lastTwo.get(1).get(1);
    List<Object> rates = query(statement, "SELECT input_rows_per_second,"
        + " processed_rows_per_second FROM sys.queries").get(0);
    assertEquals(sinceBatch3 > 0 ? 1000.0 / sinceBatch3 : 0.0, (Double) rates.get(0), 1e-9);
    assertEquals(1000.0 / Math.max(1, duration), (Double) rates.get(1), 1e-9);

    // Any SQL over the tables runs, JSON functions included.
    assertEquals(List.of(row("1", "stateStoreSave")), query(statement, "SELECT"
        + " JSON_VALUE(json, '$.stateOperators[0].numRowsDroppedByWatermark'),"
        + " JSON_VALUE(json, '$.stateOperators[0].operatorName') FROM sys.query_progress"
        + " WHERE batch_id = 4"));
    assertEquals(List.of(row(5L, 8L)), query(statement, "SELECT COUNT(*), SUM(num_input_rows)"
        + " FROM sys.query_progress p JOIN sys.queries q ON p.query_id = q.query_id"));
  }

  @Test void shouldHoldTheWholeProgressRecordInSparksJsonLayout() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW windows AS SELECT"
        + " TUMBLE_START(ts, INTERVAL '5' SECOND) AS w, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '5' SECOND) EMIT APPEND");
    insertSeconds(10, 11, 12, 13, 14, 15);
    insertSeconds(25);
    insertSeconds(12);

    List<Object> last = query(statement, "SELECT query_id, json, batch_timestamp, duration_ms"
        + " FROM sys.query_progress WHERE batch_id = 4").get(0);
    JsonNode json = new ObjectMapper().readTree((String) last.get(1));
    List<String> fields = new ArrayList<>();
    json.fieldNames().forEachRemaining(fields::add);
    assertEquals(List.of("id", "runId", "name", "timestamp", "batchId", "numInputRows",
        "inputRowsPerSecond", "processedRowsPerSecond", "durationMs", "eventTime",
        "stateOperators", "sources", "sink"), fields);
    assertEquals(last.get(0), json.get("id").asText());
    UUID.fromString(json.get("runId").asText());
    assertEquals("WINDOWS", json.get("name").asText());
    // ISO-8601 in UTC with milliseconds, as Spark: the batch timestamp of the same record.
    assertEquals(DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
        .withZone(ZoneOffset.UTC).format(((Timestamp) last.get(2)).toInstant()),
        json.get("timestamp").asText());
    assertEquals(4, json.get("batchId").asLong());
    assertEquals(1, json.get("numInputRows").asLong());
    assertEquals(last.get(3), json.get("durationMs").get("triggerExecution").asLong());
    assertEquals("{\"watermark\":\"1970-01-01T00:00:15.000Z\"}", json.get("eventTime").toString());
    assertEquals("[{\"operatorName\":\"stateStoreSave\",\"numRowsTotal\":2,\"numRowsUpdated\":0,"
        + "\"numRowsRemoved\":0,\"numRowsDroppedByWatermark\":1,\"numShufflePartitions\":1}]",
        json.get("stateOperators").toString());
    JsonNode source = json.get("sources").get(0);
    assertEquals("MemoryStream[EVENTS]", source.get("description").asText());
    assertEquals(2, source.get("startOffset").asLong());
    assertEquals(3, source.get("endOffset").asLong());
    assertEquals(1, source.get("numInputRows").asLong());
    assertEquals(json.get("inputRowsPerSecond").asDouble(),
        source.get("inputRowsPerSecond").asDouble());
    assertEquals("{\"description\":\"MaterializedView[WINDOWS]\",\"numOutputRows\":0}",
        json.get("sink").toString());

    // A batch without data reads no offsets: it starts and ends where batch 2 ended.
    JsonNode noData = new ObjectMapper().readTree((String) query(statement, "SELECT json"
        + " FROM sys.query_progress WHERE batch_id = 3").get(0).get(0));
    assertEquals(List.of(2L, 2L), List.of(noData.at("/sources/0/startOffset").asLong(),
        noData.at("/sources/0/endOffset").asLong()));
  }

  @Test void shouldShowTheErrorOfAFailedQuery() throws Exception {
    statement.execute("CREATE STREAM amounts (k VARCHAR, amount INTEGER)");
    statement.execute("CREATE MATERIALIZED VIEW ratios AS SELECT k, 10 / amount AS r"
        + " FROM amounts");
    statement.executeUpdate("INSERT INTO amounts VALUES ('a', 5)");
    PushResults.awaitIdle(engineName, "sys tables");
    statement.executeUpdate("INSERT INTO amounts VALUES ('b', 0)");

    String sql = "SELECT name, status, output_mode, watermark, state_rows, last_error"
        + " FROM sys.queries WHERE status = 'FAILED'";
    List<List<Object>> failed = awaitNonEmpty(sql);
    assertEquals(row("RATIOS", "FAILED", "APPEND", null, 0L), failed.get(0).subList(0, 5),
        "no watermark, no state");
    String error = (String) failed.get(0).get(5);
    // What JDBC reports, not Java's ArithmeticException.
    assertTrue(error.startsWith("22012: Division by zero."), error);
    // The same as SHOW QUERIES shows.
    assertEquals(error, query(statement, "SHOW QUERIES").get(0).get(6));
    assertEquals(List.of(row(0L, 1L)), query(statement, "SELECT batch_id, num_input_rows"
        + " FROM sys.query_progress"), "the failed batch has no progress record");
  }

  @Test void shouldListEveryQueryWithNullMetricsBeforeItsFirstBatch() throws Exception {
    statement.execute("CREATE STREAM idle (k VARCHAR)");
    statement.execute("CREATE MATERIALIZED VIEW idle_view AS SELECT k, COUNT(*) AS n FROM idle"
        + " GROUP BY k");
    List<Object> q = query(statement, "SELECT * FROM sys.queries").get(0);
    assertEquals(14, q.size());
    assertEquals(row("IDLE_VIEW", "ACTIVE", "UPDATE", -1L, null, null, null, null, null),
        q.subList(1, 10));
    assertEquals("CREATE MATERIALIZED VIEW idle_view AS SELECT k, COUNT(*) AS n FROM idle"
        + " GROUP BY k", q.get(10));
    assertEquals("freshet", q.get(11));
    assertEquals(List.of(0, 0L), q.subList(12, 14), "no restart yet");
    assertEquals(List.of(), query(statement, "SELECT * FROM sys.query_progress"));
  }

  @Test void shouldReadASystemTableEvenWhenAStreamSharesItsName() throws Exception {
    statement.execute("CREATE STREAM queries (k VARCHAR)");
    assertEquals(List.of(), query(statement, "SELECT * FROM sys.queries"));
    statement.executeUpdate("INSERT INTO queries VALUES ('x')");
    assertEquals(List.of(row("x")), query(statement, "SELECT * FROM queries"));
  }

  /** Re-runs {@code sql} until it returns rows; fails after the deadline. */
  private List<List<Object>> awaitNonEmpty(String sql) throws SQLException {
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    List<List<Object>> rows = query(statement, sql);
    while (rows.isEmpty()) {
      if (System.nanoTime() > deadline) {
        fail("after " + ViewResults.DEADLINE + ", " + sql + " returned no row");
      }
      ViewResults.betweenPolls();
      rows = query(statement, sql);
    }
    return rows;
  }

  @Test void shouldReportNoWatermarkForAQueryWithoutOne() throws Exception {
    statement.execute("CREATE STREAM clicks (k VARCHAR)");
    statement.execute("CREATE MATERIALIZED VIEW counts AS SELECT k, COUNT(*) AS n FROM clicks"
        + " GROUP BY k");
    statement.executeUpdate("INSERT INTO clicks VALUES ('a'), ('b'), ('a')");
    PushResults.awaitOnlyQuery(engineName, "sys tables");
    assertEquals(List.of(row(0L, 3L, null, 2L, 2L, 0L, 0L, 2L)), query(statement, "SELECT "
        + PROGRESS_COLUMNS + " FROM sys.query_progress"));
    String json = (String) query(statement, "SELECT json FROM sys.query_progress").get(0).get(0);
    assertNull(new ObjectMapper().readTree(json).get("eventTime"), json);
  }
}

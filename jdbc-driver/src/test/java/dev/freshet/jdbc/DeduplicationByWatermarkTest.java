package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deduplication on a key that holds the event-time column, through JDBC: Spark's
 * StreamingDeduplicationSuite answers batch by batch. The state's keys go once the watermark
 * passes their event time (in the batch without data that the watermark's advance runs), and
 * rows at or before the watermark are dropped as late and counted in
 * {@code sys.query_progress.rows_dropped_by_watermark}.
 *
 * <p>The state counts are read as Spark's {@code StateStoreMetricsTest.assertNumStateRows}
 * reads them: the total of the last batch, the updated, removed and late rows summed over the
 * batches since the previous check.
 */
class DeduplicationByWatermarkTest {
  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;
  /** The last batch id that {@link #assertState} looked at. */
  private long checkedUpTo = -1;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
    // Spark's inputData.toDS().withColumn("eventTime", timestamp_seconds($"value"))
    //   .withWatermark("eventTime", "10 seconds")
    statement.execute("CREATE STREAM ticks (ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '10' SECOND) WITH (connector = 'memory')");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  /** {@code dropDuplicates()} over the single event-time column. */
  private static final String DEDUP_TICKS = "SELECT ts FROM (SELECT ts, ROW_NUMBER() OVER"
      + " (PARTITION BY ts) AS rn FROM ticks) WHERE rn = 1";

  /**
   * Spark's "deduplicate with watermark" and "SPARK-35896: metrics in StateOperatorProgress":
   * the keys 10..15 go when the watermark reaches 15 s, a row at 10 s is then late.
   */
  @Test void shouldEvictKeysPassedByTheWatermarkAndCountLateRows() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW d AS " + DEDUP_TICKS);
    StringBuilder values = new StringBuilder();
    for (int i = 1; i <= 5; i++) {
      for (int s = 10; s <= 15; s++) {
        values.append(values.length() == 0 ? "" : ", ").append(ts(s));
      }
    }
    insert("INSERT INTO ticks VALUES " + values);
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L, 15L), seconds("SELECT ts FROM d"));
    assertState(6, 6, 0, 0);
    assertEquals("dedupe", operatorName());

    // Advances the watermark to 15 s: the batch without data drops the keys <= 15 s.
    insert("INSERT INTO ticks VALUES " + ts(25));
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L, 15L, 25L), seconds("SELECT ts FROM d"));
    assertState(1, 1, 6, 0);
    assertEquals(15_000L, lastWatermarkMs());

    // Before the watermark: late, not emitted although its key is no longer in state.
    insert("INSERT INTO ticks VALUES " + ts(10));
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L, 15L, 25L), seconds("SELECT ts FROM d"));
    assertState(1, 0, 0, 1);

    // Advances the watermark to 35 s: the batch without data drops 25.
    insert("INSERT INTO ticks VALUES " + ts(45));
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L, 15L, 25L, 45L),
        seconds("SELECT ts FROM d"));
    assertState(1, 1, 1, 0);
  }

  /**
   * Spark's "SPARK-35880" with a watermark: the duplicates of a batch and of the state go, a key
   * at the watermark's new value is late.
   */
  @Test void shouldDropDuplicatesOfTheStateUntilTheWatermarkPassesThem() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW d AS " + DEDUP_TICKS);
    insert("INSERT INTO ticks VALUES " + ts(10) + ", " + ts(14) + ", " + ts(14));
    insert("INSERT INTO ticks VALUES " + ts(14));
    assertEquals(List.of(10L, 14L), seconds("SELECT ts FROM d"));
    assertState(2, 2, 0, 0);
    insert("INSERT INTO ticks VALUES " + ts(25));
    insert("INSERT INTO ticks VALUES " + ts(26) + ", " + ts(26) + ", " + ts(15));
    assertEquals(List.of(10L, 14L, 25L, 26L), seconds("SELECT ts FROM d"));
    // 15 s is at the watermark (25 - 10): late.
    assertState(2, 2, 2, 1);
  }

  /**
   * Spark's "SPARK-19841: watermarkPredicate should filter based on keys": deduplication on
   * (id, time), watermark 1 s, the key columns in another order than the input's.
   */
  @Test void shouldEvictByTheEventTimeColumnOfACompositeKey() throws Exception {
    statement.execute("CREATE STREAM pairs (t TIMESTAMP(3), id INTEGER,"
        + " WATERMARK FOR t AS t - INTERVAL '1' SECOND) WITH (connector = 'memory')");
    statement.execute("CREATE MATERIALIZED VIEW d AS SELECT id FROM (SELECT id, t,"
        + " ROW_NUMBER() OVER (PARTITION BY id, t) AS rn FROM pairs) WHERE rn = 1");
    insert("INSERT INTO pairs VALUES " + pair(1, 1) + ", " + pair(1, 1) + ", " + pair(1, 2));
    assertEquals(List.of(1L, 2L), longs("SELECT id FROM d"));
    insert("INSERT INTO pairs VALUES " + pair(1, 1) + ", " + pair(2, 3) + ", " + pair(2, 4));
    assertEquals(List.of(1L, 2L, 3L, 4L), longs("SELECT id FROM d"));
    // Watermark 1 s: (1 s, 0) and (1 s, 1) are late.
    insert("INSERT INTO pairs VALUES " + pair(1, 0) + ", " + pair(1, 1) + ", " + pair(3, 5)
        + ", " + pair(3, 6));
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), longs("SELECT id FROM d"));
    insert("INSERT INTO pairs VALUES " + pair(1, 0) + ", " + pair(4, 7));
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), longs("SELECT id FROM d"));
    // Watermark 3 s: of the six keys only (4 s, 7) is left.
    assertEquals(List.of(1L), longs("SELECT state_rows_total FROM sys.query_progress"
        + " WHERE name = 'D' AND batch_id = (SELECT MAX(batch_id) FROM sys.query_progress"
        + " WHERE name = 'D')"));
    assertEquals(List.of(3L), longs("SELECT SUM(rows_dropped_by_watermark)"
        + " FROM sys.query_progress WHERE name = 'D'"));
  }

  /**
   * Spark's "SPARK-21546: dropDuplicates should ignore watermark when it's not a key": a key
   * without the event-time column is kept, its later rows dropped.
   */
  @Test void shouldKeepKeysWithoutTheEventTimeColumn() throws Exception {
    statement.execute("CREATE STREAM pairs (id INTEGER, t TIMESTAMP(3),"
        + " WATERMARK FOR t AS t - INTERVAL '1' SECOND) WITH (connector = 'memory')");
    statement.execute("CREATE MATERIALIZED VIEW d AS SELECT id, t FROM (SELECT id, t,"
        + " ROW_NUMBER() OVER (PARTITION BY id) AS rn FROM pairs) WHERE rn = 1");
    insert("INSERT INTO pairs VALUES (1, " + ts(1) + "), (1, " + ts(2) + "), (2, " + ts(2)
        + ")");
    assertEquals(List.of("1 1", "2 2"), rows("SELECT id, t FROM d"));
    insert("INSERT INTO pairs VALUES (3, " + ts(30) + "), (1, " + ts(31) + ")");
    assertEquals(List.of("1 1", "2 2", "3 30"), rows("SELECT id, t FROM d"));
    assertEquals(List.of(3L), longs("SELECT state_rows_total FROM sys.query_progress"
        + " WHERE name = 'D' AND batch_id = (SELECT MAX(batch_id) FROM sys.query_progress"
        + " WHERE name = 'D')"));
  }

  /**
   * Spark's "deduplicate with aggregate - append mode": windows of 5 s counted over the
   * deduplicated rows; both operators' state falls as the watermark passes.
   */
  @Test void shouldCountWindowsOfDeduplicatedRowsAndEvictBoth() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW w AS SELECT TUMBLE_START(ts, INTERVAL '5'"
        + " SECOND) AS ws, COUNT(*) AS n FROM (" + DEDUP_TICKS + ")"
        + " GROUP BY TUMBLE(ts, INTERVAL '5' SECOND) EMIT APPEND");
    StringBuilder values = new StringBuilder();
    for (int i = 1; i <= 5; i++) {
      for (int s = 10; s <= 15; s++) {
        values.append(values.length() == 0 ? "" : ", ").append(ts(s));
      }
    }
    insert("INSERT INTO ticks VALUES " + values);
    assertEquals(List.of(), rows("SELECT * FROM w"));
    // [10, 15) and [15, 20) in the aggregation, 10..15 in the deduplication.
    assertState(8, 8, 0, 0);
    insert("INSERT INTO ticks VALUES " + ts(25));
    assertEquals(List.of("10 5"), rows("SELECT * FROM w"));
    // [15, 20) and [25, 30); 25.
    assertState(3, 2, 7, 0);
    insert("INSERT INTO ticks VALUES " + ts(10));
    assertEquals(List.of("10 5"), rows("SELECT * FROM w"));
    assertState(3, 0, 0, 1);
    insert("INSERT INTO ticks VALUES " + ts(40));
    assertEquals(List.of("10 5", "15 1", "25 1"), rows("SELECT * FROM w"));
    // [40, 45); 40.
    assertState(2, 2, 3, 0);
  }

  private static String ts(int seconds) {
    return String.format("TIMESTAMP '1970-01-01 00:00:%02d'", seconds);
  }

  private static String pair(int seconds, int id) {
    return "(" + ts(seconds) + ", " + id + ")";
  }

  private void insert(String insert) throws Exception {
    statement.executeUpdate(insert);
    PushResults.awaitOnlyQuery(engineName, insert);
  }

  /**
   * Asserts the state rows of the last batch and the updated, removed and late rows of the
   * batches since the previous call, summed over the query's stateful operators.
   */
  private void assertState(long total, long updated, long removed, long late)
      throws SQLException {
    long last;
    try (ResultSet rs = statement.executeQuery("SELECT MAX(batch_id) FROM sys.query_progress")) {
      rs.next();
      last = rs.getLong(1);
    }
    List<Long> actual = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT state_rows_total FROM"
        + " sys.query_progress WHERE batch_id = " + last)) {
      rs.next();
      actual.add(rs.getLong(1));
    }
    try (ResultSet rs = statement.executeQuery("SELECT SUM(state_rows_updated),"
        + " SUM(state_rows_removed), SUM(rows_dropped_by_watermark) FROM sys.query_progress"
        + " WHERE batch_id > " + checkedUpTo)) {
      rs.next();
      actual.add(rs.getLong(1));
      actual.add(rs.getLong(2));
      actual.add(rs.getLong(3));
    }
    checkedUpTo = last;
    assertEquals(List.of(total, updated, removed, late), actual,
        "total, updated, removed, late up to batch " + last);
  }

  private String operatorName() throws SQLException {
    try (ResultSet rs = statement.executeQuery("SELECT JSON_VALUE(json,"
        + " '$.stateOperators[0].operatorName') FROM sys.query_progress")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private long lastWatermarkMs() throws SQLException {
    try (ResultSet rs = statement.executeQuery("SELECT watermark FROM sys.query_progress"
        + " WHERE batch_id = (SELECT MAX(batch_id) FROM sys.query_progress)")) {
      rs.next();
      return rs.getTimestamp(1).getTime();
    }
  }

  private List<Long> seconds(String sql) throws SQLException {
    List<Long> out = new ArrayList<>();
    for (String row : rows(sql)) {
      out.add(Long.parseLong(row));
    }
    out.sort(null);
    return out;
  }

  private List<Long> longs(String sql) throws SQLException {
    return seconds(sql);
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
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.executor.runtime.StreamingQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams with {@code connector = 'sequence'} end to end: views and push queries over generated
 * rows match H2 over {@code SYSTEM_RANGE}, micro-batches respect {@code rows.per.batch}, event
 * time drives windows, the DDL refuses what a sequence cannot be, and a view over a sequence in a
 * data directory resumes from its checkpoint after a restart.
 */
class SequenceStreamTest {
  /** {@code n % 1000} needs a lenient SQL conformance; MOD is the standard spelling. */
  private static final String COUNTS = "SELECT MOD(n, 1000) AS k, COUNT(*) AS c, SUM(n) AS s"
      + " FROM nums GROUP BY MOD(n, 1000)";

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @TempDir Path dataDir;

  @BeforeEach void connect() throws Exception {
    // UTC, so that TIMESTAMP values read back as the instants generated.
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName
        + ";timeZone=UTC");
    statement = connection.createStatement();
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  /** Rows of {@code sql}, each column read as a long. */
  private static List<List<Long>> longs(Statement statement, String sql) throws SQLException {
    List<List<Long>> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        List<Long> row = new ArrayList<>();
        for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
          row.add(rs.getLong(c));
        }
        rows.add(row);
      }
    }
    rows.sort(Comparator.comparing(Object::toString));
    return rows;
  }

  /** What H2 computes for {@link #COUNTS} over rows {@code 0..rows-1}. */
  private static List<List<Long>> h2Counts(long rows) throws SQLException {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement s = h2.createStatement()) {
      return longs(s, "SELECT MOD(X, 1000) AS k, COUNT(*) AS c, SUM(X) AS s FROM SYSTEM_RANGE(0, "
          + (rows - 1) + ") GROUP BY MOD(X, 1000)");
    }
  }

  private SQLException fails(String sql) {
    return assertThrows(SQLException.class, () -> statement.execute(sql), sql);
  }

  private void assertFails(String sql, String sqlState, String message) {
    SQLException e = fails(sql);
    assertEquals(message, e.getMessage(), sql);
    assertEquals(sqlState, e.getSQLState(), sql);
  }

  /** The offset ranges of query {@code name}'s recorded batches, as {@code (start, end]}. */
  private static List<String> batches(Statement statement, String name) throws SQLException {
    List<String> ranges = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT JSON FROM sys.query_progress WHERE NAME = '"
        + name + "' ORDER BY BATCH_ID")) {
      while (rs.next()) {
        String json = rs.getString(1);
        String source = json.substring(json.indexOf("\"sources\""));
        ranges.add("(" + number(source, "startOffset") + ", " + number(source, "endOffset") + "]");
        assertTrue(source.contains("\"description\":\"SequenceSource[NUMS]\""), source);
      }
    }
    return ranges;
  }

  private static String number(String json, String field) {
    int at = json.indexOf("\"" + field + "\":") + field.length() + 3;
    int end = at;
    while (end < json.length() && Character.isDigit(json.charAt(end))) {
      end++;
    }
    return json.substring(at, end);
  }

  @Test void shouldMatchH2WhenAViewCountsABoundedSequenceInBatches() throws Exception {
    statement.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence',"
        + " 'end' = '200000', 'rows.per.batch' = '30000')");
    statement.execute("CREATE MATERIALIZED VIEW counts AS " + COUNTS);
    PushResults.awaitIdle(engineName, "view over a sequence");
    List<List<Long>> expected = h2Counts(200_000);
    assertEquals(1000, expected.size());
    assertEquals(expected, longs(statement, "SELECT k, c, s FROM counts"));
    assertEquals(List.of("(0, 30000]", "(30000, 60000]", "(60000, 90000]", "(90000, 120000]",
        "(120000, 150000]", "(150000, 180000]", "(180000, 200000]"), batches(statement, "COUNTS"));
    // A plain SELECT reads the whole bounded sequence at once.
    assertEquals(expected, longs(statement, COUNTS));
    assertEquals(List.of(List.of(200_000L, 19_999_900_000L, 0L, 199_999L)),
        longs(statement, "SELECT COUNT(*), SUM(n), MIN(n), MAX(n) FROM nums"));
  }

  @Test void shouldPushEachLimitedBatchOfASequence() throws Exception {
    // VALUE, the column of Spark's rate source, is a reserved word: quoted, it is a name.
    statement.execute("CREATE STREAM nums (\"VALUE\" BIGINT NOT NULL) WITH (connector ="
        + " 'sequence', 'end' = '10', 'rows.per.batch' = '4')");
    try (Statement query = connection.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM MOD(\"VALUE\", 3) AS k, COUNT(*) AS c,"
             + " SUM(\"VALUE\") AS s FROM nums GROUP BY MOD(\"VALUE\", 3) EMIT UPDATE")) {
      // Batches (0, 4], (4, 8], (8, 10]: each emits the groups its rows changed (3, 3 and 2
      // rows). They run back to back, so a reader that lags gets each group's latest row (the
      // result coalesces unread rows per key): it reads until batch 2's rows are in. MOD has
      // the type of its second argument: the key is an INTEGER.
      Map<Object, List<Object>> latest = new TreeMap<>();
      while (latest.size() < 3 || latest.values().stream()
          .anyMatch(r -> ((Long) r.get(3)) < 2 && !r.get(0).equals(1))) {
        List<Object> row = PushResults.read(rs, 1).get(0);
        latest.put(row.get(0), row.subList(0, 4));
      }
      assertEquals(List.of(List.of(0, 4L, 18L, 2L), List.of(1, 3L, 12L, 1L),
          List.of(2, 3L, 15L, 2L)), new ArrayList<>(latest.values()));
      StreamingQuery running = PushResults.awaitOnlyQuery(engineName, "limited batches");
      assertEquals(List.of(3L, 3L, 2L), running.recentProgress().stream()
          .map(p -> p.numOutputRows()).toList());
    }
  }

  @Test void shouldDeliverEveryRowWhenTheSequenceIsPaced() throws Exception {
    // 200 000 rows a second: the 20 000 rows take 100 ms, so the query waits for rows to become
    // due, several times, with no INSERT to wake it.
    statement.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence',"
        + " 'end' = '20000', 'rows.per.second' = '200000')");
    try (Statement query = connection.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM COUNT(*), SUM(n) FROM nums")) {
      long count = 0;
      List<Object> last = List.of();
      while (count < 20_000) {
        last = PushResults.readData(rs, 1).get(0);
        count = (Long) last.get(0);
      }
      assertEquals(List.of(20_000L, 199_990_000L), last);
    }
  }

  /**
   * Batches of 100 000 rows are read as one slice per core at once, each by its own copy of the
   * operators below the aggregation (see {@code ExecPlanBuilder}): the views still match H2.
   */
  @Test void shouldMatchH2WhenBatchesAreReadBySeveralInputTasks() throws Exception {
    statement.execute("CREATE STREAM nums (n BIGINT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'sequence',"
        + " 'end' = '400000', 'rows.per.batch' = '100000', 'start.time' = '1767225600000')");
    statement.execute("CREATE MATERIALIZED VIEW stats AS SELECT MOD(n, 1000) AS k, COUNT(*) AS c,"
        + " SUM(n) AS s, MIN(n) AS lo, MAX(n) AS hi FROM nums GROUP BY MOD(n, 1000)");
    statement.execute("CREATE MATERIALIZED VIEW windows AS SELECT"
        + " TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, MOD(n, 3) AS k, COUNT(*) AS c, SUM(n) AS s"
        + " FROM nums GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), MOD(n, 3)");
    PushResults.awaitIdle(engineName, "views over a sequence read by input tasks");
    List<List<Long>> stats;
    List<List<Long>> windows;
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement s = h2.createStatement()) {
      stats = longs(s, "SELECT MOD(X, 1000), COUNT(*), SUM(X), MIN(X), MAX(X)"
          + " FROM SYSTEM_RANGE(0, 399999) GROUP BY MOD(X, 1000)");
      // Row X is at start.time + X ms: its window starts at start.time + X - MOD(X, 10000).
      windows = longs(s, "SELECT 1767225600000 + X - MOD(X, 10000), MOD(X, 3), COUNT(*), SUM(X)"
          + " FROM SYSTEM_RANGE(0, 399999) GROUP BY 1767225600000 + X - MOD(X, 10000), MOD(X, 3)");
    }
    assertEquals(1000, stats.size());
    assertEquals(120, windows.size());
    assertEquals(stats, longs(statement, "SELECT k, c, s, lo, hi FROM stats"));
    List<List<Long>> actual = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT w, k, c, s FROM windows")) {
      while (rs.next()) {
        actual.add(List.of(rs.getTimestamp(1).getTime(), rs.getLong(2), rs.getLong(3),
            rs.getLong(4)));
      }
    }
    actual.sort(Comparator.comparing(Object::toString));
    assertEquals(windows, actual);
  }

  @Test void shouldCloseTumblingWindowsOverTheEventTimeOfASequence() throws Exception {
    // Row i at 2026-01-01 00:00:00 + i ms: five windows of 10 000 rows, in batches of 10 000.
    statement.execute("CREATE STREAM nums (n BIGINT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'sequence',"
        + " 'end' = '50000', 'rows.per.batch' = '10000', 'start.time' = '1767225600000')");
    try (Statement query = connection.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND)"
             + " AS w, COUNT(*) AS c, SUM(n) AS s FROM nums"
             + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND) EMIT APPEND")) {
      List<List<Object>> windows = new ArrayList<>();
      // The last event is at 49.999 s, so the watermark ends at 44.999 s: the window at 40 s
      // stays open, the four before it close, in order.
      for (int w = 0; w < 4; w++) {
        List<Object> row = PushResults.readData(rs, 1).get(0);
        windows.add(List.of(((java.sql.Timestamp) row.get(0)).getTime(), row.get(1), row.get(2)));
      }
      List<List<Object>> expected = new ArrayList<>();
      for (long w = 0; w < 4; w++) {
        expected.add(List.of(1_767_225_600_000L + w * 10_000, 10_000L,
            w * 10_000 * 10_000 + 49_995_000L));
      }
      assertEquals(expected, windows);
      // Idle with the window at 40 s open, and healthy.
      StreamingQuery running = PushResults.awaitOnlyQuery(engineName, "windows");
      assertFalse(running.exception().isPresent());
    }
  }

  @Test void shouldGroupByARemainderWrittenWithPercent() throws Exception {
    statement.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence', 'end' = '10')");
    List<List<Long>> rows = new java.util.ArrayList<>(longs(statement,
        "SELECT n % 3 AS r, COUNT(*) AS c, SUM(n) AS s FROM nums GROUP BY n % 3"));
    rows.sort(java.util.Comparator.comparing(row -> row.get(0)));
    assertEquals(List.of(List.of(0L, 4L, 18L), List.of(1L, 3L, 12L), List.of(2L, 3L, 15L)), rows);
  }

  @Test void shouldRejectColumnsThatASequenceDoesNotHave() {
    String with = " WITH (connector = 'sequence', 'end' = '10')";
    String allowed = "A sequence stream has exactly one BIGINT column, the row number, and"
        + " optionally one TIMESTAMP column, the row's event time: CREATE STREAM NUMS (n BIGINT,"
        + " ts TIMESTAMP(3)) WITH (connector = 'sequence', 'end' = '1000000')";
    assertFails("CREATE STREAM nums (n BIGINT, name VARCHAR)" + with, "42000",
        "Stream NUMS (connector 'sequence') has columns (N BIGINT, NAME VARCHAR). " + allowed);
    assertFails("CREATE STREAM nums (a BIGINT, b BIGINT)" + with, "42000",
        "Stream NUMS (connector 'sequence') has columns (A BIGINT, B BIGINT). " + allowed);
    assertFails("CREATE STREAM nums (ts TIMESTAMP(3))" + with, "42000",
        "Stream NUMS (connector 'sequence') has columns (TS TIMESTAMP(3)). " + allowed);
    assertFails("CREATE STREAM nums (n INTEGER)" + with, "42000",
        "Stream NUMS (connector 'sequence') has columns (N INTEGER). " + allowed);
    assertFails("CREATE STREAM nums" + with, "42000",
        "Stream NUMS (connector 'sequence') has columns (). " + allowed);
  }

  @Test void shouldRejectOptionsThatASequenceDoesNotHave() {
    String create = "CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence', ";
    assertFails(create + "'end' = '10', 'rows.per.minute' = '5')", "42000",
        "Unknown option 'rows.per.minute' for connector 'sequence' of stream NUMS. Valid options:"
            + " connector, end, rows.per.second, rows.per.batch, start.time,"
            + " watermark.idle-timeout");
    assertFails(create + "'end' = '-1')", "42000", "Option 'end' of stream NUMS is '-1', but"
        + " must be a whole number of rows, 0 or more, such as '1000000'.");
    assertFails(create + "'rows.per.second' = '0')", "42000", "Option 'rows.per.second' of"
        + " stream NUMS is '0', but must be a whole number of rows a second from 1 to 1000000000,"
        + " such as '1000'.");
    assertFails(create + "'end' = '10', 'rows.per.batch' = 'many')", "42000", "Option"
        + " 'rows.per.batch' of stream NUMS is 'many', but must be a whole number of rows, 1 or"
        + " more, such as '100000'.");
    assertFails(create + "'end' = '10', 'start.time' = '253402300800000')", "42000", "Option"
        + " 'start.time' of stream NUMS is '253402300800000', but must be the event time of the"
        + " first row in milliseconds since 1970-01-01 00:00:00 UTC, from -62135596800000 (year"
        + " 1) to 253402300799999 (year 9999), such as '1767225600000'.");
    assertFails(create + "'rows.per.batch' = '10')", "42000", "Stream NUMS (connector"
        + " 'sequence') needs 'end' (the number of rows) or 'rows.per.second' (a pace), or both:"
        + " without either it would generate rows as fast as it can, for ever. Add e.g. 'end' ="
        + " '1000000' or 'rows.per.second' = '1000'");
    assertFails("CREATE STREAM nums (n BIGINT) WITH (connector = 'hdfs')", "0A000",
        "Connector 'hdfs' of stream NUMS is not supported yet. Use WITH (connector = 'memory')"
            + " and INSERT rows, 'sequence' for generated rows, 'kafka' for a topic's records,"
            + " 'filesystem' for the files that appear in a directory or 'nexmark' for Nexmark's"
            + " auction events");
    assertFails("CREATE STREAM clicks (k VARCHAR) WITH ('end' = '10')", "42000",
        "Unknown option 'end' for connector 'memory' of stream CLICKS. Valid options: connector,"
            + " retention, memory.max, segment.size, watermark.idle-timeout");
  }

  @Test void shouldRefuseInsertsAndEndlessPlainSelectsButDropTheStream() throws Exception {
    statement.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'SEQUENCE',"
        + " 'rows.per.second' = '1000')");
    assertFails("INSERT INTO nums VALUES (1)", "42809", "Cannot INSERT INTO stream 'NUMS': its"
        + " rows are generated by connector 'sequence', not inserted. INSERT into a stream"
        + " declared WITH (connector = 'memory').");
    assertFails("SELECT COUNT(*) FROM nums", "0A000", "A plain SELECT reads every row of its"
        + " stream at once, but stream NUMS generates rows without end (connector 'sequence'"
        + " without 'end'). Use SELECT STREAM ... for a continuous query, or declare the stream"
        + " with 'end'");
    statement.execute("DROP STREAM nums");
    assertEquals("42S02", fails("SELECT * FROM nums").getSQLState());
    statement.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence',"
        + " 'end' = '3')");
    assertEquals(List.of(List.of(0L), List.of(1L), List.of(2L)),
        longs(statement, "SELECT n FROM nums"));
  }

  @Test void shouldResumeAViewFromItsCheckpointWhenTheEngineRestarts() throws Exception {
    String url = "jdbc:freshet:dataDir=" + dataDir;
    String view = "CREATE MATERIALIZED VIEW IF NOT EXISTS counts AS " + COUNTS;
    try (Connection first = DriverManager.getConnection(url);
         Statement s = first.createStatement()) {
      s.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence',"
          + " 'end' = '100000', 'rows.per.batch' = '30000')");
      s.execute(view);
      awaitIdle(engine(url), "first run");
      assertEquals(h2Counts(100_000), longs(s, "SELECT k, c, s FROM counts"));
      assertEquals(List.of("(0, 30000]", "(30000, 60000]", "(60000, 90000]", "(90000, 100000]"),
          batches(s, "COUNTS"));
    }
    // The sequence keeps nothing in the data directory; the view's checkpoint is there.
    assertFalse(Files.exists(dataDir.resolve("streams").resolve("NUMS")));
    assertTrue(Files.exists(dataDir.resolve("checkpoints").resolve("COUNTS").resolve("commits")
        .resolve("3")));
    engine(url).close();

    // Not declared again: the catalog brings the stream and the view back, and the view resumes
    // after its last committed batch, so nothing is read or counted again.
    try (Connection second = DriverManager.getConnection(url);
         Statement s = second.createStatement()) {
      s.execute(view);
      awaitIdle(engine(url), "second run");
      assertEquals(h2Counts(100_000), longs(s, "SELECT k, c, s FROM counts"));
      assertEquals(List.of(), batches(s, "COUNTS"));
      assertEquals(List.of(List.of(3L)),
          longs(s, "SELECT LAST_BATCH_ID FROM sys.queries WHERE NAME = 'COUNTS'"));
    } finally {
      // Its query and maintenance thread would otherwise write into the deleted directory.
      engine(url).close();
    }
  }

  private static Engine engine(String url) throws SQLException {
    return EngineRegistry.INSTANCE.resolve(
        Map.of(EngineRegistry.DATA_DIR, url.substring(url.indexOf('=') + 1)));
  }

  private static void awaitIdle(Engine engine, String context) throws Exception {
    for (StreamingQuery query : engine.queries()) {
      if (!query.processAllAvailable(PushResults.DEADLINE)) {
        fail(context + ": query " + query.name() + " did not catch up: " + query.status(),
            query.exception().orElse(null));
      }
    }
  }

  private static List<Object> row(Object... values) {
    return List.of(values);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }
}

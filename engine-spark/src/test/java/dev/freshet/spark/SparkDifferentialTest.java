package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import dev.freshet.testkit.oracle.H2Oracle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same continuous query, fed the same rows in the same batches, on Spark (translated from
 * Freshet's plan, over a MemoryStream), on Freshet's own executor (the embedded JDBC driver, one
 * INSERT per batch) and on H2 (the same GROUP BY as a batch query over every row so far).
 *
 * <p>Each step's output on Spark must equal Freshet's as a multiset of rows with the same Java
 * types: in UPDATE and APPEND the rows the step's batches emitted, in COMPLETE the whole result.
 * Freshet's rows are read as many as Spark emitted; a surplus would arrive at the next step with
 * an older batch id and fail there, so each test's last step emits rows. The final view (each
 * key's last row in UPDATE, every row in APPEND, the last result in COMPLETE) must equal H2's.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkDifferentialTest {
  private static final DateTimeFormatter SQL_TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
  /** The start of the epoch-aligned 5 s window of {@code ts} in H2 (whole seconds). */
  private static final String H2_FLOOR_5S =
      "DATEADD(SECOND, -MOD(DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', ts), 5), ts)";
  private static final String H2_FLOOR_10S =
      "DATEADD(SECOND, -MOD(DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', ts), 10), ts)";
  /** The event-time batches of the window tests; the last one moves the watermark to 95 s. */
  private static final List<List<Object[]>> EVENTS = List.of(
      batch(event("a", 1, 10), event("b", 3, 20), event("a", 9, 30)),
      batch(event("a", 12, 5)),
      // Watermark 11 s: [0, 10) is final.
      batch(event("b", 16, 7), event("b", 18, null)),
      // Watermark 22 s: [10, 20) is final.
      batch(event("a", 27, 1), event("b", 25, 2)),
      batch(event("a", 100, 3)));
  /** What H2 may count of {@link #EVENTS}: the windows that end by the last watermark, 95 s. */
  private static final String CLOSED = "ts < TIMESTAMP '1970-01-01 00:01:30'";

  private static SparkBench bench;
  private Connection freshet;
  private H2Oracle h2;

  @BeforeAll static void startSpark() throws Exception {
    bench = new SparkBench();
  }

  @AfterAll static void stopSpark() {
    bench.close();
  }

  @BeforeEach void connect() throws Exception {
    freshet = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID()
        + ";timeZone=UTC");
    h2 = new H2Oracle().createTable("events", "k VARCHAR, ts TIMESTAMP(3), v INTEGER")
        .createTable("clicks", "user_id VARCHAR, url VARCHAR, amount INTEGER");
    try (Statement f = freshet.createStatement()) {
      f.execute(SparkBench.EVENTS_DDL);
      f.execute(SparkBench.CLICKS_DDL);
    }
  }

  @AfterEach void close() throws Exception {
    freshet.close();
    h2.close();
  }

  @Test void shouldEmitTheKeysEachBatchTouchesWithEveryAggregateWhenUpdate() throws Exception {
    compare("SELECT STREAM user_id, COUNT(*) AS n, SUM(amount) AS s, MIN(amount) AS lo,"
            + " MAX(amount) AS hi, AVG(amount) AS av FROM clicks WHERE amount > 0"
            + " GROUP BY user_id", EmitMode.UPDATE, "clicks",
        List.of(
            batch(click("a", "/x", 3), click("b", "/y", 5), click("a", "/z", 4)),
            // Nothing passes the WHERE: no key is touched.
            batch(click("a", "/x", -1), click("c", "/y", null)),
            batch(click("b", "/x", 10), click("c", "/y", -2), click("c", "/z", 8)),
            batch(click("a", "/", 1), click("c", "/", 7), click("a", "/", 2)),
            batch(click("d", "/", 2))),
        "SELECT user_id, COUNT(*), SUM(amount), MIN(amount), MAX(amount), AVG(amount)"
            + " FROM clicks WHERE amount > 0 GROUP BY user_id", 1);
  }

  @Test void shouldGroupByExpressionsWithCaseLikeAndStringFunctionsWhenUpdate()
      throws Exception {
    String select = " UPPER(user_id) || '-' || CAST(CHAR_LENGTH(url) AS VARCHAR) AS g,"
        + " COUNT(*) AS n, SUM(CASE WHEN url LIKE '/b%' THEN amount ELSE 0 END) AS bought,"
        + " SUM(amount / 2) AS halves, MIN(-amount % 3) AS r FROM clicks WHERE amount IS NOT NULL"
        + " AND url NOT LIKE '/q%' AND (url IN ('/buy', '/b', '/x') OR amount * 2 >= 10)"
        + " GROUP BY UPPER(user_id) || '-' || CAST(CHAR_LENGTH(url) AS VARCHAR)";
    compare("SELECT STREAM" + select, EmitMode.UPDATE, "clicks",
        List.of(
            batch(click("a", "/buy", 3), click("b", "/x", 5), click("a", "/b", 4)),
            batch(click("a", "/zz", 4), click("a", "/zz", 5), click("b", "/buy", null),
                click("a", "/qq", 7)),
            batch(click("b", "/bat", 9), click("a", "/buy", -7))),
        "SELECT" + select, 1);
  }

  @Test void shouldTrimAndTakeSubstringsAsFreshetAndH2Do() throws Exception {
    String select = " user_id, TRIM(LEADING '/' FROM url) AS l, TRIM(TRAILING 'x' FROM url) AS t,"
        + " TRIM(BOTH '/' FROM url) AS b, SUBSTRING(url FROM 2 FOR 2) AS s FROM clicks";
    compare("SELECT STREAM" + select, EmitMode.APPEND, "clicks",
        List.of(
            batch(click("a", "/x/", 1), click("b", "//bx", 2)),
            batch(click("c", "x//", 3), click("d", "", 4))),
        "SELECT" + select, 0);
  }

  @Test void shouldEmitEachTumblingWindowOnceWhenTheWatermarkPassesItsEndInAppend()
      throws Exception {
    compare("SELECT STREAM TUMBLE_START(ts, INTERVAL '10' SECOND) AS w,"
            + " TUMBLE_END(ts, INTERVAL '10' SECOND) AS e, k, COUNT(*) AS n, SUM(v) AS s,"
            + " COUNT(v) AS nv FROM events GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k",
        EmitMode.APPEND, "events", EVENTS,
        "SELECT ws, DATEADD(SECOND, 10, ws), k, COUNT(*), SUM(v), COUNT(v) FROM (SELECT "
            + H2_FLOOR_10S + " AS ws, k, v FROM events WHERE " + CLOSED + ") GROUP BY ws, k",
        0);
  }

  @Test void shouldEmitEachHoppingWindowOnceWhenTheWatermarkPassesItsEndInAppend()
      throws Exception {
    // HOP(data, ts, slide, size) in SQL; Spark's window(ts, size, slide).
    compare("SELECT STREAM window_start, window_end, COUNT(*) AS n, MAX(v) AS hi"
            + " FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND,"
            + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end",
        EmitMode.APPEND, "events", EVENTS,
        "SELECT ws, DATEADD(SECOND, 10, ws), COUNT(*), MAX(v) FROM (SELECT " + H2_FLOOR_5S
            + " AS ws, v FROM events WHERE " + CLOSED + " UNION ALL SELECT DATEADD(SECOND, -5, "
            + H2_FLOOR_5S + "), v FROM events WHERE " + CLOSED + ") GROUP BY ws", 0);
  }

  @Test void shouldEmitTheWindowsEachBatchTouchesWhenTumbleTableFunctionInUpdate()
      throws Exception {
    compare("SELECT STREAM window_start, window_end, k, COUNT(*) AS n, MIN(v) AS lo"
            + " FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
            + " GROUP BY window_start, window_end, k", EmitMode.UPDATE, "events", EVENTS,
        "SELECT ws, DATEADD(SECOND, 10, ws), k, COUNT(*), MIN(v) FROM (SELECT " + H2_FLOOR_10S
            + " AS ws, k, v FROM events) GROUP BY ws, k", 3);
  }

  @Test void shouldEmitEveryRowThatPassesTheFilterWhenNoAggregation() throws Exception {
    compare("SELECT STREAM k, ts, v * 2 AS v2, CASE WHEN v IS NULL THEN 'none' ELSE 'some' END"
            + " AS has FROM events WHERE v > 1 OR v IS NULL", EmitMode.APPEND, "events", EVENTS,
        "SELECT k, ts, v * 2, CASE WHEN v IS NULL THEN 'none' ELSE 'some' END FROM events"
            + " WHERE v > 1 OR v IS NULL", 0);
  }

  @Test void shouldEmitEachHopGroupWindowOnceWhenTheWatermarkPassesItsEndInAppend()
      throws Exception {
    compare("SELECT STREAM HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS w,"
            + " HOP_END(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS e, k, AVG(v) AS av"
            + " FROM events GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), k",
        EmitMode.APPEND, "events", EVENTS,
        "SELECT ws, DATEADD(SECOND, 10, ws), k, AVG(CAST(v AS DOUBLE)) FROM (SELECT "
            + H2_FLOOR_5S + " AS ws, k, v FROM events WHERE " + CLOSED + " UNION ALL SELECT"
            + " DATEADD(SECOND, -5, " + H2_FLOOR_5S + "), k, v FROM events WHERE " + CLOSED
            + ") GROUP BY ws, k", 0);
  }

  @Test void shouldEmitTheWholeResultEveryBatchWhenComplete() throws Exception {
    compare("SELECT STREAM user_id, COUNT(*) AS n, MAX(amount) AS hi FROM clicks"
            + " GROUP BY user_id", EmitMode.COMPLETE, "clicks",
        List.of(
            batch(click("a", "/x", 3), click("b", "/y", null)),
            batch(click("a", "/x", 1)),
            batch(click("c", "/", 9), click("b", "/", 4))),
        "SELECT user_id, COUNT(*), MAX(amount) FROM clicks GROUP BY user_id", 1);
  }

  /**
   * Runs {@code sql} on Spark and on Freshet batch by batch, comparing each step's rows, then
   * compares the final view with {@code h2Sql}; in UPDATE the view keeps each key's last row
   * (the key is the first {@code keyColumns} columns).
   */
  private void compare(String sql, EmitMode mode, String stream, List<List<Object[]>> batches,
      String h2Sql, int keyColumns) throws Exception {
    try (SparkBench.Running spark = bench.start(sql, mode, stream.toUpperCase());
         Statement query = freshet.createStatement();
         ResultSet pushed = query.executeQuery(sql + " EMIT " + mode);
         Statement insert = freshet.createStatement()) {
      FreshetPush push = new FreshetPush(pushed);
      Map<Object, List<Object>> view = new LinkedHashMap<>();
      List<List<Object>> lastBatch = List.of();
      for (int step = 0; step < batches.size(); step++) {
        String values = toValues(batches.get(step));
        insert.executeUpdate("INSERT INTO " + stream + " VALUES " + values);
        h2.execute("INSERT INTO " + stream + " VALUES " + values);
        List<List<Object>> onSpark = new ArrayList<>();
        for (SparkBench.Batch batch : spark.add(batches.get(step))) {
          onSpark.addAll(batch.rows());
          lastBatch = batch.rows();
        }
        // Freshet's surplus rows of a step show at the next read: the last step must read some.
        assertTrue(step < batches.size() - 1 || !onSpark.isEmpty(),
            "the test's last batch must emit rows");
        List<List<Object>> onFreshet = push.read(onSpark.size());
        assertEquals(sorted(onFreshet), sorted(onSpark), sql + ", step " + step);
        for (List<Object> row : onSpark) {
          view.put(mode == EmitMode.UPDATE ? row.subList(0, keyColumns) : view.size(), row);
        }
      }
      List<List<Object>> finalView = mode == EmitMode.COMPLETE ? lastBatch
          : new ArrayList<>(view.values());
      assertEquals(sorted(normalized(h2.queryLocal(h2Sql))), sorted(normalized(finalView)),
          "final view of " + sql);
    }
  }

  /** Numbers by value with 12 significant digits: H2 types SUM and AVG apart from Freshet. */
  private static List<List<Object>> normalized(List<List<Object>> rows) {
    List<List<Object>> result = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object v : row) {
        values.add(v instanceof Number ? new BigDecimal(v.toString())
            .round(new MathContext(12)).stripTrailingZeros().toPlainString() : v);
      }
      result.add(values);
    }
    return result;
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }

  private static String toValues(List<Object[]> rows) {
    List<String> tuples = new ArrayList<>();
    for (Object[] row : rows) {
      List<String> literals = new ArrayList<>();
      for (Object v : row) {
        literals.add(v == null ? "NULL"
            : v instanceof String s ? "'" + s + "'"
            : v instanceof LocalDateTime t ? "TIMESTAMP '" + SQL_TIMESTAMP.format(t) + "'"
            : v.toString());
      }
      tuples.add("(" + String.join(", ", literals) + ")");
    }
    return String.join(", ", tuples);
  }

  /** One batch of rows. */
  private static List<Object[]> batch(Object[]... rows) {
    return List.of(rows);
  }

  private static Object[] click(String user, String url, Integer amount) {
    return new Object[] {user, url, amount};
  }

  private static Object[] event(String k, int second, Integer v) {
    return new Object[] {k, LocalDateTime.of(1970, 1, 1, 0, 0).plusSeconds(second), v};
  }
}

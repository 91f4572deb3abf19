package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.testkit.oracle.H2Oracle;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Push queries grouping by a VARCHAR column run on the columnar path (dictionary-encoded string
 * vectors) and compute what H2 computes: random rows in random INSERTs, with NULL keys, empty,
 * non-ASCII and surrogate-pair strings, a trailing space and case differences; after every
 * INSERT the push rows folded into a table (last row per key) must equal H2 running the query
 * over every row inserted so far. Each query must have taken the columnar path.
 */
class StringColumnarOracleTest {
  /** The keys: NULL among them; "a", "a " and "A" are three keys. */
  private static final String[] KEYS = {null, "", "a", "a ", "A", "b", "\u00e9t\u00e9",
      "\u65e5\u672c", "\ud83d\ude00", "it's", "zz"};
  private static final LocalDateTime START = LocalDateTime.of(2026, 1, 1, 0, 0);

  /**
   * A query, as Freshet and H2 run it.
   *
   * @param keyColumns number of leading key columns
   * @param where which rows reach the aggregate, for counting the keys a batch touches
   */
  record Shape(String name, String freshet, String h2, int keyColumns, Predicate<Row> where) {
    @Override public String toString() {
      return name;
    }
  }

  /** One inserted row; {@code w} is its 10-second window's start, H2's TUMBLE. */
  record Row(String k, Integer j, Long v, LocalDateTime ts, LocalDateTime w) {}

  static List<Shape> shapes() {
    String byKey = "SELECT k, COUNT(*), SUM(v), COUNT(k), MIN(j), MAX(v) FROM s GROUP BY k";
    String byKeyAndInt = "SELECT k, j, COUNT(*), SUM(v) FROM s GROUP BY k, j";
    String filtered = "SELECT k, COUNT(*), SUM(v) FROM s"
        + " WHERE k <> 'b' AND (k >= 'a' OR k IS NULL OR k = '\u65e5\u672c') GROUP BY k";
    return List.of(
        new Shape("a string key", byKey, byKey, 1, r -> true),
        new Shape("a string and an integer key", byKeyAndInt, byKeyAndInt, 2, r -> true),
        // A NULL k makes k <> 'b' UNKNOWN: the row is filtered out.
        new Shape("a filter on strings", filtered, filtered, 1, r -> r.k() != null
            && !r.k().equals("b") && (r.k().compareTo("a") >= 0 || r.k().equals("\u65e5\u672c"))),
        new Shape("a tumbling window and a string key",
            "SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, k, COUNT(*), SUM(v) FROM s"
                + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k",
            "SELECT w, k, COUNT(*), SUM(v) FROM s GROUP BY w, k", 2, r -> true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void shouldMatchH2AfterEveryInsertOnTheColumnarPath(Shape shape) throws Exception {
    Random random = new Random(shape.name().hashCode());
    String engineName = UUID.randomUUID().toString();
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
         H2Oracle h2 = new H2Oracle();
         Statement fs = freshet.createStatement();
         Statement query = freshet.createStatement()) {
      fs.execute("CREATE STREAM s (k VARCHAR, j INTEGER, v BIGINT, ts TIMESTAMP(3),"
          + " WATERMARK FOR ts AS ts - INTERVAL '1' HOUR) WITH (connector = 'memory')");
      h2.execute("CREATE TABLE s (k VARCHAR, j INTEGER, v BIGINT, ts TIMESTAMP(3),"
          + " w TIMESTAMP(3))");
      try (ResultSet rs = query.executeQuery(shape.freshet().replace("SELECT ", "SELECT STREAM ")
          + " EMIT UPDATE")) {
        assertTrue(onlyQuery(engineName).readsVectors(), shape + ": not on the columnar path");
        Map<String, List<String>> folded = new TreeMap<>();
        int rowsSoFar = 0;
        for (int batch = 0; batch < 8; batch++) {
          List<Row> rows = new ArrayList<>();
          // INSERT 4 spans two vector batches of 4,096 rows, whose dictionaries differ.
          int n = batch == 4 ? 4500 : 1 + random.nextInt(30);
          for (int i = 0; i < n; i++) {
            LocalDateTime ts = START.plusNanos((rowsSoFar++ * 337L) * 1_000_000L);
            rows.add(new Row(KEYS[random.nextInt(KEYS.length)],
                random.nextInt(6) == 0 ? null : random.nextInt(3),
                random.nextInt(6) == 0 ? null : random.nextInt(2001) - 1000L, ts,
                ts.withNano(0).withSecond(ts.getSecond() / 10 * 10)));
          }
          fs.executeUpdate("INSERT INTO s VALUES " + values(rows, false));
          h2.execute("INSERT INTO s VALUES " + values(rows, true));
          for (List<Object> row : PushResults.readData(rs, touchedKeys(shape, rows))) {
            List<String> normalized = normalize(row);
            folded.put(normalized.subList(0, shape.keyColumns()).toString(), normalized);
          }
          Map<String, List<String>> expected = new TreeMap<>();
          for (List<Object> h : h2.query(shape.h2())) {
            List<String> row = normalize(h);
            expected.put(row.subList(0, shape.keyColumns()).toString(), row);
          }
          assertEquals(expected, folded, shape + ", after INSERT " + batch);
        }
      }
    }
  }

  @Test void shouldReadRowsForAStringFunction() throws Exception {
    String engineName = UUID.randomUUID().toString();
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
         Statement fs = freshet.createStatement();
         Statement query = freshet.createStatement()) {
      fs.execute("CREATE STREAM s (k VARCHAR, v BIGINT) WITH (connector = 'memory')");
      try (ResultSet rs = query.executeQuery("SELECT STREAM UPPER(k) AS u, COUNT(*) FROM s"
          + " GROUP BY UPPER(k) EMIT UPDATE")) {
        assertEquals(false, onlyQuery(engineName).readsVectors());
        fs.executeUpdate("INSERT INTO s VALUES ('a', 1), ('A', 2), ('\u00e9', 3)");
        List<String> rows = new ArrayList<>();
        for (List<Object> row : PushResults.readData(rs, 2)) {
          rows.add(row.toString());
        }
        rows.sort(null);
        assertEquals(List.of("[A, 2]", "[\u00c9, 1]"), rows);
      }
    }
  }

  private static ContinuousQuery onlyQuery(String engineName) throws Exception {
    Engine engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
    List<ContinuousQuery> queries = engine.continuousQueries();
    assertEquals(1, queries.size());
    return queries.get(0);
  }

  /** Rows a batch emits in UPDATE mode: one per key it touched. */
  private static int touchedKeys(Shape shape, List<Row> rows) {
    Set<List<Object>> touched = new HashSet<>();
    for (Row row : rows) {
      if (shape.where().test(row)) {
        touched.add(shape.keyColumns() == 1 ? java.util.Arrays.asList(row.k())
            : shape.freshet().contains("TUMBLE") ? java.util.Arrays.asList(row.w(), row.k())
            : java.util.Arrays.asList(row.k(), row.j()));
      }
    }
    return touched.size();
  }

  /** Numbers as plain decimals (H2's SUM of BIGINT is a NUMERIC), timestamps as local times. */
  private static List<String> normalize(List<Object> row) {
    List<String> result = new ArrayList<>();
    for (Object v : row) {
      if (v instanceof Number) {
        result.add(new BigDecimal(v.toString()).stripTrailingZeros().toPlainString());
      } else if (v instanceof Timestamp t) {
        result.add(t.toLocalDateTime().toString());
      } else if (v instanceof LocalDateTime t) {
        result.add(t.toString());
      } else {
        result.add(v == null ? null : "'" + v + "'");
      }
    }
    return result;
  }

  private static String values(List<Row> rows, boolean withWindow) {
    StringBuilder sb = new StringBuilder();
    for (Row row : rows) {
      sb.append(sb.length() == 0 ? "(" : ", (")
          .append(row.k() == null ? "NULL" : "'" + row.k().replace("'", "''") + "'")
          .append(", ").append(row.j() == null ? "NULL" : row.j())
          .append(", ").append(row.v() == null ? "NULL" : row.v())
          .append(", ").append(timestamp(row.ts()));
      if (withWindow) {
        sb.append(", ").append(timestamp(row.w()));
      }
      sb.append(')');
    }
    return sb.toString();
  }

  private static String timestamp(LocalDateTime t) {
    return "TIMESTAMP '" + t.format(java.time.format.DateTimeFormatter.ofPattern(
        "yyyy-MM-dd HH:mm:ss.SSS")) + "'";
  }
}

package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.SparkTest;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The same view twice in one engine, once on Freshet's own executor and once on Spark
 * ({@code WITH ('engine' = 'spark')}), fed the same INSERTs one batch at a time: after every
 * batch both views hold exactly the same rows (so each batch's output is the same), and in the
 * end H2's batch query over every row. UPDATE with every aggregate, TUMBLE and HOP with a
 * watermark in APPEND, COMPLETE.
 */
@SparkTest
class SparkViewDifferentialTest extends EmbeddedEngineTest {
  /** Event-time batches; the last moves the watermark to 95 s and closes every window before. */
  private static final List<String> EVENTS = List.of(
      "('a', TIMESTAMP '1970-01-01 00:00:01', 10), ('b', TIMESTAMP '1970-01-01 00:00:03', 20),"
          + " ('a', TIMESTAMP '1970-01-01 00:00:09', 30)",
      "('a', TIMESTAMP '1970-01-01 00:00:12', 5)",
      "('b', TIMESTAMP '1970-01-01 00:00:16', 7), ('b', TIMESTAMP '1970-01-01 00:00:18', NULL)",
      // 2 s is late by now (watermark 13 s): dropped by both.
      "('a', TIMESTAMP '1970-01-01 00:00:27', 1), ('b', TIMESTAMP '1970-01-01 00:00:02', 2)",
      "('a', TIMESTAMP '1970-01-01 00:01:40', 3)");
  private static final List<String> CLICKS = List.of(
      "('a', '/buy', 5), ('b', '/x', 3), ('a', '/', 7)",
      "('c', '/b', 1), ('a', '/x', -2)",
      "('b', '/buy', 4)",
      "('d', '/', 9), ('c', '/q', 6), ('a', '/', 1)");
  /** The windows H2 may count: those the last watermark (95 s) closed; the late row is out. */
  private static final String CLOSED = "ts < TIMESTAMP '1970-01-01 00:01:30'"
      + " AND ts <> TIMESTAMP '1970-01-01 00:00:02'";

  private ViewOracle oracle;

  @BeforeEach void streams() throws SQLException {
    s.execute("CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3), v INTEGER,"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    s.execute("CREATE STREAM clicks (user_id VARCHAR, url VARCHAR, amount INTEGER)"
        + " WITH (connector = 'memory')");
    oracle = new ViewOracle("CREATE TABLE events (k VARCHAR, ts TIMESTAMP(3), v INTEGER)",
        "CREATE TABLE clicks (user_id VARCHAR, url VARCHAR, amount INTEGER)");
  }

  @AfterEach void closeOracle() throws SQLException {
    oracle.close();
  }

  @Test void shouldKeepTheSameRowsAsFreshetInUpdateWithEveryAggregate() throws Exception {
    compare("SELECT user_id, COUNT(*) AS n, SUM(amount) AS s, MIN(amount) AS lo,"
        + " MAX(amount) AS hi, AVG(CAST(amount AS DOUBLE)) AS av,"
        + " COUNT(*) FILTER (WHERE url LIKE '/b%') AS bought FROM clicks WHERE amount <> 3"
        + " GROUP BY user_id", "clicks", CLICKS,
        "SELECT user_id, COUNT(*), SUM(amount), MIN(amount), MAX(amount),"
        + " AVG(CAST(amount AS DOUBLE)), COUNT(CASE WHEN url LIKE '/b%' THEN 1 END)"
        + " FROM clicks WHERE amount <> 3 GROUP BY user_id");
  }

  @Test void shouldCloseTumblingWindowsAsFreshetInAppend() throws Exception {
    compare("SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, k, COUNT(*) AS n,"
        + " SUM(v) AS s FROM events GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k EMIT APPEND",
        "events", EVENTS,
        "SELECT DATEADD(SECOND, -MOD(DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', ts), 10),"
        + " ts) AS w, k, COUNT(*), SUM(v) FROM events WHERE " + CLOSED + " GROUP BY w, k");
  }

  @Test void shouldCloseHoppingWindowsAsFreshetInAppend() throws Exception {
    compare("SELECT window_start, window_end, COUNT(*) AS n, MAX(v) AS hi"
        + " FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND,"
        + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end EMIT APPEND",
        "events", EVENTS,
        "SELECT ws, DATEADD(SECOND, 10, ws), COUNT(*), MAX(v) FROM (SELECT DATEADD(SECOND,"
        + " -MOD(DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', ts), 5), ts) AS ws, v"
        + " FROM events WHERE " + CLOSED + " UNION ALL SELECT DATEADD(SECOND, -5 - MOD("
        + "DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', ts), 5), ts), v FROM events"
        + " WHERE " + CLOSED + ") GROUP BY ws");
  }

  @Test void shouldReplaceTheResultAsFreshetInComplete() throws Exception {
    compare("SELECT user_id, COUNT(*) AS n, MAX(amount) AS hi FROM clicks GROUP BY user_id"
        + " EMIT COMPLETE", "clicks", CLICKS,
        "SELECT user_id, COUNT(*), MAX(amount) FROM clicks GROUP BY user_id");
  }

  /**
   * Creates {@code query} as view {@code on_freshet} and as view {@code on_spark}, INSERTs each
   * batch of {@code batches} into {@code stream} (and H2), waits until both views' queries have
   * run it, and compares them; at the end compares them with {@code h2Sql}.
   */
  private void compare(String query, String stream, List<String> batches, String h2Sql)
      throws Exception {
    s.execute("CREATE MATERIALIZED VIEW on_freshet AS " + query);
    s.execute("CREATE MATERIALIZED VIEW on_spark WITH ('engine' = 'spark') AS " + query);
    boolean someRows = false;
    for (int step = 0; step < batches.size(); step++) {
      s.executeUpdate("INSERT INTO " + stream + " VALUES " + batches.get(step));
      oracle.execute("INSERT INTO " + stream + " VALUES " + batches.get(step));
      awaitIdle();
      List<List<Object>> onFreshet = sorted(ViewOracle.rows(s, "SELECT * FROM on_freshet"));
      List<List<Object>> onSpark = sorted(ViewOracle.rows(s, "SELECT * FROM on_spark"));
      assertEquals(onFreshet, onSpark, query + ", after batch " + step);
      someRows |= !onSpark.isEmpty();
    }
    assertTrue(someRows, "the test's batches must give rows");
    List<List<Object>> expected = sorted(normalized(oracle.rows(h2Sql)));
    assertFalse(expected.isEmpty());
    assertEquals(expected, sorted(normalized(ViewOracle.rows(s, "SELECT * FROM on_spark"))),
        "the final view of " + query);
  }

  /** Numbers by value with 12 significant digits: H2 types SUM and AVG apart from Freshet. */
  private static List<List<Object>> normalized(List<List<Object>> rows) {
    List<List<Object>> result = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object v : row) {
        values.add(v instanceof Number ? new BigDecimal(v.toString())
            .round(new MathContext(12)).stripTrailingZeros().toPlainString()
            : v == null ? null : v.toString());
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
}

package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.SparkTest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Joins of two streams as views on Spark ({@code WITH ('engine' = 'spark')}) and on Freshet's own
 * executor in one engine, fed the same INSERTs one batch at a time, each batch into one of the
 * two streams: after every batch both views hold exactly the same rows, and in the end H2's batch
 * query over every row that was not late. Inner with a time range and a residual condition, a
 * window over it, a self-join; LEFT, RIGHT and FULL outer, whose rows with NULLs come once the
 * watermark passes; and the refusals.
 */
@SparkTest
class SparkStreamJoinTest extends EmbeddedEngineTest {
  /**
   * Each step's stream and rows, event times in seconds. Both watermarks are 5 s behind; the
   * global one is their minimum (0 until both streams have rows above 5 s), computed at the end
   * of a batch: 0, 0, 11, 11, 20, 95 (a stream joined with itself has its own: 0, 0, 11, 11,
   * 95, 95).
   */
  private static final List<String[]> STEPS = List.of(
      step("impressions", "('a', " + t(1) + "), ('b', " + t(2) + "), ('c', " + t(3) + ")"),
      step("clicks", "('a', " + t(4) + "), ('b', " + t(20) + ")"),
      // g at 10 s matches no click: 10 s behind the watermark of step 4, 20 s, it is exactly
      // at the boundary where Freshet and Spark part (see LAG).
      step("impressions", "('b', " + t(15) + "), ('d', " + t(16) + "), ('g', " + t(10) + ")"),
      // c at 5 s is late (at or before the watermark, 11 s): both drop it, though it would
      // match the impression c at 3 s. a at 12 s is not late and matches nothing.
      step("clicks", "('a', " + t(12) + "), ('d', " + t(25) + "), ('c', " + t(5) + ")"),
      step("impressions", "('f', " + t(30) + "), ('e', " + t(100) + ")"),
      step("clicks", "('e', " + t(100) + ")"));
  /** The step after which the watermark (20 s) first passes b's and c's impressions plus 10 s. */
  private static final int FIRST_NULLS = 4;
  /**
   * Where Spark is one watermark move behind Freshet, by design. Both drop a row from a join's
   * state once no later row can match it: with the global watermark w, a left row at
   * {@code its} can match no click once {@code its + 10 s <= w} (later clicks are after w).
   * Freshet takes that bound exactly ({@code TimeRange.leftStateWatermark}: rows at or before
   * {@code w - 10 s}); Spark's {@code StreamingJoinHelper.getStateValueWatermark} subtracts 1 ms
   * from it for an inclusive bound such as BETWEEN's (rows at or before {@code w - 10 s - 1 ms}),
   * and its join's output watermark ({@code produceOutputWatermark}) is that too. So a row
   * exactly at the bound leaves Spark's state, with its row with NULLs or the window it closes,
   * in the next batch that moves the watermark; nothing else differs.
   */
  private static final int LAG = FIRST_NULLS;
  /** H2's rows of both streams, without the late click. */
  private static final String NOT_LATE = "NOT (c.ad = 'c' AND c.cts = " + t(5) + ")";
  private static final String ON = " ON i.ad = c.ad AND c.cts BETWEEN i.its AND i.its"
      + " + INTERVAL '10' SECOND";

  private ViewOracle oracle;

  @BeforeEach void streams() throws SQLException {
    s.execute("CREATE STREAM impressions (ad VARCHAR, its TIMESTAMP(3),"
        + " WATERMARK FOR its AS its - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    s.execute("CREATE STREAM clicks (ad VARCHAR, cts TIMESTAMP(3),"
        + " WATERMARK FOR cts AS cts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    oracle = new ViewOracle("CREATE TABLE impressions (ad VARCHAR, its TIMESTAMP(3))",
        "CREATE TABLE clicks (ad VARCHAR, cts TIMESTAMP(3))");
  }

  @AfterEach void closeOracle() throws SQLException {
    oracle.close();
  }

  @Test void shouldJoinWithinTheTimeRangeAndCloseWindowsOverTheJoinAsFreshet()
      throws Exception {
    compare(step -> { },
        // The residual (over both sides, with an interval) leaves out a's click 3 s after the
        // impression.
        new View("SELECT i.ad, i.its, c.cts FROM impressions i JOIN clicks c" + ON
            + " AND c.cts <> i.its + INTERVAL '3' SECOND",
            "SELECT i.ad, i.its, c.cts FROM impressions i JOIN clicks c" + ON
            + " AND c.cts <> DATEADD(SECOND, 3, i.its) WHERE " + NOT_LATE, List.of()),
        // The join's output watermark is the global one 10 s back (its range's widest bound):
        // the last, 95 s, closes the windows ending by 85 s. The window [0 s, 10 s) closes at
        // output watermark 10 s: Freshet's after step LAG (20 s - 10 s), Spark's only after the
        // next (its is 20 s - 10 s - 1 ms then).
        new View("SELECT TUMBLE_START(i.its, INTERVAL '10' SECOND) AS w, COUNT(*) AS n"
            + " FROM impressions i JOIN clicks c" + ON
            + " GROUP BY TUMBLE(i.its, INTERVAL '10' SECOND) EMIT APPEND",
            "SELECT DATEADD(SECOND, -MOD(DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00',"
            + " i.its), 10), i.its) AS w, COUNT(*) FROM impressions i JOIN clicks c" + ON
            + " WHERE " + NOT_LATE + " AND i.its < " + t(80) + " GROUP BY w",
            List.of(List.of("1970-01-01T00:00", 1L))),
        // A stream joined with itself: Spark reads one source twice in one plan.
        new View("SELECT a.ad, a.its, b.its AS later FROM impressions a JOIN impressions b"
            + " ON a.ad = b.ad AND b.its BETWEEN a.its AND a.its + INTERVAL '10' SECOND",
            "SELECT a.ad, a.its, b.its FROM impressions a JOIN impressions b ON a.ad = b.ad"
            + " AND b.its BETWEEN a.its AND a.its + INTERVAL '10' SECOND", List.of()));
  }

  @Test void shouldEmitTheRowsWithNullsOnceTheWatermarkPassesInOuterJoins()
      throws Exception {
    List<Object> bNull = Arrays.asList("b", "1970-01-01T00:00:02", null, null);
    List<Object> cNull = Arrays.asList("c", "1970-01-01T00:00:03", null, null);
    // g's impression at 10 s is exactly 10 s behind the watermark after step LAG, 20 s.
    List<Object> gNull = Arrays.asList("g", "1970-01-01T00:00:10", null, null);
    // a's click at 12 s matches no impression once the watermark passes 12 s.
    List<Object> aNull = Arrays.asList(null, null, "a", "1970-01-01T00:00:12");
    String columns = "SELECT i.ad, i.its, c.ad AS cad, c.cts FROM impressions i ";
    compare(step -> {
          List<List<Object>> left = spark(0);
          // b's and c's impressions can match no click once the watermark passes 12 s and
          // 13 s (it is 20 s after step FIRST_NULLS, 11 s before): then their rows with NULLs
          // come, once.
          assertEquals(step >= FIRST_NULLS, left.contains(bNull), "after step " + step + ": "
              + left);
          assertEquals(step >= FIRST_NULLS, left.contains(cNull), "after step " + step + ": "
              + left);
          assertEquals(left.size(), left.stream().distinct().count(), left::toString);
          List<List<Object>> full = spark(2);
          assertEquals(step >= FIRST_NULLS, full.contains(aNull), "after step " + step + ": "
              + full);
          assertEquals(step >= FIRST_NULLS, full.contains(bNull), "after step " + step + ": "
              + full);
        },
        new View(columns + "LEFT JOIN clicks c" + ON,
            columns + "LEFT JOIN clicks c" + ON + " AND " + NOT_LATE, List.of(gNull)),
        new View(columns + "RIGHT JOIN clicks c" + ON,
            columns + "RIGHT JOIN clicks c" + ON + " WHERE " + NOT_LATE, List.of()),
        // The FULL join's rows, written for H2 as the LEFT JOIN's and the clicks that match
        // nothing.
        new View(columns + "FULL JOIN clicks c" + ON,
            columns + "LEFT JOIN clicks c" + ON + " AND " + NOT_LATE + " UNION ALL SELECT NULL,"
            + " NULL, c.ad, c.cts FROM clicks c WHERE " + NOT_LATE + " AND NOT EXISTS (SELECT 1"
            + " FROM impressions i WHERE i.ad = c.ad AND c.cts BETWEEN i.its AND i.its"
            + " + INTERVAL '10' SECOND)", List.of(gNull)));
  }

  @Test void shouldRefuseAJoinOfASideWithTwoEventTimesBeforeSparkAndLeaveNothing()
      throws Exception {
    // The first join's rows carry both streams' event times; Spark would fail the first batch.
    SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED VIEW"
        + " twice WITH ('engine' = 'spark') AS SELECT i.ad, c.cts, d.cts AS again"
        + " FROM impressions i JOIN clicks c" + ON + " JOIN clicks d ON d.ad = i.ad"
        + " AND d.cts BETWEEN i.its AND i.its + INTERVAL '5' SECOND"));
    assertEquals("0A000", e.getSQLState(), e.getMessage());
    assertEquals("A join of rows with 2 event-time columns (such as another join's) is not yet"
        + " on Spark: select one event-time column of that side in a subquery, or run the query"
        + " on Freshet's own executor", e.getMessage());
    assertEquals(List.of(), ViewOracle.rows(s, "SELECT name FROM sys.queries"));
  }

  @Test void shouldRefuseAnOuterJoinWithoutARangeBeforeSparkAndLeaveNothing() throws Exception {
    // The planner refuses it before the view reaches Spark, as Spark would when it starts it.
    SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED VIEW"
        + " unbounded WITH ('engine' = 'spark') AS SELECT i.ad, c.cts FROM impressions i"
        + " LEFT JOIN clicks c ON i.ad = c.ad"));
    assertEquals("42KDE", e.getSQLState(), e.getMessage());
    assertEquals("A LEFT OUTER join of two streams needs a watermark on both streams and a range"
        + " of event times in its condition that bounds the right side's event time by the"
        + " left's, because otherwise no row could ever be known to have no match, and its row"
        + " with NULLs would never be emitted. Declare WATERMARK FOR ts AS ts - INTERVAL '5'"
        + " SECOND on both streams and bound the times, e.g. ON l.k = r.k AND l.ts BETWEEN"
        + " r.ts - INTERVAL '10' SECOND AND r.ts + INTERVAL '10' SECOND", e.getMessage());
    assertEquals(List.of(), ViewOracle.rows(s, "SELECT name FROM sys.queries"));
  }

  @Test void shouldRefuseAJoinWithoutEqualColumnsBeforeSparkAndLeaveNothing() throws Exception {
    SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED VIEW"
        + " unkeyed WITH ('engine' = 'spark') AS SELECT i.ad, c.cts FROM impressions i"
        + " JOIN clicks c ON c.cts BETWEEN i.its AND i.its + INTERVAL '10' SECOND"));
    assertEquals("0A000", e.getSQLState(), e.getMessage());
    assertEquals("A join of two streams without an equality of a column of each (ON l.k = r.k)"
        + " is not supported on a stream by Spark. Add an equality of columns to the join's"
        + " condition, or run the query on Freshet's own executor", e.getMessage());
    assertEquals(List.of(), ViewOracle.rows(s, "SELECT name FROM sys.queries"));
    // Freshet's own executor runs it.
    s.execute("CREATE MATERIALIZED VIEW unkeyed AS SELECT i.ad, c.cts FROM impressions i"
        + " JOIN clicks c ON c.cts BETWEEN i.its AND i.its + INTERVAL '10' SECOND");
    assertEquals(List.of(List.of("UNKEYED")), ViewOracle.rows(s, "SELECT name FROM sys.queries"));
  }

  /**
   * A view's query, H2's query of its final rows, and the rows of Freshet's view that Spark's
   * lacks after step {@link #LAG}.
   */
  private record View(String query, String h2Sql, List<List<Object>> lagging) {
  }

  /**
   * Creates each view's query as view {@code on_freshet_<i>} and as view {@code on_spark_<i>},
   * INSERTs each step's rows (and into H2), waits until every view's query has run them,
   * compares the views (after step {@link #LAG}, Spark's must be Freshet's without the view's
   * {@code lagging}) and hands the step's index to {@code afterStep}; at the end compares the
   * views on Spark with H2.
   */
  private void compare(Consumer<Integer> afterStep, View... views) throws Exception {
    for (int v = 0; v < views.length; v++) {
      s.execute("CREATE MATERIALIZED VIEW on_freshet_" + v + " AS " + views[v].query());
      s.execute("CREATE MATERIALIZED VIEW on_spark_" + v + " WITH ('engine' = 'spark') AS "
          + views[v].query());
    }
    for (int step = 0; step < STEPS.size(); step++) {
      String insert = "INSERT INTO " + STEPS.get(step)[0] + " VALUES " + STEPS.get(step)[1];
      s.executeUpdate(insert);
      oracle.execute(insert);
      awaitIdle();
      for (int v = 0; v < views.length; v++) {
        List<List<Object>> onFreshet =
            sorted(ViewOracle.rows(s, "SELECT * FROM on_freshet_" + v));
        if (step == LAG) {
          List<List<Object>> lagging = views[v].lagging();
          assertTrue(onFreshet.containsAll(lagging), "Freshet's view after step " + step
              + " lacks " + lagging + ": " + onFreshet);
          onFreshet.removeAll(lagging);
        }
        assertEquals(onFreshet, spark(v), views[v].query() + ", after step " + step);
      }
      afterStep.accept(step);
    }
    for (int v = 0; v < views.length; v++) {
      List<List<Object>> expected = sorted(oracle.rows(views[v].h2Sql()));
      assertFalse(expected.isEmpty());
      assertEquals(expected, spark(v), "the final view of " + views[v].query());
    }
  }

  private List<List<Object>> spark(int view) {
    try {
      return sorted(ViewOracle.rows(s, "SELECT * FROM on_spark_" + view));
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static String[] step(String stream, String rows) {
    return new String[] {stream, rows};
  }

  /** The TIMESTAMP literal {@code seconds} after the epoch. */
  private static String t(int seconds) {
    return String.format("TIMESTAMP '1970-01-01 00:%02d:%02d'", seconds / 60, seconds % 60);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }
}

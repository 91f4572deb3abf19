package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keyed results on Spark ({@code SparkPlanTranslator.translate(query, true)}): each row is the
 * query's columns, the top aggregate's group key and whether HAVING admits the group, in
 * Freshet's values ({@link SparkRows}), so that a view can upsert and delete by group.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkKeyedTest {
  private static SparkBench bench;

  @BeforeAll static void startSpark() throws Exception {
    bench = new SparkBench();
  }

  @AfterAll static void stopSpark() {
    bench.close();
  }

  @Test void shouldEndEachRowWithItsGroupKeyWhenTheQueryHasNoKeyColumn() throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id", EmitMode.UPDATE, "CLICKS", true)) {
      assertEquals(rows(row(2L, "a", true), row(1L, "b", true)),
          freshet(spark.add(batch(click("a", 1), click("b", 2), click("a", 3)))));
      assertEquals(rows(row(3L, "a", true)), freshet(spark.add(batch(click("a", 4)))));
    }
  }

  @Test void shouldEmitAGroupThatStopsPassingHavingAsNotAdmittedWhenUpdate() throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM COUNT(*) AS n FROM clicks"
        + " GROUP BY user_id HAVING SUM(amount) > 5", EmitMode.UPDATE, "CLICKS", true)) {
      // a: 7 passes; b: 2 does not; c: SUM is NULL, which HAVING does not admit.
      assertEquals(rows(row(2L, "a", true), row(1L, "b", false), row(1L, "c", false)),
          freshet(spark.add(batch(click("a", 3), click("a", 4), click("b", 2),
              click("c", null)))));
      // a: 7 - 4 = 3 stops passing; its row must reach the view, which deletes it.
      assertEquals(rows(row(3L, "a", false)), freshet(spark.add(batch(click("a", -4)))));
      // a: 13 passes again; b: 8 now passes.
      assertEquals(rows(row(4L, "a", true), row(2L, "b", true)),
          freshet(spark.add(batch(click("a", 10), click("b", 6)))));
    }
  }

  @Test void shouldKeyAWindowedAggregateByTheWindowAndDropLateRowsWhenUpdate()
      throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM"
        + " TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, k, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k", EmitMode.UPDATE, "EVENTS", true)) {
      // The key in the group set's order: the window's start (epoch milliseconds; GROUP BY
      // TUMBLE groups by it alone), then k.
      assertEquals(rows(row(0L, "a", 2L, 0L, "a", true), row(0L, "b", 1L, 0L, "b", true)),
          freshet(spark.add(batch(event("a", 1), event("b", 3), event("a", 9)))));
      assertEquals(rows(row(10_000L, "a", 1L, 10_000L, "a", true)),
          freshet(spark.add(batch(event("a", 12)))));
      // Watermark 25 s: [0, 10) and [10, 20) are closed.
      assertEquals(rows(row(30_000L, "b", 1L, 30_000L, "b", true)),
          freshet(spark.add(batch(event("b", 30)))));
      // Late for the closed [0, 10): dropped, no row.
      assertEquals(rows(), freshet(spark.add(batch(event("a", 2)))));
    }
  }

  @Test void shouldEmitEveryGroupWithItsAdmissionEachBatchWhenComplete() throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM user_id, COUNT(*) AS n"
        + " FROM clicks GROUP BY user_id HAVING COUNT(*) > 1", EmitMode.COMPLETE, "CLICKS",
        true)) {
      assertEquals(rows(row("a", 2L, "a", true), row("b", 1L, "b", false)),
          freshet(spark.add(batch(click("a", 1), click("b", 2), click("a", 3)))));
      assertEquals(rows(row("a", 2L, "a", true), row("b", 2L, "b", true)),
          freshet(spark.add(batch(click("b", 4)))));
    }
  }

  @Test void shouldKeepTheQueryColumnsOnlyAndApplyHavingWhenNotKeyed() throws Exception {
    String sql = "SELECT STREAM user_id, COUNT(*) AS n FROM clicks GROUP BY user_id"
        + " HAVING COUNT(*) > 1";
    SparkQuery keyed = bench.translate(sql, EmitMode.UPDATE, true).query();
    assertTrue(keyed.keyed());
    assertEquals(1, keyed.keyColumns());
    assertEquals(List.of("USER_ID", "N", "_KEY0", "_ADMITTED"),
        Arrays.asList(keyed.result().columns()));

    SparkQuery plain = bench.translate(sql, EmitMode.UPDATE).query();
    assertFalse(plain.keyed());
    assertEquals(0, plain.keyColumns());
    assertEquals(List.of("USER_ID", "N"), Arrays.asList(plain.result().columns()));
    try (SparkBench.Running spark = bench.start(sql, EmitMode.UPDATE, "CLICKS")) {
      assertEquals(rows(row("a", 2L)),
          freshet(spark.add(batch(click("a", 1), click("b", 2), click("a", 3)))));
    }
  }

  @Test void shouldRefuseKeyedRowsOfAQueryThatDoesNotAggregate() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> bench.translate("SELECT STREAM user_id FROM clicks WHERE amount > 1",
            EmitMode.APPEND, true));
    assertTrue(e.getMessage().startsWith("Keyed rows are an aggregation's"), e::getMessage);
  }

  @Test void shouldRefuseAnOperatorSparkDoesNotRunOnTheWayToTheAggregateAsWhenNotKeyed() {
    // Not "no aggregate" (the engine's mistake) but the query's: the error the user sees.
    SQLException e = assertThrows(SQLException.class, () -> bench.translate("SELECT STREAM"
        + " user_id, amount FROM (SELECT user_id, amount, ROW_NUMBER() OVER (PARTITION BY"
        + " user_id ORDER BY amount DESC) AS r FROM clicks) WHERE r <= 2", EmitMode.UPDATE,
        true));
    assertEquals("0A000", e.getSQLState(), e::getMessage);
    assertTrue(e.getMessage().startsWith("A top-N (ROW_NUMBER() ... <= n) is not yet on Spark"),
        e::getMessage);
  }

  /** Every row the batches delivered, in Freshet's values, in a stable order. */
  private static List<List<Object>> freshet(List<SparkBench.Batch> batches) {
    List<List<Object>> rows = new ArrayList<>();
    batches.forEach(batch -> rows.addAll(batch.freshetRows()));
    rows.sort(Comparator.comparing(Object::toString));
    return rows;
  }

  @SafeVarargs
  private static List<List<Object>> rows(List<Object>... rows) {
    List<List<Object>> sorted = new ArrayList<>(List.of(rows));
    sorted.sort(Comparator.comparing(Object::toString));
    return sorted;
  }

  private static List<Object[]> batch(Object[]... rows) {
    return List.of(rows);
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  private static Object[] click(String user, Integer amount) {
    return new Object[] {user, "/", amount};
  }

  private static Object[] event(String k, int second) {
    return new Object[] {k, LocalDateTime.of(1970, 1, 1, 0, 0).plusSeconds(second), 1};
  }
}

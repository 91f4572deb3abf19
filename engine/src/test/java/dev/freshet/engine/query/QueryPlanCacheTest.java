package dev.freshet.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;

/**
 * Pull queries reuse their plan while the catalog is unchanged, and only then: a plan of a view
 * dropped and created again is made afresh, and each run reads the latest batch.
 */
class QueryPlanCacheTest {
  private static final java.time.Duration DEADLINE = java.time.Duration.ofSeconds(60);

  private final Engine engine = new Engine("plan-cache-test");
  private final Session session = engine.openSession();

  @AfterEach void close() {
    engine.close();
  }

  @Test void shouldFindAPlanOnlyForItsCatalogVersionAndDropTheLeastRecentlyUsed() {
    QueryPlanCache<String> cache = new QueryPlanCache<>(2);
    cache.put("a", 1, "plan a");
    cache.put("b", 1, "plan b");
    assertEquals("plan a", cache.get("a", 1));
    assertNull(cache.get("a", 2), "a plan of another catalog version");
    assertNull(cache.get("a", 1), "a stale plan is dropped");
    cache.put("a", 2, "plan a2");
    cache.get("b", 1);
    cache.put("c", 2, "plan c");
    // "a" was used least recently: "b" was read after it was put.
    assertNull(cache.get("a", 2));
    assertEquals("plan b", cache.get("b", 1));
    assertEquals("plan c", cache.get("c", 2));
    assertEquals(2, cache.size());
  }

  private List<List<Object>> rows(String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(sql)).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private void awaitIdle(String view) throws InterruptedException {
    assertTrue(engine.query(view).orElseThrow().processAllAvailable(DEADLINE),
        view + " did not catch up within " + DEADLINE);
  }

  @Test void shouldReusePlansWhileTheCatalogIsUnchanged() throws Exception {
    session.execute("CREATE STREAM clicks (user_id VARCHAR, n INTEGER)");
    session.execute("CREATE MATERIALIZED VIEW per_user AS SELECT user_id, SUM(n) AS total"
        + " FROM clicks GROUP BY user_id");
    session.execute("INSERT INTO clicks VALUES ('a', 1)");
    awaitIdle("PER_USER");
    String sql = "SELECT * FROM per_user";
    PullQueryExecutor pull = engine.pullQueries();
    PullQueryExecutor.Prepared first = pull.prepare(Session.parse(sql));
    assertEquals(List.of(List.of("a", 1L)), rows(sql));
    // The same SQL, spelled differently, is the same plan; it reads the latest batch.
    assertSame(first, pull.prepare(Session.parse("select *  from PER_USER")));
    session.execute("INSERT INTO clicks VALUES ('a', 2)");
    awaitIdle("PER_USER");
    assertEquals(List.of(List.of("a", 3L)), rows(sql));

    // A view of the same name with other columns: the cached plan is not used.
    session.execute("DROP MATERIALIZED VIEW per_user");
    session.execute("CREATE MATERIALIZED VIEW per_user AS SELECT user_id, COUNT(*) AS c,"
        + " MAX(n) AS top FROM clicks GROUP BY user_id");
    awaitIdle("PER_USER");
    assertEquals(List.of(List.of("a", 2L, 2)), rows(sql));
    assertNotSame(first, pull.prepare(Session.parse(sql)));
  }

  @Test void shouldReadTheClockOfEachRunWhenThePlanIsReused() throws Exception {
    String sql = "SELECT CURRENT_TIMESTAMP FROM sys.queries UNION ALL SELECT CURRENT_TIMESTAMP"
        + " FROM (VALUES (1))";
    Object first = rows(sql).get(0).get(0);
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (first.equals(rows(sql).get(0).get(0))) {
      assertTrue(System.nanoTime() < deadline, "CURRENT_TIMESTAMP stayed " + first);
    }
  }
}

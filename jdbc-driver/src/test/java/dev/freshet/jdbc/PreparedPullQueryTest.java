package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.row;
import static dev.freshet.jdbc.ViewResults.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A prepared plain query over a view keeps its parameter markers: it is planned and compiled
 * once, and every execution runs that plan with its own values.
 */
class PreparedPullQueryTest {
  private final String engineName = UUID.randomUUID().toString();

  @Test void shouldPlanAPreparedKeyLookupOnceAndAnswerEveryKeyExactly() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
         Statement s = c.createStatement()) {
      // 2,000 rows in 500 groups: group k holds k, k + 500, k + 1000, k + 1500.
      s.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence', 'end' = '2000')");
      s.execute("CREATE MATERIALIZED VIEW v AS SELECT n % 500 AS k, SUM(n) AS c FROM nums"
          + " GROUP BY n % 500");
      awaitRows(s, "SELECT COUNT(*), SUM(c) FROM v", List.of(row(500L, 1999L * 2000 / 2)));
      Engine engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
      try (PreparedStatement p = c.prepareStatement("SELECT c FROM v WHERE k = ?")) {
        long plansBefore = engine.pullQueries().plansCompiled();
        for (int i = 0; i < 200; i++) {
          // Keys -50 to 649: some of them no group's.
          long key = (i * 7L) % 700 - 50;
          p.setLong(1, key);
          List<List<Object>> expected =
              key >= 0 && key < 500 ? List.of(row(4 * key + 3000)) : List.of();
          assertEquals(expected, rows(p.executeQuery()), "key " + key);
        }
        assertEquals(1, engine.pullQueries().plansCompiled() - plansBefore,
            "plans compiled for 200 executions of one prepared statement");
        // Nor is anything compiled at each execution: Calcite's interpreter, which ran a view's
        // filtered scan, compiled (and loaded) a class for its filter every time.
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        long loaded = classes.getTotalLoadedClassCount();
        for (int i = 0; i < 100; i++) {
          p.setLong(1, i);
          assertEquals(List.of(row(4L * i + 3000)), rows(p.executeQuery()));
        }
        long loadedByLookups = classes.getTotalLoadedClassCount() - loaded;
        assertTrue(loadedByLookups < 20, loadedByLookups + " classes loaded by 100 lookups");
      }
    }
  }
}

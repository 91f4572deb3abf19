package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.testkit.oracle.H2Oracle;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Differential test of a view over an UPDATE view: random rows go into a stream in 1,000 random
 * small batches; an upstream view aggregates them per key (and a HAVING clause drops and brings
 * back groups), a downstream view aggregates the upstream view's rows per {@code MOD(c, 3)}, so
 * that every upstream update moves a key between downstream groups, retracts minimums and
 * empties groups. After every batch, once the downstream view has caught up, it must equal H2
 * running the nested SQL over every row inserted so far.
 */
class ViewOverViewOracleTest {
  private static final int BATCHES = 1_000;
  private static final String[] KEYS = {"a", "b", "c", "d", "e"};
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  /** Upstream: per key; a key whose row count is a multiple of 4 leaves the view for a while. */
  private static final String UPSTREAM = "SELECT k, COUNT(*) AS c, SUM(x) AS s, MIN(x) AS lo"
      + " FROM s GROUP BY k HAVING MOD(COUNT(*), 4) <> 0";
  private static final String DOWNSTREAM = "SELECT MOD(c, 3) AS g, COUNT(*) AS n,"
      + " SUM(s) AS total, AVG(CAST(s AS DOUBLE)) AS mean, MIN(lo) AS low, MAX(c) AS top"
      + " FROM %s GROUP BY MOD(c, 3)";

  @Test void shouldStayEqualToTheOracleAfterEveryOneOfAThousandRandomBatches() throws Exception {
    Random random = new Random(18);
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine="
            + UUID.randomUUID());
         H2Oracle h2 = new H2Oracle();
         Statement s = freshet.createStatement();
         Statement oracle = h2.connection().createStatement()) {
      s.execute("CREATE STREAM s (k VARCHAR, x BIGINT) WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW v AS " + UPSTREAM);
      s.execute("CREATE MATERIALIZED VIEW w AS " + DOWNSTREAM.formatted("v"));
      h2.createTable("s", "k VARCHAR, x BIGINT");
      String expectedSql = DOWNSTREAM.formatted("(" + UPSTREAM + ")");
      for (int batch = 0; batch < BATCHES; batch++) {
        StringBuilder values = new StringBuilder();
        int rows = 1 + random.nextInt(3);
        for (int i = 0; i < rows; i++) {
          String x = random.nextInt(10) == 0 ? "NULL" : Integer.toString(random.nextInt(101) - 50);
          values.append(i == 0 ? "" : ", ").append("('")
              .append(KEYS[random.nextInt(KEYS.length)]).append("', ").append(x).append(')');
        }
        s.execute("INSERT INTO s VALUES " + values);
        h2.execute("INSERT INTO s VALUES " + values);
        awaitEqual(batch, s, rows(oracle, expectedSql));
      }
    }
  }

  /** Re-reads w until it equals {@code expected}; fails after {@link #DEADLINE}. */
  private static void awaitEqual(int batch, Statement s, Map<List<Object>, Integer> expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    Map<List<Object>, Integer> actual = rows(s, "SELECT g, n, total, mean, low, top FROM w");
    while (!actual.equals(expected)) {
      if (System.nanoTime() > deadline) {
        fail("after batch " + batch + " and " + DEADLINE + ", w is " + actual + ", not "
            + expected);
      }
      actual = rows(s, "SELECT g, n, total, mean, low, top FROM w");
    }
  }

  /**
   * The rows of {@code sql}, counted, with every number as a double (H2 types SUM and AVG
   * otherwise): the values here are integers and their averages, exact in a double.
   */
  private static Map<List<Object>, Integer> rows(Statement statement, String sql)
      throws SQLException {
    Map<List<Object>, Integer> rows = new HashMap<>();
    try (ResultSet rs = statement.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof Number n ? (Object) n.doubleValue() : v);
        }
        rows.merge(row, 1, Integer::sum);
      }
    }
    return rows;
  }
}

package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.rows;
import static dev.freshet.jdbc.ViewResults.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pull queries whose filters fix a view's key: the view's result then reads only the key's row,
 * and every query returns what H2 returns over the same rows, with or without such a filter.
 */
class ViewKeyLookupTest {
  /** Views in Freshet, and the same as plain views over the same rows in H2, the oracle. */
  private static final String[][] VIEWS = {
      {"CREATE MATERIALIZED VIEW by_k AS SELECT n % 10 AS k, COUNT(*) AS c, SUM(n) AS s"
          + " FROM nums GROUP BY n % 10 EMIT UPDATE",
          "CREATE VIEW by_k AS SELECT MOD(n, 10) AS k, COUNT(*) AS c, SUM(n) AS s FROM nums"
              + " GROUP BY MOD(n, 10)"},
      {"CREATE MATERIALIZED VIEW by_name AS SELECT name, COUNT(*) AS c FROM nums GROUP BY name"
          + " EMIT UPDATE",
          "CREATE VIEW by_name AS SELECT name, COUNT(*) AS c FROM nums GROUP BY name"},
      // Grouped by name but showing UPPER(name): u is not the key, 'ann' and 'Ann' both show ANN.
      {"CREATE MATERIALIZED VIEW upper_names AS SELECT UPPER(name) AS u, COUNT(*) AS c"
          + " FROM nums GROUP BY name EMIT UPDATE",
          "CREATE VIEW upper_names AS SELECT UPPER(name) AS u, COUNT(*) AS c FROM nums"
              + " GROUP BY name"}};

  private static final String[] QUERIES = {
      "SELECT * FROM by_k",
      "SELECT c, s FROM by_k WHERE k = 3",
      "SELECT c, s FROM by_k WHERE 3 = k",
      "SELECT * FROM by_k WHERE k = -7",
      "SELECT * FROM by_k WHERE k = 42",
      "SELECT * FROM by_k WHERE k = 3 AND c > 1",
      "SELECT * FROM by_k WHERE k = 3 AND c > 100",
      "SELECT * FROM by_k WHERE k = 3 AND k = 4",
      "SELECT * FROM by_k WHERE k = 3 OR k = 5",
      "SELECT * FROM by_k WHERE k = 3 OR c = 6",
      "SELECT * FROM by_k WHERE k IN (1, 2, 3)",
      "SELECT * FROM by_k WHERE k = 3.5",
      "SELECT COUNT(*) FROM by_k WHERE k = 3",
      "SELECT a.k, b.s FROM by_k a JOIN by_k b ON a.k = b.k WHERE a.k = 2",
      "SELECT * FROM by_name",
      "SELECT c FROM by_name WHERE name = 'ann'",
      "SELECT c FROM by_name WHERE name = 'Ann'",
      "SELECT c FROM by_name WHERE name = 'zed'",
      "SELECT * FROM by_name WHERE name IS NULL",
      "SELECT * FROM by_name WHERE name = 'ann' OR name IS NULL",
      "SELECT * FROM by_name WHERE name = 'bob' AND c = 14",
      "SELECT * FROM upper_names WHERE u = 'ANN'",
      "SELECT * FROM upper_names"};

  private final String url = "jdbc:freshet:engine=" + UUID.randomUUID();
  private Connection freshet;
  private Connection h2;

  @BeforeEach void loadBoth() throws Exception {
    freshet = DriverManager.getConnection(url);
    h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
    StringBuilder values = new StringBuilder();
    String[] names = {"'ann'", "'Ann'", "'bob'", "NULL"};
    // n from -15 to 40: negative keys too; each name on every fourth row.
    for (int n = -15; n <= 40; n++) {
      values.append(values.length() == 0 ? "" : ", ").append('(').append(n).append(", ")
          .append(names[(n + 15) % 4]).append(')');
    }
    try (Statement f = freshet.createStatement(); Statement h = h2.createStatement()) {
      f.execute("CREATE STREAM nums (n BIGINT NOT NULL, name VARCHAR)"
          + " WITH (connector = 'memory')");
      h.execute("CREATE TABLE nums (n BIGINT NOT NULL, name VARCHAR)");
      for (String[] view : VIEWS) {
        f.execute(view[0]);
        h.execute(view[1]);
      }
      f.executeUpdate("INSERT INTO nums (n, name) VALUES " + values);
      h.executeUpdate("INSERT INTO nums (n, name) VALUES " + values);
      for (String view : new String[] {"by_k", "by_name", "upper_names"}) {
        awaitSameRows(f, "SELECT * FROM " + view, normalized(query(h, "SELECT * FROM " + view)));
      }
    }
  }

  @AfterEach void close() throws Exception {
    freshet.close();
    h2.close();
  }

  @Test void shouldAnswerEveryQueryAsH2WithOrWithoutAKeyFilter() throws Exception {
    try (Statement f = freshet.createStatement(); Statement h = h2.createStatement()) {
      for (String sql : QUERIES) {
        List<List<Object>> expected = normalized(query(h, sql));
        assertTrue(ViewResults.sameRows(normalized(query(f, sql)), expected),
            sql + " returned " + query(f, sql) + ", not " + expected);
      }
      // Not vacuous: the lookups find rows, and the hidden-key view shows two groups as ANN.
      assertEquals(List.of(List.of("4", "72")), normalized(query(f,
          "SELECT c, s FROM by_k WHERE k = 3")));
      assertEquals(2, query(f, "SELECT * FROM upper_names WHERE u = 'ANN'").size());
    }
  }

  @Test void shouldLookUpAKeyGivenAsAParameter() throws Exception {
    try (PreparedStatement f = freshet.prepareStatement("SELECT c, s FROM by_k WHERE k = ?");
         PreparedStatement h = h2.prepareStatement("SELECT c, s FROM by_k WHERE k = ?")) {
      for (long k : new long[] {3, -7, 42}) {
        f.setLong(1, k);
        h.setLong(1, k);
        assertEquals(normalized(rows(h.executeQuery())), normalized(rows(f.executeQuery())),
            "k = " + k);
      }
      f.setInt(1, 9);
      assertEquals(List.of(List.of("4", "96")), normalized(rows(f.executeQuery())));
    }
    try (PreparedStatement f = freshet.prepareStatement("SELECT c FROM by_name WHERE name = ?")) {
      f.setString(1, "bob");
      assertEquals(List.of(List.of("14")), normalized(rows(f.executeQuery())));
      f.setString(1, "nobody");
      assertEquals(List.of(), rows(f.executeQuery()));
    }
  }

  @Test void shouldHandTheViewItsFiltersInThePlan() throws Exception {
    try (Statement f = freshet.createStatement();
         ResultSet rs = f.executeQuery("EXPLAIN PLAN FOR SELECT c, s FROM by_k WHERE k = 3")) {
      assertTrue(rs.next());
      assertEquals("EnumerableInterpreter\n"
          + "  BindableTableScan(table=[[FRESHET, BY_K]], filters=[[=($0, 3)]],"
          + " projects=[[1, 2]])\n", rs.getString(1));
    }
  }

  /** Re-runs {@code sql} until its rows, normalized, are {@code expected}; fails after a deadline. */
  private static void awaitSameRows(Statement statement, String sql, List<List<Object>> expected)
      throws Exception {
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    List<List<Object>> rows = normalized(query(statement, sql));
    while (!ViewResults.sameRows(rows, expected)) {
      if (System.nanoTime() > deadline) {
        fail(sql + " returned " + rows + ", not " + expected);
      }
      ViewResults.betweenPolls();
      rows = normalized(query(statement, sql));
    }
  }


  /** Rows with each number as its plain decimal text: H2's SUM is DECIMAL, Freshet's BIGINT. */
  private static List<List<Object>> normalized(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> copy = new ArrayList<>();
      for (Object value : row) {
        copy.add(value instanceof Number
            ? new BigDecimal(value.toString()).stripTrailingZeros().toPlainString() : value);
      }
      out.add(copy);
    }
    return out;
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.testkit.ExternalTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JDBC sink against a real PostgreSQL (a database of its own in the test JVM's one
 * PostgreSQL, {@link PostgresDatabase}): a view's
 * result upserted with {@code INSERT ... ON CONFLICT}, a query's rows appended, each batch with
 * its id in {@code freshet_sink_batches}; the tables equal H2's GROUP BY over the same rows.
 */
@ExternalTest
class PostgresSinkTest {
  @RegisterExtension static final PostgresDatabase postgres = new PostgresDatabase();

  @Test void shouldUpsertAndAppendIntoPostgresql() throws Exception {
    String url = postgres.jdbcUrl();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement();
         Connection pg = DriverManager.getConnection(url);
         Statement p = pg.createStatement();
         Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      s.execute("CREATE STREAM orders (id BIGINT NOT NULL, item VARCHAR, qty INTEGER,"
          + " ts TIMESTAMP(3))");
      oracle.execute("CREATE TABLE orders (id BIGINT, item VARCHAR, qty INT, ts TIMESTAMP)");
      s.execute("CREATE MATERIALIZED VIEW totals AS SELECT item, COUNT(*) AS n, SUM(qty) AS q,"
          + " MAX(ts) AS last_ts FROM orders GROUP BY item");
      s.execute("CREATE SINK totals_pg FROM totals WITH (connector = 'jdbc', 'url' = '" + url
          + "', 'table-name' = 'totals')");
      s.execute("CREATE SINK orders_pg AS SELECT id, item, ts FROM orders WHERE qty > 2"
          + " WITH (connector = 'jdbc', 'url' = '" + url + "', 'table-name' = 'big_orders')");
      for (int round = 0; round < 3; round++) {
        StringBuilder values = new StringBuilder();
        for (int i = round * 50; i < round * 50 + 50; i++) {
          values.append(values.length() == 0 ? "" : ", ").append("(").append(i)
              .append(", 'item-").append(i % 6).append("', ").append(i % 5).append(", TIMESTAMP '")
              .append("2026-12-01 10:00:").append(String.format("%02d", i % 60)).append("')");
        }
        s.executeUpdate("INSERT INTO orders VALUES " + values);
        oracle.executeUpdate("INSERT INTO orders VALUES " + values);
      }
      await(p, "SELECT item, n, q, CAST(last_ts AS VARCHAR) FROM totals", oracle,
          "SELECT item, COUNT(*), SUM(qty), CAST(MAX(ts) AS VARCHAR) FROM orders GROUP BY item");
      await(p, "SELECT id, item, CAST(ts AS VARCHAR) FROM big_orders", oracle,
          "SELECT id, item, CAST(ts AS VARCHAR) FROM orders WHERE qty > 2");
      assertEquals(List.of(List.of("ORDERS_PG"), List.of("TOTALS_PG")), ViewResults.query(p,
          "SELECT sink_name FROM freshet_sink_batches ORDER BY sink_name"));
    }
  }

  /** Re-reads PostgreSQL until {@code sql} returns what H2 returns for {@code oracleSql}. */
  private static void await(Statement pg, String sql, Statement oracle, String oracleSql)
      throws SQLException {
    List<List<Object>> expected = normalized(ViewResults.query(oracle, oracleSql));
    long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
    List<List<Object>> rows = List.of();
    while (System.nanoTime() < deadline) {
      try {
        rows = normalized(ViewResults.query(pg, sql));
      } catch (SQLException notYetMade) {
        pg.getConnection().rollback();
        continue;
      }
      if (ViewResults.sameRows(rows, expected)) {
        return;
      }
    }
    fail(sql + " returned " + rows + ", not " + expected);
  }

  private static List<List<Object>> normalized(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object v : row) {
        // Timestamps as text differ in trailing zeros between the two databases.
        values.add(v instanceof Number n ? (Object) n.longValue()
            : v instanceof String t && t.startsWith("2026-") ? t.replaceAll("(\\.0+)?$", "") : v);
      }
      out.add(values);
    }
    return out;
  }
}

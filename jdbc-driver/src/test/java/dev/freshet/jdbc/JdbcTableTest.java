package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.testkit.ExternalTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An external table in a real PostgreSQL (a database of its own in the test JVM's one
 * PostgreSQL, {@link PostgresDatabase}), read through
 * the table's HikariCP pool: a view and a push query join a stream with it, and a change made in
 * PostgreSQL shows in the next batch; wrong credentials fail the CREATE with 08001; DROP TABLE
 * closes the pool.
 */
@ExternalTest
class JdbcTableTest {
  @RegisterExtension static final PostgresDatabase postgres = new PostgresDatabase();

  @Test void aViewJoinsAStreamWithAPostgresqlTableAndSeesItsChangesInTheNextBatch()
      throws Exception {
    String url = postgres.url();
    String engine = UUID.randomUUID().toString();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
         Statement s = c.createStatement();
         Statement push = c.createStatement();
         Connection pg = DriverManager.getConnection(postgres.jdbcUrl());
         Statement p = pg.createStatement()) {
      p.execute("CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(40), tier"
          + " VARCHAR(10), since TIMESTAMP)");
      p.execute("INSERT INTO customers VALUES (1, 'Ann', 'silver', '2024-05-06 07:08:09.5'),"
          + " (2, 'Bob', 'gold', NULL)");
      s.execute("CREATE TABLE customers (id BIGINT, name VARCHAR(40), tier VARCHAR(10), since"
          + " TIMESTAMP(3)) WITH (connector = 'jdbc', 'url' = '" + url + "', 'table-name' ="
          + " 'customers', 'username' = 'postgres', 'password' = 'postgres')");
      assertEquals(List.of(row(1L, "Ann", "silver",
              java.sql.Timestamp.valueOf("2024-05-06 07:08:09.5"))),
          ViewResults.query(s, "SELECT * FROM customers WHERE since IS NOT NULL"));

      s.execute("CREATE STREAM orders (id BIGINT, customer_id BIGINT, amount INTEGER)");
      s.execute("CREATE MATERIALIZED VIEW per_tier AS SELECT c.tier, COUNT(*) AS n,"
          + " SUM(o.amount) AS total FROM orders o LEFT JOIN customers c"
          + " ON o.customer_id = c.id GROUP BY c.tier EMIT UPDATE");
      try (ResultSet rs = push.executeQuery("SELECT STREAM o.id, c.name, c.tier FROM orders o"
          + " JOIN customers c ON o.customer_id = c.id EMIT APPEND")) {
        s.executeUpdate("INSERT INTO orders VALUES (10, 1, 5), (11, 2, 7), (12, 3, 1)");
        assertEquals(List.of(row(10L, "Ann", "silver"), row(11L, "Bob", "gold")),
            PushResults.readData(rs, 2));
        PushResults.awaitIdle(engine, "batch 0");
        assertEquals(List.of(row("gold", 1L, 7L), row("silver", 1L, 5L), row(null, 1L, 1L)),
            ViewResults.query(s, "SELECT * FROM per_tier ORDER BY tier NULLS LAST"));

        // Changed in PostgreSQL between two batches: the next batch joins the new rows.
        p.executeUpdate("UPDATE customers SET tier = 'gold' WHERE id = 1");
        p.executeUpdate("INSERT INTO customers VALUES (3, 'Cy', 'bronze', NULL)");
        s.executeUpdate("INSERT INTO orders VALUES (13, 1, 2), (14, 3, 4)");
        assertEquals(List.of(row(13L, "Ann", "gold"), row(14L, "Cy", "bronze")),
            PushResults.readData(rs, 2));
        PushResults.awaitIdle(engine, "batch 1");
        // The first batch's rows are not revised: Ann's first order stays silver.
        assertEquals(List.of(row("bronze", 1L, 4L), row("gold", 2L, 9L), row("silver", 1L, 5L),
                row(null, 1L, 1L)),
            ViewResults.query(s, "SELECT * FROM per_tier ORDER BY tier NULLS LAST"));
      }
      assertTrue(backends(p) > 0, "the table's pool is connected");
      // The push query ends with its statement, on its own thread.
      push.close();
      long stopped = System.nanoTime() + ViewResults.DEADLINE.toNanos();
      while (ViewResults.query(s, "SHOW QUERIES").size() > 1) {
        if (System.nanoTime() > stopped) {
          fail("the push query still runs: " + ViewResults.query(s, "SHOW QUERIES"));
        }
      }
      s.execute("DROP MATERIALIZED VIEW per_tier");
      s.execute("DROP TABLE customers");
      long deadline = System.nanoTime() + ViewResults.DEADLINE.toNanos();
      while (backends(p) > 0) {
        if (System.nanoTime() > deadline) {
          fail("DROP TABLE left " + backends(p) + " connections to PostgreSQL open");
        }
      }
    }
  }

  @Test void wrongCredentialsFailTheCreateWithTheReason() throws Exception {
    String url = postgres.url();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE TABLE t (id"
          + " BIGINT) WITH (connector = 'jdbc', 'url' = '" + url + "', 'table-name' = 't',"
          + " 'username' = 'nobody', 'password' = 'x')"));
      assertEquals("08001", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Table T cannot connect to " + url + ": ")
          && e.getMessage().contains("\"nobody\"")
          && e.getMessage().endsWith(". Check 'url', 'username' and 'password', and that the"
              + " database is up"), e.getMessage());
      assertEquals(List.of(), ViewResults.rows(c.getMetaData().getTables(null, null, "T", null)));
    }
  }

  /** Connections to PostgreSQL other than the test's own. */
  private static long backends(Statement pg) throws SQLException {
    try (ResultSet r = pg.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE datname ="
        + " current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
      r.next();
      return r.getLong(1);
    }
  }
}

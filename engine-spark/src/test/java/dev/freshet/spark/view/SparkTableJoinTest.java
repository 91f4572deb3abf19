package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.jdbc.EmbeddedEngines;
import dev.freshet.testkit.SparkTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stream-table joins of views on Spark (Spark's stream-static join) beside the same views on
 * Freshet's own executor in one engine, fed the same INSERTs batch by batch: both views hold the
 * same rows after every batch, and in the end H2's batch join over every row. The table is a
 * {@code connector = 'jdbc'} table in another database (an H2 database by URL stands in for it)
 * or a table of the engine's own, which Spark's executors read in local mode. A change to the
 * table is seen by the next batch only, on both engines: earlier rows are not revised. The
 * changes here are made between batches (after both views ran the last one): Spark reads the
 * table while a batch runs, Freshet when it starts, so a change made during a batch may reach
 * Spark's view one batch earlier. Refusals: a TIME column, a table the database no longer has.
 */
@SparkTest
class SparkTableJoinTest extends EmbeddedEngineTest {
  private static final List<String> ORDERS = List.of(
      "(10, 1, 5), (11, 2, 3), (12, 9, 4)",
      "(13, 3, 1), (14, 1, 7)",
      "(15, NULL, 2), (16, 2, 6), (17, 4, 8)");
  private static final String CUSTOMERS = "CREATE TABLE customers (id BIGINT PRIMARY KEY,"
      + " name VARCHAR, tier VARCHAR)";
  private static final String CUSTOMER_ROWS = "INSERT INTO customers VALUES (1, 'ann', 'gold'),"
      + " (2, 'bob', 'basic'), (3, 'cy', 'gold'), (4, 'di', NULL)";

  /** The other database, where the JDBC table lives. */
  private Connection other;
  private ViewOracle oracle;

  @BeforeEach void streams() throws SQLException {
    s.execute("CREATE STREAM orders (id BIGINT, customer_id BIGINT, amount INTEGER)"
        + " WITH (connector = 'memory')");
    String url = "jdbc:h2:mem:customers-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    other = DriverManager.getConnection(url, "sa", "");
    try (Statement o = other.createStatement()) {
      o.execute(CUSTOMERS);
      o.execute(CUSTOMER_ROWS);
    }
    s.execute("CREATE TABLE customers (id BIGINT, name VARCHAR, tier VARCHAR) WITH (connector"
        + " = 'jdbc', 'url' = '" + url + "', 'table-name' = 'customers', 'username' = 'sa',"
        + " 'password' = '')");
    oracle = new ViewOracle("CREATE TABLE orders (id BIGINT, customer_id BIGINT,"
        + " amount INTEGER)", CUSTOMERS, CUSTOMER_ROWS);
  }

  @AfterEach void closeOracle() throws SQLException {
    try (Statement o = other.createStatement()) {
      o.execute("SHUTDOWN");
    }
    other.close();
    oracle.close();
  }

  @Test void shouldInnerJoinAJdbcTableAsFreshet() throws Exception {
    // A filter and an expression on each side, a condition beside the key, and the table first.
    String join = "SELECT o.id, c.name, o.amount * 2 AS twice FROM customers c JOIN orders o"
        + " ON o.customer_id = c.id AND o.amount > 1 WHERE c.tier <> 'basic'";
    compare(join, join);
  }

  @Test void shouldKeepUnmatchedRowsWithNullsAsFreshetInAnOuterJoin() throws Exception {
    // The table's constant column must be NULL for an order no customer matches.
    String join = "SELECT o.id, c.tier, c.flag FROM (SELECT id, tier, 1 AS flag FROM customers) c"
        + " RIGHT JOIN orders o ON o.customer_id = c.id";
    compare(join, join);
  }

  @Test void shouldAggregateALeftJoinAsFreshet() throws Exception {
    String query = "SELECT c.tier, COUNT(*) AS n, SUM(o.amount) AS total FROM orders o"
        + " LEFT JOIN customers c ON o.customer_id = c.id GROUP BY c.tier";
    compare(query, query);
  }

  @Test void shouldCloseWindowsOfAJoinAsFreshetByTheStreamsWatermark() throws Exception {
    s.execute("CREATE STREAM visits (customer_id BIGINT, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'memory')");
    oracle.execute("CREATE TABLE visits (customer_id BIGINT, ts TIMESTAMP(3))");
    // The last batch moves the watermark to 55 s: the windows before 50 s close; the 2 s visit
    // is late by then (watermark 16 s) and dropped by both.
    compare("SELECT TUMBLE_START(v.ts, INTERVAL '10' SECOND) AS w, c.tier, COUNT(*) AS n"
        + " FROM visits v JOIN customers c ON v.customer_id = c.id"
        + " GROUP BY TUMBLE(v.ts, INTERVAL '10' SECOND), c.tier EMIT APPEND", "visits",
        List.of("(1, TIMESTAMP '1970-01-01 00:00:01'), (2, TIMESTAMP '1970-01-01 00:00:04'),"
            + " (3, TIMESTAMP '1970-01-01 00:00:08')",
            "(1, TIMESTAMP '1970-01-01 00:00:20'), (9, TIMESTAMP '1970-01-01 00:00:21')",
            "(3, TIMESTAMP '1970-01-01 00:00:02'), (2, TIMESTAMP '1970-01-01 00:00:23')",
            "(1, TIMESTAMP '1970-01-01 00:01:00')"),
        "SELECT DATEADD(SECOND, -MOD(DATEDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', v.ts),"
            + " 10), v.ts) AS w, c.tier, COUNT(*) FROM visits v JOIN customers c"
            + " ON v.customer_id = c.id WHERE v.ts < TIMESTAMP '1970-01-01 00:00:50'"
            + " AND v.ts <> TIMESTAMP '1970-01-01 00:00:02' GROUP BY w, c.tier");
  }

  @Test void shouldSeeAJdbcTableChangeInTheNextBatchOnly() throws Exception {
    createViews("SELECT c.tier, COUNT(*) AS n FROM orders o LEFT JOIN customers c"
        + " ON o.customer_id = c.id GROUP BY c.tier");
    step("(10, 1, 1), (11, 5, 1)", List.of(row("gold", 1), row(null, 1)));
    // Between two batches: customer 1 moves, customer 5 appears.
    try (Statement o = other.createStatement()) {
      assertEquals(1, o.executeUpdate("UPDATE customers SET tier = 'basic' WHERE id = 1"));
      o.executeUpdate("INSERT INTO customers VALUES (5, 'ed', 'new')");
    }
    // The first batch's rows are not revised: its gold and unmatched orders stay counted.
    step("(12, 1, 1), (13, 5, 1)",
        List.of(row("basic", 1), row("gold", 1), row("new", 1), row(null, 1)));
    try (Statement o = other.createStatement()) {
      assertEquals(1, o.executeUpdate("DELETE FROM customers WHERE id = 5"));
    }
    step("(14, 5, 1)", List.of(row("basic", 1), row("gold", 1), row("new", 1), row(null, 2)));
  }

  @Test void shouldSeeAChangeOfTheEnginesOwnTableInTheNextBatchOnly() throws Exception {
    s.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR,"
        + " price DECIMAL(10, 2), added TIMESTAMP(3))");
    s.executeUpdate("INSERT INTO products VALUES (1, 'books', 10.0, TIMESTAMP"
        + " '2024-01-02 03:04:05'), (2, 'toys', 5.0, NULL)");
    createViews("SELECT p.category, COUNT(*) AS n, SUM(p.price) AS revenue,"
        + " MAX(p.added) AS latest FROM orders o LEFT JOIN products p"
        + " ON o.customer_id = p.id GROUP BY p.category");
    String added = "2024-01-02T03:04:05";
    step("(10, 1, 1), (11, 3, 1)", List.of(row("books", 1, "10", added),
        row(null, 1, null, null)));
    assertEquals(1, s.executeUpdate("UPDATE products SET category = 'comics' WHERE id = 1"));
    s.executeUpdate("INSERT INTO products VALUES (3, 'games', 20.0, NULL)");
    step("(12, 1, 1), (13, 3, 1)", List.of(row("books", 1, "10", added),
        row("comics", 1, "10", added), row("games", 1, "20", null), row(null, 1, null, null)));
    assertEquals(1, s.executeUpdate("DELETE FROM products WHERE id = 3"));
    step("(14, 3, 1)", List.of(row("books", 1, "10", added), row("comics", 1, "10", added),
        row("games", 1, "20", null), row(null, 2, null, null)));
  }

  @Test void shouldReadATablesTimestampAsItsWallClockTimeWhateverTheJvmsZone() throws Exception {
    s.execute("CREATE TABLE products (id BIGINT, added TIMESTAMP(3))");
    s.executeUpdate("INSERT INTO products VALUES (1, TIMESTAMP '2024-01-02 03:04:05'),"
        + " (2, TIMESTAMP '2024-01-02 12:00:00')");
    // The views' results hold no timestamp: only the table's values meet the JVM's zone.
    createViews("SELECT o.id FROM orders o JOIN products p ON o.customer_id = p.id"
        + " WHERE p.added = TIMESTAMP '2024-01-02 03:04:05'");
    TimeZone zone = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
    // H2 caches the JVM's zone, in which its driver makes java.sql.Timestamp values.
    org.h2.util.DateTimeUtils.resetCalendar();
    try {
      step("(10, 1, 1), (11, 2, 1)", List.of(row(10)));
    } finally {
      TimeZone.setDefault(zone);
      org.h2.util.DateTimeUtils.resetCalendar();
    }
  }

  @Test void shouldReadTheEnginesOwnTableFromItsDatabaseFile() throws Exception {
    // With a data directory the engine's H2 database is a file, open in this JVM: Spark's
    // executors (local mode, the same JVM) share it by its URL, with no second file lock.
    Path dataDir = Files.createTempDirectory("spark-table-file");
    try (Connection file = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir
        + ";timeZone=UTC"); Statement f = file.createStatement()) {
      f.execute("CREATE STREAM orders (id BIGINT, product_id BIGINT) WITH (connector = 'memory')");
      f.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)");
      f.executeUpdate("INSERT INTO products VALUES (1, 'books')");
      f.execute("CREATE MATERIALIZED VIEW on_spark WITH ('engine' = 'spark') AS SELECT o.id,"
          + " p.category FROM orders o JOIN products p ON o.product_id = p.id");
      f.executeUpdate("INSERT INTO orders VALUES (10, 1), (11, 2)");
      ViewOracle.await(() -> text(ViewOracle.rows(f, "SELECT * FROM on_spark")),
          text(List.of(row(10, "books"))), () -> "the view over the file's table");
    } finally {
      EmbeddedEngines.of(dataDir).close();
      try (Stream<Path> files = Files.walk(dataDir)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  @Test void shouldRefuseATableWithATimeColumnAndLeaveNothing() throws Exception {
    s.execute("CREATE TABLE shifts (id BIGINT, starts TIME)");
    SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED VIEW"
        + " on_spark WITH ('engine' = 'spark') AS SELECT o.id, t.starts FROM orders o JOIN"
        + " shifts t ON o.customer_id = t.id"));
    assertEquals("0A000", e.getSQLState(), e.getMessage());
    assertEquals("Table SHIFTS's TIME column STARTS is not yet on Spark: declare it as a VARCHAR"
        + " or a TIMESTAMP, or run the view on Freshet's own executor", e.getMessage());
    assertEquals(List.of(), ViewOracle.rows(s, "SELECT name FROM sys.queries"));
    // No view holds the table (else 2BP01).
    s.execute("DROP TABLE shifts");
  }

  @Test void shouldRefuseAJdbcTableItCannotReadAndLeaveNothing() throws Exception {
    try (Statement o = other.createStatement()) {
      o.execute("DROP TABLE customers");
    }
    SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE MATERIALIZED VIEW"
        + " on_spark WITH ('engine' = 'spark') AS SELECT o.id, c.name FROM orders o JOIN"
        + " customers c ON o.customer_id = c.id"));
    assertEquals("42S02", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().startsWith("Spark cannot read table CUSTOMERS from jdbc:h2:mem:"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith(". Check that the database still has the table and its"
        + " columns, and declare them as the database names them"), e.getMessage());
    assertEquals(List.of(), ViewOracle.rows(s, "SELECT name FROM sys.queries"));
  }

  private void createViews(String query) throws SQLException {
    s.execute("CREATE MATERIALIZED VIEW on_freshet AS " + query);
    s.execute("CREATE MATERIALIZED VIEW on_spark WITH ('engine' = 'spark') AS " + query);
  }

  /** INSERTs {@code orders} as one batch; then both views must hold exactly {@code expected}. */
  private void step(String orders, List<List<Object>> expected) throws Exception {
    s.executeUpdate("INSERT INTO orders VALUES " + orders);
    awaitIdle();
    assertEquals(text(expected), text(ViewOracle.rows(s, "SELECT * FROM on_freshet")),
        "on Freshet after " + orders);
    assertEquals(text(expected), text(ViewOracle.rows(s, "SELECT * FROM on_spark")),
        "on Spark after " + orders);
  }

  /**
   * Creates {@code query} on both engines, INSERTs each batch of {@link #ORDERS}, compares the
   * views after each, and in the end with {@code h2Sql} over every order.
   */
  private void compare(String query, String h2Sql) throws Exception {
    compare(query, "orders", ORDERS, h2Sql);
  }

  /** As {@link #compare(String, String)}, with {@code batches} INSERTed into {@code stream}. */
  private void compare(String query, String stream, List<String> batches, String h2Sql)
      throws Exception {
    createViews(query);
    for (String batch : batches) {
      s.executeUpdate("INSERT INTO " + stream + " VALUES " + batch);
      oracle.execute("INSERT INTO " + stream + " VALUES " + batch);
      awaitIdle();
      assertEquals(text(ViewOracle.rows(s, "SELECT * FROM on_freshet")),
          text(ViewOracle.rows(s, "SELECT * FROM on_spark")), query + ", after " + batch);
    }
    List<List<Object>> expected = text(oracle.rows(h2Sql));
    assertFalse(expected.isEmpty());
    assertEquals(expected, text(ViewOracle.rows(s, "SELECT * FROM on_spark")),
        "the final view of " + query);
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  /** Every value as its text (numbers of either engine or H2 alike), rows sorted. */
  private static List<List<Object>> text(List<List<Object>> rows) {
    List<List<Object>> result = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      row.forEach(v -> values.add(v == null ? null : v.toString()));
      result.add(values);
    }
    result.sort(Comparator.comparing(Object::toString));
    return result;
  }
}

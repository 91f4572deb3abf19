package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Stream-table joins end to end through JDBC. Differential: random orders in random batches go
 * to Freshet (a stream joined with a table) and to H2 (the same rows in plain tables); after
 * every batch the result of Freshet's push query or view must equal H2 running the same SQL as a
 * batch query over every order so far. The table does not change there: a stream-static join
 * over all input equals the batch join only then. How a change shows is the last test's, batch
 * by batch, as Spark's stream-static join has it.
 */
class StreamTableJoinTest {
  private static final String PRODUCTS = "CREATE TABLE products (id BIGINT PRIMARY KEY,"
      + " category VARCHAR, price DOUBLE)";
  private static final String ORDERS = "CREATE STREAM orders (id BIGINT, product_id BIGINT,"
      + " qty INTEGER)";

  @Test void innerJoinPushQueryMatchesH2AfterEveryBatch() throws Exception {
    String engine = UUID.randomUUID().toString();
    String sql = "SELECT o.id, o.qty, p.category, p.price FROM orders o JOIN products p"
        + " ON o.product_id = p.id AND p.price > 2 WHERE o.qty > 1";
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
         Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement fs = freshet.createStatement();
         Statement hs = h2.createStatement();
         Statement push = freshet.createStatement()) {
      Random random = new Random(7);
      setUp(fs, hs, random);
      try (ResultSet rs = push.executeQuery(sql.replace("SELECT ", "SELECT STREAM ")
          + " EMIT APPEND")) {
        List<List<Object>> seen = new ArrayList<>();
        long id = 0;
        for (int batch = 0; batch < 8; batch++) {
          String values = orders(random, id, 1 + random.nextInt(20));
          id += 100;
          fs.executeUpdate("INSERT INTO orders VALUES " + values);
          hs.executeUpdate("INSERT INTO orders VALUES " + values);
          List<List<Object>> expected = normalized(ViewResults.query(hs, sql));
          seen.addAll(normalized(PushResults.readData(rs, expected.size() - seen.size())));
          assertEquals(sorted(expected), sorted(seen), "after batch " + batch);
        }
      }
    }
  }

  @Test void leftJoinGroupByViewInUpdateModeMatchesH2AfterEveryBatch() throws Exception {
    String engine = UUID.randomUUID().toString();
    String query = "SELECT p.category, COUNT(*) AS n, SUM(o.qty) AS q, MAX(p.price) AS top"
        + " FROM orders o LEFT JOIN products p ON o.product_id = p.id GROUP BY p.category";
    // The table side filtered and projected before the join: the join's table calc.
    String inner = "SELECT p.category, COUNT(*) AS n FROM orders o JOIN (SELECT id,"
        + " UPPER(category) AS category FROM products WHERE price > 3) p"
        + " ON o.product_id = p.id WHERE p.category <> 'C0' GROUP BY p.category";
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
         Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement fs = freshet.createStatement();
         Statement hs = h2.createStatement()) {
      Random random = new Random(11);
      setUp(fs, hs, random);
      fs.execute("CREATE MATERIALIZED VIEW by_category AS " + query + " EMIT UPDATE");
      fs.execute("CREATE MATERIALIZED VIEW matched AS " + inner + " EMIT UPDATE");
      long id = 0;
      for (int batch = 0; batch < 8; batch++) {
        String values = orders(random, id, 1 + random.nextInt(20));
        id += 100;
        fs.executeUpdate("INSERT INTO orders VALUES " + values);
        hs.executeUpdate("INSERT INTO orders VALUES " + values);
        PushResults.awaitIdle(engine, "batch " + batch);
        assertEquals(sorted(normalized(ViewResults.query(hs, query))),
            sorted(normalized(ViewResults.query(fs, "SELECT * FROM by_category"))),
            "left join after batch " + batch);
        assertEquals(sorted(normalized(ViewResults.query(hs, inner))),
            sorted(normalized(ViewResults.query(fs, "SELECT * FROM matched"))),
            "inner join after batch " + batch);
      }
    }
  }

  @Test void aTableChangeIsSeenByTheNextBatchOnly() throws Exception {
    String engine = UUID.randomUUID().toString();
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine=" + engine);
         Statement fs = freshet.createStatement();
         Statement push = freshet.createStatement()) {
      fs.execute(PRODUCTS);
      fs.execute(ORDERS);
      fs.executeUpdate("INSERT INTO products VALUES (1, 'books', 10.0), (2, 'toys', 5.0)");
      fs.execute("CREATE MATERIALIZED VIEW per_category AS SELECT p.category, COUNT(*) AS n"
          + " FROM orders o LEFT JOIN products p ON o.product_id = p.id GROUP BY p.category"
          + " EMIT UPDATE");
      try (ResultSet rs = push.executeQuery("SELECT STREAM o.id, p.category FROM orders o"
          + " LEFT JOIN products p ON o.product_id = p.id")) {
        fs.executeUpdate("INSERT INTO orders VALUES (10, 1, 1), (11, 3, 1)");
        assertEquals(List.of(row(10L, "books"), row(11L, null)),
            PushResults.readData(rs, 2));
        PushResults.awaitIdle(engine, "batch 0");
        assertEquals(List.of(row("books", 1L), row(null, 1L)), sorted(ViewResults.query(fs,
            "SELECT * FROM per_category")));

        // Between two batches: product 1 moves, product 3 appears.
        assertEquals(1, fs.executeUpdate("UPDATE products SET category = 'comics' WHERE id = 1"));
        fs.executeUpdate("INSERT INTO products VALUES (3, 'games', 20.0)");
        fs.executeUpdate("INSERT INTO orders VALUES (12, 1, 1), (13, 3, 1)");
        assertEquals(List.of(row(12L, "comics"), row(13L, "games")),
            PushResults.readData(rs, 2));
        PushResults.awaitIdle(engine, "batch 1");
        // Rows of the first batch are not revised: books and the unmatched order stay counted.
        assertEquals(List.of(row("books", 1L), row("comics", 1L), row("games", 1L),
            row(null, 1L)), sorted(ViewResults.query(fs, "SELECT * FROM per_category")));

        assertEquals(1, fs.executeUpdate("DELETE FROM products WHERE id = 3"));
        fs.executeUpdate("INSERT INTO orders VALUES (14, 3, 1)");
        assertEquals(List.of(row(14L, null)), PushResults.readData(rs, 1));
        // Both the view and the push query hold the table.
        java.sql.SQLException e = org.junit.jupiter.api.Assertions.assertThrows(
            java.sql.SQLException.class, () -> fs.execute("DROP TABLE products"));
        assertEquals("2BP01", e.getSQLState());
        assertTrue(e.getMessage().matches("Cannot drop table 'PRODUCTS': queries PER_CATEGORY,"
            + " push-[0-9a-f]{8} read it\\. Drop the view or sink, or stop the query \\(STOP"
            + " QUERY\\), first\\."), e.getMessage());
      }
    }
  }

  @Test void aSinkWritesJoinedRows() throws Exception {
    String target = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    try (Connection freshet = DriverManager.getConnection("jdbc:freshet:engine="
             + UUID.randomUUID());
         Statement fs = freshet.createStatement();
         Connection out = DriverManager.getConnection(target);
         Statement os = out.createStatement()) {
      fs.execute(PRODUCTS);
      fs.execute(ORDERS);
      fs.executeUpdate("INSERT INTO products VALUES (1, 'books', 10.0)");
      fs.execute("CREATE SINK joined AS SELECT o.id, p.category FROM orders o LEFT JOIN"
          + " products p ON o.product_id = p.id WITH (connector = 'jdbc', 'url' = '" + target
          + "', 'table-name' = 'joined')");
      fs.executeUpdate("INSERT INTO orders VALUES (1, 1, 1), (2, 2, 1)");
      ViewResults.awaitRows(os, "SELECT * FROM joined", List.of(row(1L, "books"),
          row(2L, null)));
    }
  }

  /** Creates products and orders in both engines, with the same random products. */
  private static void setUp(Statement fs, Statement hs, Random random) throws Exception {
    fs.execute(PRODUCTS);
    fs.execute(ORDERS);
    hs.execute(PRODUCTS);
    hs.execute(ORDERS.replace("STREAM", "TABLE"));
    StringBuilder products = new StringBuilder();
    // Ids 0..19; orders name ids 0..24, so some match nothing.
    for (int id = 0; id < 20; id++) {
      products.append(id == 0 ? "" : ", ").append('(').append(id).append(", ")
          .append(random.nextInt(8) == 0 ? "NULL" : "'c" + random.nextInt(4) + "'").append(", ")
          .append(random.nextInt(40) / 4.0).append(')');
    }
    fs.executeUpdate("INSERT INTO products VALUES " + products);
    hs.executeUpdate("INSERT INTO products VALUES " + products);
  }

  private static String orders(Random random, long firstId, int n) {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < n; i++) {
      values.append(i == 0 ? "" : ", ").append('(').append(firstId + i).append(", ")
          .append(random.nextInt(10) == 0 ? "NULL" : String.valueOf(random.nextInt(25)))
          .append(", ").append(random.nextInt(5)).append(')');
    }
    return values.toString();
  }

  /** Numbers compared by value: H2 and Freshet type sums and counts apart. */
  private static List<List<Object>> normalized(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object v : row) {
        values.add(v instanceof Number ? new BigDecimal(v.toString())
            .round(new MathContext(12)).stripTrailingZeros().toPlainString() : v);
      }
      out.add(values);
    }
    return out;
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort((a, b) -> a.toString().compareTo(b.toString()));
    return copy;
  }
}

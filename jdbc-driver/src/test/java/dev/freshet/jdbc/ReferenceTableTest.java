package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Reference tables through JDBC: DDL, DML, pull queries, metadata, and each error with its
 * SQLSTATE and message. The join itself is {@link StreamTableJoinTest}'s; a table in PostgreSQL
 * is {@link JdbcTableTest}'s.
 */
class ReferenceTableTest {
  private static Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
  }

  @Test void dmlChangesATableAndPullQueriesReadIt() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR, price"
          + " DECIMAL(10, 2), added TIMESTAMP)");
      assertEquals(3, s.executeUpdate("INSERT INTO products VALUES"
          + " (1, 'books', 12.50, TIMESTAMP '2024-01-02 03:04:05'), (2, 'toys', 3, NULL),"
          + " (3, 'books', 7.25, NULL)"));
      assertEquals(2, s.executeUpdate("UPDATE products SET price = price + 1 WHERE category"
          + " = 'books'"));
      assertEquals(1, s.executeUpdate("DELETE FROM products WHERE id = 2"));
      try (PreparedStatement p = c.prepareStatement("INSERT INTO products (id, category)"
          + " VALUES (?, ?)")) {
        p.setLong(1, 4);
        p.setString(2, "games");
        assertEquals(1, p.executeUpdate());
      }
      assertEquals(List.of(row(1L, "books", new java.math.BigDecimal("13.50"),
              java.sql.Timestamp.valueOf("2024-01-02 03:04:05")),
          row(3L, "books", new java.math.BigDecimal("8.25"), null)),
          ViewResults.query(s, "SELECT * FROM products WHERE category = 'books' ORDER BY id"));
      assertEquals(List.of(row("books", 2L), row("games", 1L)), ViewResults.query(s,
          "SELECT category, COUNT(*) FROM products GROUP BY category ORDER BY category"));

      // A pull query joins a table with a view's current result.
      s.execute("CREATE STREAM orders (id BIGINT, product_id BIGINT)");
      s.execute("CREATE MATERIALIZED VIEW sold AS SELECT product_id, COUNT(*) AS n FROM orders"
          + " GROUP BY product_id");
      s.executeUpdate("INSERT INTO orders VALUES (10, 1), (11, 1), (12, 4)");
      ViewResults.awaitRows(s, "SELECT p.category, v.n FROM sold v JOIN products p"
          + " ON v.product_id = p.id", List.of(row("books", 2L), row("games", 1L)));
      // A plain query of a stream joined with a table reads the rows the stream holds.
      assertEquals(List.of(row(10L, "books"), row(11L, "books"), row(12L, "games")),
          ViewResults.query(s, "SELECT o.id, p.category FROM orders o JOIN products p"
              + " ON o.product_id = p.id ORDER BY o.id"));
      assertEquals(List.of(row("ID", "BIGINT NOT NULL", null),
              row("CATEGORY", "VARCHAR", null), row("PRICE", "DECIMAL(10, 2)", null),
              row("ADDED", "TIMESTAMP(0)", null)),
          ViewResults.query(s, "DESCRIBE products"));

      SQLException duplicate = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO products (id, category) VALUES (1, 'again')"));
      assertEquals("23505", duplicate.getSQLState());
      assertTrue(duplicate.getMessage().startsWith("Cannot INSERT INTO table PRODUCTS: "),
          duplicate.getMessage());
    }
  }

  @Test void metadataListsTablesAsTableWithTheirPrimaryKeys() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE prices (sku VARCHAR(20), region VARCHAR(8), price DOUBLE,"
          + " PRIMARY KEY (region, sku))");
      s.execute("CREATE STREAM clicks (k VARCHAR)");
      s.execute("CREATE MATERIALIZED VIEW per_k AS SELECT k, COUNT(*) AS n FROM clicks"
          + " GROUP BY k");
      DatabaseMetaData meta = c.getMetaData();
      List<List<Object>> tables = ViewResults.rows(meta.getTables(null, "FRESHET", "%", null));
      assertEquals(List.of(
              List.of("CLICKS", "TABLE"), List.of("PRICES", "TABLE"), List.of("PER_K", "VIEW")),
          tables.stream().map(r -> List.of(r.get(2), r.get(3))).toList());
      assertEquals("Reference table", tables.get(1).get(4));
      assertEquals(List.of(row(null, "FRESHET", "PRICES", "REGION", (short) 1, "PK_PRICES"),
              row(null, "FRESHET", "PRICES", "SKU", (short) 2, "PK_PRICES")),
          ViewResults.rows(meta.getPrimaryKeys(null, "FRESHET", "PRICES")));
      List<List<Object>> columns = ViewResults.rows(meta.getColumns(null, "FRESHET", "PRICES",
          "%"));
      assertEquals(List.of("SKU", "REGION", "PRICE"),
          columns.stream().map(r -> r.get(3)).toList());
      assertEquals(List.of("NO", "NO", "YES"), columns.stream().map(r -> r.get(17)).toList());
    }
  }

  @Test void tablesSurviveTheirNamesAndOtherObjects() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)");
      s.execute("CREATE TABLE IF NOT EXISTS products (id BIGINT PRIMARY KEY)");
      s.execute("CREATE STREAM orders (id BIGINT, product_id BIGINT)");
      fails("42S01", "Table 'PRODUCTS' already exists. Use CREATE TABLE IF NOT EXISTS, or DROP"
          + " TABLE PRODUCTS first.", () -> s.execute("CREATE TABLE products (id INTEGER)"));
      fails("42S01", "Cannot create table 'ORDERS': a stream of that name exists, and streams,"
          + " views and tables share one namespace. Choose another name, or DROP STREAM ORDERS"
          + " first.", () -> s.execute("CREATE TABLE orders (id INTEGER)"));
      fails("42S01", "Cannot create stream 'PRODUCTS': a table of that name exists, and"
          + " streams, views and tables share one namespace. Choose another name, or DROP"
          + " TABLE PRODUCTS first.", () -> s.execute("CREATE STREAM products (id INTEGER)"));
      fails("42S01", "The name PRODUCTS is taken by a stream, materialized view or table, and"
          + " they share one namespace with sinks. Give the sink another name",
          () -> s.execute("CREATE SINK products AS SELECT * FROM orders WITH (connector ="
              + " 'jdbc', 'url' = 'jdbc:h2:mem:sink', 'table-name' = 't')"));
      fails("42000", "Table T declares 2 primary keys, and a table has one. Declare one"
          + " PRIMARY KEY (a, b) for several columns",
          () -> s.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b INTEGER PRIMARY KEY)"));
      fails("42S22", "Primary key column C of table T is not one of its columns [A]. Name a"
          + " declared column", () -> s.execute("CREATE TABLE t (a INTEGER, PRIMARY KEY (c))"));

      s.execute("CREATE MATERIALIZED VIEW per_category AS SELECT p.category, COUNT(*) AS n"
          + " FROM orders o JOIN products p ON o.product_id = p.id GROUP BY p.category");
      fails("2BP01", "Cannot drop table 'PRODUCTS': query PER_CATEGORY reads it. Drop the view"
          + " or sink, or stop the query (STOP QUERY), first.",
          () -> s.execute("DROP TABLE products"));
      fails("42809", "'ORDERS' is a stream, not a table. Use DROP STREAM ORDERS.",
          () -> s.execute("DROP TABLE orders"));
      s.execute("DROP MATERIALIZED VIEW per_category");
      s.execute("DROP TABLE products");
      fails("42S02", "Table 'PRODUCTS' not found. Use DROP TABLE IF EXISTS, or check the name:"
          + " DatabaseMetaData.getTables lists the tables (TABLE_TYPE 'TABLE')",
          () -> s.execute("DROP TABLE products"));
      s.execute("DROP TABLE IF EXISTS products");
      // The name is free again, and the new table has no rows of the old one.
      s.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)");
      assertEquals(List.of(), ViewResults.query(s, "SELECT * FROM products"));
    }
  }

  @Test void joinsFreshetCannotRunAreRefusedWithTheRuleAndTheFix() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)");
      s.execute("CREATE TABLE brands (id BIGINT PRIMARY KEY, name VARCHAR)");
      s.execute("CREATE STREAM orders (id BIGINT, product_id BIGINT, qty INTEGER)");
      fails("42KDE", "A LEFT OUTER JOIN that keeps the table's unmatched rows (the table on the"
          + " left, the stream on the right) is not supported, because a later row of the"
          + " stream might still match them. Put the stream on the preserved side: FROM stream"
          + " s LEFT JOIN table t ON ..., or use an INNER JOIN",
          () -> s.executeQuery("SELECT STREAM o.id FROM products p LEFT JOIN orders o"
              + " ON o.product_id = p.id"));
      fails("42KDE", "A RIGHT OUTER JOIN that keeps the table's unmatched rows (the table on the"
          + " right, the stream on the left) is not supported, because a later row of the"
          + " stream might still match them. Put the stream on the preserved side: FROM stream"
          + " s LEFT JOIN table t ON ..., or use an INNER JOIN",
          () -> s.executeQuery("SELECT STREAM o.id FROM orders o RIGHT JOIN products p"
              + " ON o.product_id = p.id"));
      fails("42KDE", "A FULL OUTER JOIN of a stream with a table is not supported, because the"
          + " table rows that no stream row matches could never be emitted: a later row of the"
          + " stream might still match them. Use a LEFT OUTER JOIN with the stream on the left"
          + " (FROM stream s LEFT JOIN table t ON ...), or an INNER JOIN",
          () -> s.executeQuery("SELECT STREAM o.id FROM orders o FULL JOIN products p"
              + " ON o.product_id = p.id"));
      fails("0A000", "The table side of a stream-table join must be a table created with CREATE"
          + " TABLE, possibly filtered (WHERE) and projected, and here it is not: it is a join."
          + " Join the stream with the table itself, e.g. FROM orders o JOIN products p ON"
          + " o.product_id = p.id, and filter in WHERE or ON",
          () -> s.executeQuery("SELECT STREAM o.id FROM orders o JOIN (SELECT p.id FROM"
              + " products p JOIN brands b ON p.id = b.id) t ON o.product_id = t.id"));
      fails("0A000", "A stream-table join needs an equality between a column of the stream and"
          + " a column of the table in its ON clause, and this one has none: >($1, $2). Join ON"
          + " stream_column = table_column, e.g. ON o.product_id = p.id",
          () -> s.executeQuery("SELECT STREAM o.id FROM orders o JOIN products p"
              + " ON o.product_id > p.id"));
      fails("0A000", "A stream-table join of an aggregation's result is not supported yet: the"
          + " join must come before the GROUP BY. Join the stream's rows with the table first"
          + " and aggregate the joined rows, e.g. SELECT p.category, COUNT(*) FROM orders o"
          + " JOIN products p ON o.product_id = p.id GROUP BY p.category",
          () -> s.executeQuery("SELECT STREAM a.product_id, p.category FROM (SELECT"
              + " product_id, COUNT(*) AS n FROM orders GROUP BY product_id) a"
              + " JOIN products p ON a.product_id = p.id"));
      // The plan shows the join with the table.
      String plan = ViewResults.query(s, "EXPLAIN PLAN FOR SELECT STREAM o.id, p.category"
          + " FROM orders o LEFT JOIN products p ON o.product_id = p.id").get(0).get(0)
          .toString();
      assertEquals("LogicalProject(ID=[$0], CATEGORY=[$3])\n"
          + "  LogicalJoin(condition=[=($1, $2)], joinType=[left])\n"
          + "    LogicalProject(ID=[$0], PRODUCT_ID=[$1])\n"
          + "      LogicalTableScan(table=[[FRESHET, ORDERS]])\n"
          + "    LogicalTableScan(table=[[FRESHET, PRODUCTS]])\n", plan);
    }
  }

  @Test void aTableReadFromAnotherDatabaseIsReadOnly() throws Exception {
    String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    try (Connection external = DriverManager.getConnection(url);
         Statement e = external.createStatement();
         Connection c = connect(); Statement s = c.createStatement()) {
      e.execute("CREATE TABLE regions (code VARCHAR(4) PRIMARY KEY, name VARCHAR(40))");
      e.execute("INSERT INTO regions VALUES ('EU', 'Europe')");
      s.execute("CREATE TABLE regions (code VARCHAR(4), name VARCHAR(40)) WITH (connector ="
          + " 'jdbc', 'url' = '" + url + "', 'table-name' = 'regions')");
      assertEquals(List.of(row("EU", "Europe")), ViewResults.query(s, "SELECT * FROM regions"));
      e.execute("INSERT INTO regions VALUES ('US', 'United States')");
      assertEquals(List.of(row("EU", "Europe"), row("US", "United States")),
          ViewResults.query(s, "SELECT * FROM regions ORDER BY code"));
      fails("0A000", "Cannot UPDATE table REGIONS: it is read from another database (connector"
          + " 'jdbc') and is read-only in Freshet. Change its rows in that database (" + url
          + "); each query's next batch sees them",
          () -> s.executeUpdate("UPDATE regions SET name = 'x'"));
      fails("0A000", "Cannot INSERT INTO table REGIONS: it is read from another database"
          + " (connector 'jdbc') and is read-only in Freshet. Change its rows in that database ("
          + url + "); each query's next batch sees them",
          () -> s.executeUpdate("INSERT INTO regions VALUES ('X', 'x')"));
      fails("08001", null, () -> s.execute("CREATE TABLE down (id INTEGER) WITH (connector ="
          + " 'jdbc', 'url' = 'jdbc:h2:tcp://127.0.0.1:1/nothing', 'table-name' = 'down')"));
      fails("42S02", null, () -> s.execute("CREATE TABLE missing (id INTEGER) WITH (connector ="
          + " 'jdbc', 'url' = '" + url + "', 'table-name' = 'no_such_table')"));
      fails("42000", "Unknown option 'tabel-name' for connector 'jdbc' of table T. Valid"
          + " options: connector, url, table-name, username, password",
          () -> s.execute("CREATE TABLE t (id INTEGER) WITH (connector = 'jdbc', 'url' = '"
              + url + "', 'tabel-name' = 'regions')"));
      s.execute("DROP TABLE regions");
    }
  }

  /** Asserts that {@code statement} fails with {@code state} and, unless null, {@code message}. */
  private static void fails(String state, String message, Executable statement) {
    SQLException e = assertThrows(SQLException.class, statement);
    assertEquals(state, e.getSQLState(), e.getMessage());
    if (message != null) {
      assertEquals(message, e.getMessage());
    }
  }
}

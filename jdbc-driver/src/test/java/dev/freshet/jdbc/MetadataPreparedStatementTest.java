package dev.freshet.jdbc;

import static dev.freshet.jdbc.MetadataCatalog.describe;
import static dev.freshet.jdbc.MetadataCatalog.rows;
import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.query;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.engine.Engine;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code PreparedStatement.getMetaData()} before anything runs: the columns of pull queries,
 * push queries, probes and SHOW are planned, not run; statements that change something are not
 * run until executed; and executing a prepared statement returns the columns it described.
 */
class MetadataPreparedStatementTest {
  private static final int NULLABLE = DatabaseMetaData.columnNullable;
  private static final int NOT_NULL = DatabaseMetaData.columnNoNulls;

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;
  private Engine engine;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    statement = connection.createStatement();
    MetadataCatalog.create(statement);
    engine = EngineRegistry.INSTANCE.resolve(Map.of("engine", engineName));
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private void insertOrders() throws SQLException {
    statement.executeUpdate("INSERT INTO orders (order_id, customer, region, amount) VALUES"
        + " (1, 'ann', 'EU', 150.00), (2, 'bob', 'US', 20.50), (3, 'ann', 'EU', 1.00)");
  }

  @Test void shouldDescribeAPullQueryBeforeItRuns() throws Exception {
    List<List<Object>> columns = List.of(
        List.of("CUSTOMER", Types.VARCHAR, "VARCHAR", 20, 0, NULLABLE, 20),
        List.of("TOTAL", Types.DECIMAL, "DECIMAL", 19, 2, NULLABLE, 21));
    try (PreparedStatement ps = connection.prepareStatement(
        "SELECT customer, total FROM sales_by_customer WHERE total > 10 ORDER BY customer")) {
      assertEquals(columns, describe(ps.getMetaData()));
      insertOrders();
      awaitRows(statement, "SELECT customer FROM sales_by_customer", List.of(row("ann"),
          row("bob")));
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(columns, describe(rs.getMetaData()));
        assertEquals(List.of(row("ann", new BigDecimal("151.00")),
            row("bob", new BigDecimal("20.50"))), rows(rs));
      }
    }
  }

  @Test void shouldDescribeAPushQueryWithoutStartingIt() throws Exception {
    List<List<Object>> columns = List.of(
        List.of("CUSTOMER", Types.VARCHAR, "VARCHAR", 20, 0, NULLABLE, 20),
        List.of("N", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20),
        List.of("_BATCH_ID", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20),
        List.of("_ROW_KIND", Types.VARCHAR, "VARCHAR", 9, 0, NOT_NULL, 9));
    int views = engine.queries().size();
    try (PreparedStatement ps = connection.prepareStatement("SELECT STREAM customer,"
        + " COUNT(*) AS n FROM orders GROUP BY customer EMIT UPDATE")) {
      assertEquals(columns, describe(ps.getMetaData()));
      assertEquals(views, engine.queries().size(), "queries running after prepare");
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(views + 1, engine.queries().size(), "queries running after execute");
        assertEquals(columns, describe(rs.getMetaData()));
        statement.executeUpdate("INSERT INTO orders (order_id, customer) VALUES (1, 'ann')");
        assertEquals(List.of(row("ann", 1L, 0L, "INSERT")), PushResults.read(rs, 1));
      }
    }
  }

  @Test void shouldDescribeASubscriptionToAViewWithoutSubscribing() throws Exception {
    List<List<Object>> columns = List.of(
        List.of("REGION", Types.CHAR, "CHAR", 2, 0, NULLABLE, 2),
        List.of("N", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20),
        List.of("_BATCH_ID", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20),
        List.of("_ROW_KIND", Types.VARCHAR, "VARCHAR", 9, 0, NOT_NULL, 9));
    try (PreparedStatement ps = connection.prepareStatement(
        "SELECT STREAM * FROM region_orders")) {
      assertEquals(columns, describe(ps.getMetaData()));
      // Rows inserted after prepare are in the snapshot the subscription starts with.
      insertOrders();
      awaitRows(statement, "SELECT region, n FROM region_orders", List.of(row("EU", 2L),
          row("US", 1L)));
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(columns, describe(rs.getMetaData()));
        Set<List<Object>> snapshot = new HashSet<>();
        for (List<Object> r : PushResults.read(rs, 2)) {
          snapshot.add(List.of(r.get(0), r.get(1), r.get(3)));   // without the version
        }
        assertEquals(Set.of(List.of("EU", 2L, "INSERT"), List.of("US", 1L, "INSERT")),
            snapshot);
      }
    }
    SQLException emit = assertThrows(SQLException.class, () -> connection.prepareStatement(
        "SELECT STREAM * FROM region_orders EMIT COMPLETE"));
    assertEquals("0A000", emit.getSQLState());
  }

  @Test void shouldDescribeProbesAsTheirResults() throws Exception {
    insertOrders();
    PushResults.awaitIdle(engineName, "probes");
    for (String probe : List.of(
        "SELECT * FROM orders WHERE 1 = 0",
        "SELECT * FROM sales_by_customer WHERE 1 = 0",
        "SELECT * FROM (SELECT region, n FROM region_orders) t WHERE 1 = 0",
        "SELECT * FROM (SELECT STREAM region, SUM(amount) AS total FROM orders"
            + " GROUP BY region) t WHERE 1 = 0",
        "SELECT * FROM sys.queries WHERE 1 = 0",
        // Not probes, but plain SELECTs over a stream and over nothing.
        "SELECT customer, amount * 2 AS doubled FROM orders",
        "SELECT 1 AS answer")) {
      try (PreparedStatement ps = connection.prepareStatement(probe)) {
        List<List<Object>> described = describe(ps.getMetaData());
        try (ResultSet rs = ps.executeQuery()) {
          assertEquals(describe(rs.getMetaData()), described, probe);
        }
      }
    }
    try (PreparedStatement ps = connection.prepareStatement("SELECT * FROM orders WHERE 1 = 0")) {
      assertEquals(List.of("ORDER_ID", "CUSTOMER", "REGION", "AMOUNT", "QTY", "PAID", "TS",
          "NOTE"), MetadataCatalog.labels(ps.getMetaData()));
      assertEquals(List.of(), rows(ps.executeQuery()));
    }
  }

  @Test void shouldDescribeAQueryOverAnEndlessSequenceButRefuseToRunIt() throws Exception {
    statement.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence',"
        + " 'rows.per.second' = '10')");
    try (PreparedStatement ps = connection.prepareStatement("SELECT * FROM nums WHERE 1 = 0")) {
      // Describing reads nothing; running would read every row of a stream without end.
      assertEquals(List.of(List.of("N", Types.BIGINT, "BIGINT", 19, 0, NULLABLE, 20)),
          describe(ps.getMetaData()));
      assertEquals("0A000", assertThrows(SQLException.class, ps::executeQuery).getSQLState());
    }
  }

  @Test void shouldDescribeShowDescribeAndExplain() throws Exception {
    try (PreparedStatement ps = connection.prepareStatement("SHOW STREAMS")) {
      assertEquals(List.of(List.of("STREAM_NAME", Types.VARCHAR, "VARCHAR", 128, 0, NULLABLE,
          128)), describe(ps.getMetaData()));
      assertEquals(List.of(row("ORDERS"), row("SALESXTOTAL")), rows(ps.executeQuery()));
    }
    try (PreparedStatement ps = connection.prepareStatement("DESCRIBE orders")) {
      assertEquals(List.of("COLUMN_NAME", "TYPE", "WATERMARK"),
          MetadataCatalog.labels(ps.getMetaData()));
    }
    try (PreparedStatement ps = connection.prepareStatement(
        "EXPLAIN PLAN FOR SELECT STREAM region, COUNT(*) FROM orders GROUP BY region")) {
      assertEquals(List.of("PLAN"), MetadataCatalog.labels(ps.getMetaData()));
    }
  }

  @Test void shouldNotRunWhatChangesSomethingUntilExecuted() throws Exception {
    try (PreparedStatement create = connection.prepareStatement(
        "CREATE STREAM later (x INTEGER) WITH (connector = 'memory')");
         PreparedStatement insert = connection.prepareStatement(
             "INSERT INTO orders (order_id, customer) VALUES (7, 'cy')")) {
      assertEquals(0, create.getMetaData().getColumnCount());
      assertEquals(0, insert.getMetaData().getColumnCount());
      assertEquals(List.of(), rows(connection.getMetaData().getTables(null, null, "LATER",
          null)));
      assertEquals(List.of(row(0L)), query(statement, "SELECT COUNT(*) FROM orders"));

      assertEquals(0, create.executeUpdate());
      assertEquals(1, rows(connection.getMetaData().getTables(null, null, "LATER", null))
          .size());
      assertEquals(1, insert.executeUpdate());
      assertEquals(List.of(row(1L)), query(statement, "SELECT COUNT(*) FROM orders"));
    }
  }

  @Test void shouldReportAnInvalidStatementWhenPrepared() {
    SQLException unknown = assertThrows(SQLException.class,
        () -> connection.prepareStatement("SELECT * FROM orderz WHERE 1 = 0"));
    assertEquals("42S02", unknown.getSQLState());
    SQLException syntax = assertThrows(SQLException.class,
        () -> connection.prepareStatement("SELECT * FROM WHERE"));
    assertEquals("42000", syntax.getSQLState());
    SQLException column = assertThrows(SQLException.class,
        () -> connection.prepareStatement("SELECT STREAM nope FROM orders"));
    assertEquals("42S22", column.getSQLState());
    SQLException mode = assertThrows(SQLException.class, () -> connection.prepareStatement(
        "SELECT STREAM region, COUNT(*) FROM orders GROUP BY region EMIT APPEND"));
    assertEquals("42KDE", mode.getSQLState());
    SQLException view = assertThrows(SQLException.class,
        () -> connection.prepareStatement("SELECT STREAM total FROM sales_total"));
    assertEquals("0A000", view.getSQLState());
  }
}

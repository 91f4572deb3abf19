package dev.freshet.jdbc;

import static dev.freshet.jdbc.MetadataCatalog.describe;
import static dev.freshet.jdbc.MetadataCatalog.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queries BI tools send to learn a query's columns without reading its rows
 * ({@code WHERE 1 = 0}, around the query or a table): they return no rows, end, and describe the
 * columns the query itself returns, over streams, views and system tables alike.
 */
class MetadataProbeTest {
  private static final int NULLABLE = DatabaseMetaData.columnNullable;
  private static final int NOT_NULL = DatabaseMetaData.columnNoNulls;

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    statement = connection.createStatement();
    MetadataCatalog.create(statement);
    // The probes must find no rows where there are some.
    statement.executeUpdate("INSERT INTO orders VALUES (1, 'ann', 'EU', 150.00, 2, TRUE,"
        + " TIMESTAMP '2026-01-01 10:00:00', 'first'), (2, 'bob', 'US', 20.50, 1, FALSE,"
        + " TIMESTAMP '2026-01-01 10:00:01', NULL)");
    PushResults.awaitIdle(engineName, "probe fixture");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private List<List<Object>> probe(String sql) throws SQLException {
    try (ResultSet rs = statement.executeQuery(sql)) {
      List<List<Object>> columns = describe(rs.getMetaData());
      assertEquals(List.of(), rows(rs), sql);
      return columns;
    }
  }

  @Test void shouldDescribeAStreamWithoutReadingItsRows() throws Exception {
    assertEquals(List.of(
        List.of("ORDER_ID", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20),
        List.of("CUSTOMER", Types.VARCHAR, "VARCHAR", 20, 0, NULLABLE, 20),
        List.of("REGION", Types.CHAR, "CHAR", 2, 0, NULLABLE, 2),
        List.of("AMOUNT", Types.DECIMAL, "DECIMAL", 10, 2, NULLABLE, 12),
        List.of("QTY", Types.INTEGER, "INTEGER", 10, 0, NULLABLE, 11),
        List.of("PAID", Types.BOOLEAN, "BOOLEAN", 1, 0, NULLABLE, 5),
        List.of("TS", Types.TIMESTAMP, "TIMESTAMP", 3, 0, NULLABLE, 23),
        List.of("NOTE", Types.VARCHAR, "VARCHAR", 0, 0, NULLABLE, 255)),
        probe("SELECT * FROM orders WHERE 1 = 0"));
  }

  @Test void shouldDescribeAViewWithoutReadingItsRows() throws Exception {
    List<List<Object>> columns = List.of(
        List.of("REGION", Types.CHAR, "CHAR", 2, 0, NULLABLE, 2),
        List.of("CUSTOMER", Types.VARCHAR, "VARCHAR", 20, 0, NULLABLE, 20),
        List.of("ORDERS", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20),
        List.of("TOTAL", Types.DECIMAL, "DECIMAL", 19, 2, NULLABLE, 21));
    assertEquals(columns, probe("SELECT * FROM sales_by_customer WHERE 1 = 0"));
    assertEquals(List.of(columns.get(1), columns.get(3)),
        probe("SELECT * FROM (SELECT customer, total FROM sales_by_customer) t WHERE 1 = 0"));
  }

  @Test void shouldDescribeASystemTableWithoutReadingItsRows() throws Exception {
    assertEquals(List.of(
        List.of("QUERY_ID", Types.VARCHAR, "VARCHAR", 0, 0, NOT_NULL, 255),
        List.of("NAME", Types.VARCHAR, "VARCHAR", 0, 0, NOT_NULL, 255),
        List.of("BATCH_ID", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20)),
        probe("SELECT * FROM (SELECT query_id, name, batch_id FROM sys.query_progress) t"
            + " WHERE 1 = 0"));
  }

  @Test void shouldDescribeAPushQueryWrittenAsASubqueryAndEnd() throws Exception {
    // A plain SELECT around SELECT STREAM is a bounded query: it ends, here without a row.
    assertEquals(List.of(
        List.of("CUSTOMER", Types.VARCHAR, "VARCHAR", 20, 0, NULLABLE, 20),
        List.of("N", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20)),
        probe("SELECT * FROM (SELECT STREAM customer, COUNT(*) AS n FROM orders"
            + " GROUP BY customer) t WHERE 1 = 0"));
    assertEquals(List.of(
        List.of("ORDER_ID", Types.BIGINT, "BIGINT", 19, 0, NOT_NULL, 20)),
        probe("SELECT * FROM (SELECT STREAM order_id FROM orders) t WHERE 1 = 0"));
  }

  @Test void shouldRejectEmitInsideASubquery() {
    // EMIT ends a statement; the parser does not take it inside parentheses.
    SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery(
        "SELECT * FROM (SELECT STREAM customer, COUNT(*) AS n FROM orders GROUP BY customer"
            + " EMIT UPDATE) t WHERE 1 = 0"));
    assertEquals("42000", e.getSQLState());
  }
}

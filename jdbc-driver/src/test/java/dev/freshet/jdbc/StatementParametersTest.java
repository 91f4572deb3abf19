package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.rows;
import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Statement parameters ({@code ?}) through the embedded driver: described by
 * {@code ParameterMetaData}, bound at execute in pull queries over views and streams, INSERTs
 * (one at a time and in batches) and push queries.
 */
class StatementParametersTest {
  private static final String CLICKS = "CREATE STREAM clicks (user_id VARCHAR(20) NOT NULL,"
      + " page VARCHAR, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH (connector = 'memory')";
  private static final String PER_USER = "CREATE MATERIALIZED VIEW clicks_per_user AS"
      + " SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id";

  private final String engineName = UUID.randomUUID().toString();
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + engineName);
    statement = connection.createStatement();
    statement.execute(CLICKS);
    statement.execute(PER_USER);
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private void insertClicks() throws SQLException {
    statement.executeUpdate("INSERT INTO clicks VALUES ('ann', '/a', 1.50, NULL),"
        + " ('bob', '/b', 2.00, NULL), ('ann', '/c', 3.25, NULL)");
  }


  @Test void shouldDescribeParametersWithTheTypesTheValidatorInfers() throws Exception {
    try (PreparedStatement ps = connection.prepareStatement(
        "INSERT INTO clicks (user_id, page, amount, ts) VALUES (?, ?, ?, ?)")) {
      ParameterMetaData md = ps.getParameterMetaData();
      assertEquals(4, md.getParameterCount());
      List<List<Object>> described = new ArrayList<>();
      for (int i = 1; i <= 4; i++) {
        described.add(List.of(md.getParameterType(i), md.getParameterTypeName(i),
            md.getPrecision(i), md.getScale(i), md.getParameterClassName(i)));
      }
      assertEquals(List.of(
          List.of(Types.VARCHAR, "VARCHAR", 20, 0, "java.lang.String"),
          List.of(Types.VARCHAR, "VARCHAR", 0, 0, "java.lang.String"),
          List.of(Types.DECIMAL, "DECIMAL", 10, 2, "java.math.BigDecimal"),
          List.of(Types.TIMESTAMP, "TIMESTAMP", 3, 0, "java.sql.Timestamp")), described);
    }
    try (PreparedStatement ps = connection.prepareStatement(
        "SELECT * FROM clicks_per_user WHERE user_id = ? AND n > ?")) {
      ParameterMetaData md = ps.getParameterMetaData();
      assertEquals(2, md.getParameterCount());
      assertEquals(List.of(Types.VARCHAR, Types.BIGINT),
          List.of(md.getParameterType(1), md.getParameterType(2)));
    }
    try (PreparedStatement ps = connection.prepareStatement("SELECT * FROM clicks")) {
      assertEquals(0, ps.getParameterMetaData().getParameterCount());
    }
  }

  @Test void shouldBindAPullQueryOverAView() throws Exception {
    insertClicks();
    awaitRows(statement, "SELECT * FROM clicks_per_user",
        List.of(row("ann", 2L), row("bob", 1L)));
    try (PreparedStatement ps = connection.prepareStatement(
        "SELECT user_id, n FROM clicks_per_user WHERE user_id = ?")) {
      ps.setString(1, "ann");
      assertEquals(List.of(row("ann", 2L)), rows(ps.executeQuery()));
      ps.setString(1, "bob");
      assertEquals(List.of(row("bob", 1L)), rows(ps.executeQuery()));
      // A quote in a value is data, never SQL.
      ps.setString(1, "x' OR '1' = '1");
      assertEquals(List.of(), rows(ps.executeQuery()));
    }
  }

  @Test void shouldBindAPullQueryOverAStream() throws Exception {
    insertClicks();
    try (PreparedStatement ps = connection.prepareStatement(
        "SELECT page, amount FROM clicks WHERE user_id = ? AND amount > ?")) {
      ps.setString(1, "ann");
      ps.setBigDecimal(2, new BigDecimal("2"));
      assertEquals(List.of(row("/c", new BigDecimal("3.25"))), rows(ps.executeQuery()));
      ps.setInt(2, 1);
      assertEquals(List.of(row("/a", new BigDecimal("1.50")), row("/c", new BigDecimal("3.25"))),
          rows(ps.executeQuery()));
    }
  }

  @Test void shouldInsertNullTimestampDecimalAndUnicodeParameters() throws Exception {
    Timestamp ts = Timestamp.valueOf("2024-05-01 12:34:56.789");
    try (PreparedStatement ps = connection.prepareStatement(
        "INSERT INTO clicks VALUES (?, ?, ?, ?)")) {
      ps.setString(1, "日本語 émoji 😀 'q'");
      ps.setNull(2, Types.VARCHAR);
      ps.setBigDecimal(3, new BigDecimal("12345678.91"));
      ps.setTimestamp(4, ts);
      assertEquals(1, ps.executeUpdate());
      ps.setString(1, "plain");
      ps.setString(2, "/p");
      ps.setObject(3, null);
      ps.setNull(4, Types.TIMESTAMP);
      assertEquals(1, ps.executeUpdate());
    }
    assertEquals(List.of(
        row("日本語 émoji 😀 'q'", null, new BigDecimal("12345678.91"), ts),
        row("plain", "/p", null, null)),
        rows(statement.executeQuery("SELECT user_id, page, amount, ts FROM clicks")));
  }

  /**
   * Each parameter set of a batch is an INSERT of its own: one offset of the stream each, as the
   * view's progress shows (its last batch ends at offset 3 of a stream that was empty).
   */
  @Test void shouldInsertABatchOfParameterSetsAsOneOffsetEach() throws Exception {
    try (PreparedStatement ps = connection.prepareStatement(
        "INSERT INTO clicks (user_id, amount) VALUES (?, ?)")) {
      for (int i = 1; i <= 3; i++) {
        ps.setString(1, "u" + i);
        ps.setBigDecimal(2, new BigDecimal(i + ".10"));
        ps.addBatch();
      }
      assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
    }
    assertEquals(List.of(row("u1", new BigDecimal("1.10")), row("u2", new BigDecimal("2.10")),
        row("u3", new BigDecimal("3.10"))),
        rows(statement.executeQuery("SELECT user_id, amount FROM clicks")));
    awaitRows(statement, "SELECT * FROM clicks_per_user",
        List.of(row("u1", 1L), row("u2", 1L), row("u3", 1L)));
    PushResults.awaitIdle(engineName, "the view after the batch");
    long endOffset = 0;
    for (List<Object> progress : rows(statement.executeQuery(
        "SELECT json FROM sys.query_progress"))) {
      JsonNode json = new ObjectMapper().readTree((String) progress.get(0));
      endOffset = Math.max(endOffset, json.at("/sources/0/endOffset").asLong());
    }
    assertEquals(3, endOffset);
  }

  @Test void shouldBindAPushQueryAtExecute() throws Exception {
    try (PreparedStatement ps = connection.prepareStatement(
        "SELECT STREAM user_id, page FROM clicks WHERE user_id = ?")) {
      ps.setString(1, "bob");
      try (ResultSet rs = ps.executeQuery()) {
        insertClicks();
        statement.executeUpdate("INSERT INTO clicks (user_id, page) VALUES ('bob', '/d')");
        assertEquals(List.of(row("bob", "/b"), row("bob", "/d")), PushResults.readData(rs, 2));
      }
    }
  }

  @Test void shouldRefuseAStatementWithAParameterLeftUnset() throws Exception {
    try (PreparedStatement ps = connection.prepareStatement(
        "INSERT INTO clicks (user_id, page) VALUES (?, ?)")) {
      ps.setString(1, "ann");
      SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
      assertEquals("07001", e.getSQLState());
      assertEquals("Parameter 2 of 2 has no value. Set every parameter (setXxx(2, ...), or"
          + " setNull(2, type) for NULL) before executing", e.getMessage());
    }
    SQLException e = assertThrows(SQLException.class,
        () -> statement.executeQuery("SELECT * FROM clicks WHERE user_id = ?"));
    assertEquals("07001", e.getSQLState());
    assertEquals(0L, rows(statement.executeQuery("SELECT COUNT(*) FROM clicks")).get(0).get(0));
  }
}

package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.sql.FreshetSqlParser;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client writing one row per INSERT, plain or prepared, embedded or through the server, builds
 * no generated parser per statement (it was most of the garbage behind W3's and W6's tails), and
 * its rows and errors are those of the parsed statement.
 */
class InsertWithoutParserTest {
  private static final int INSERTS = 1_000;
  private static FreshetServer server;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static Connection connect(String where) throws SQLException {
    return DriverManager.getConnection(where.equals("remote")
        ? "jdbc:freshet:remote:url=" + server.url()
        : "jdbc:freshet:engine=" + InsertWithoutParserTest.class.getSimpleName());
  }

  private static String createStream(Statement s) throws SQLException {
    String stream = uniqueName("w");
    s.execute("CREATE STREAM " + stream + " (id BIGINT NOT NULL, title VARCHAR(20),"
        + " event_ts TIMESTAMP(3), x DOUBLE, ok BOOLEAN, amount DECIMAL(10, 2))");
    return stream;
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void preparedInsertsBuildNoParserPerExecution(String where) throws Exception {
    try (Connection c = connect(where); Statement s = c.createStatement()) {
      String stream = createStream(s);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + stream
          + " VALUES (?, ?, ?, ?, ?, ?)")) {
        long before = FreshetSqlParser.parsersBuilt();
        for (int i = 0; i < INSERTS; i++) {
          ps.setLong(1, i);
          ps.setString(2, "n'" + i);
          ps.setTimestamp(3, new Timestamp(1_700_000_000_000L + i));
          ps.setDouble(4, i / 4.0);
          ps.setBoolean(5, i % 2 == 0);
          ps.setBigDecimal(6, new BigDecimal(i).movePointLeft(2));
          assertEquals(1, ps.executeUpdate());
        }
        assertEquals(0, FreshetSqlParser.parsersBuilt() - before,
            "generated parsers built for " + INSERTS + " executions");
      }
      assertEquals("[[1000, 499500, 500, 4995.00, n'999]]", readAll(s.executeQuery(
          "SELECT COUNT(*), SUM(id), SUM(CASE WHEN ok THEN 1 ELSE 0 END), SUM(amount),"
              + " MAX(title) FROM " + stream)).toString());
      assertEquals(List.of(List.of(new Timestamp(1_700_000_000_999L), 249.75)),
          readAll(s.executeQuery("SELECT MAX(event_ts), MAX(x) FROM " + stream)));
    }
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void plainInsertsBuildNoParserPerStatement(String where) throws Exception {
    try (Connection c = connect(where); Statement s = c.createStatement()) {
      String stream = createStream(s);
      long before = FreshetSqlParser.parsersBuilt();
      for (int i = 0; i < INSERTS; i++) {
        assertEquals(1, s.executeUpdate("INSERT INTO " + stream + " VALUES (" + i + ", 'n',"
            + " TIMESTAMP '2024-01-01 00:00:00', 1.5E0, TRUE, 2.5)"));
      }
      assertEquals(0, FreshetSqlParser.parsersBuilt() - before);
      assertEquals(List.of(List.of((long) INSERTS, (long) INSERTS * (INSERTS - 1) / 2)),
          readAll(s.executeQuery("SELECT COUNT(*), SUM(id) FROM " + stream)));
    }
  }

  /**
   * Each statement is run twice: as written, which the recognizer builds, and with a trailing
   * tab, which it leaves to the parser; the SQLSTATE and message must be the same.
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void errorsAreThoseOfTheParsedStatement(String where) throws Exception {
    try (Connection c = connect(where); Statement s = c.createStatement()) {
      String stream = createStream(s);
      String missing = uniqueName("missing");
      List<String> statements = List.of(
          "INSERT INTO " + missing + " VALUES (1)",
          "INSERT INTO " + stream + " VALUES (1, 'a')",
          "INSERT INTO " + stream + " VALUES ('x', 'a', NULL, NULL, NULL, NULL)",
          "INSERT INTO " + stream + " VALUES (NULL, 'a', NULL, NULL, NULL, NULL)",
          "INSERT INTO " + stream + " VALUES (1, 'a', TIMESTAMP 'not a time', NULL, NULL, NULL)",
          "INSERT INTO " + stream + " VALUES (99999999999999999999, NULL, NULL, NULL, NULL,"
              + " NULL)",
          "INSERT INTO " + stream + " VALUES (1, NULL, NULL, NULL, NULL, 123456789012)",
          "INSERT INTO " + stream + " (id, nope) VALUES (1, 2)",
          "INSERT INTO " + stream + " (title) VALUES ('a')",
          "INSERT INTO " + stream + " (id, id) VALUES (1, 2)",
          "INSERT INTO " + stream + "\nVALUES (1, NULL, NULL, 'x', NULL, NULL)");
      for (String sql : statements) {
        long before = FreshetSqlParser.parsersBuilt();
        SQLException recognized = assertThrows(SQLException.class, () -> s.executeUpdate(sql),
            sql);
        assertEquals(0, FreshetSqlParser.parsersBuilt() - before, sql);
        SQLException parsed = assertThrows(SQLException.class,
            () -> s.executeUpdate(sql + "\t"), sql);
        assertNotEquals(0, FreshetSqlParser.parsersBuilt() - before, sql);
        assertEquals(parsed.getSQLState(), recognized.getSQLState(), sql);
        assertEquals(parsed.getMessage(), recognized.getMessage(), sql);
      }
      assertEquals(List.of(List.of(0L)), readAll(s.executeQuery("SELECT COUNT(*) FROM "
          + stream)));

      c.setReadOnly(true);
      String insert = "INSERT INTO " + stream + " VALUES (1, NULL, NULL, NULL, NULL, NULL)";
      SQLException recognized = assertThrows(SQLException.class, () -> s.executeUpdate(insert));
      SQLException parsed = assertThrows(SQLException.class,
          () -> s.executeUpdate(insert + "\t"));
      assertEquals("25006", recognized.getSQLState());
      assertEquals(parsed.getMessage(), recognized.getMessage());
    }
  }
}

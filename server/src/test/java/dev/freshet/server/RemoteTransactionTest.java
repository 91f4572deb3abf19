package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transactions over the wire: commit, rollback, auto-commit and read-only reach the server's
 * session through Avatica's commit, rollback and connection-sync requests, from Freshet's remote
 * driver and from Avatica's stock driver alike.
 */
class RemoteTransactionTest {
  private static FreshetServer server;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  private static Connection connect(String driver) throws SQLException {
    return DriverManager.getConnection(driver.equals("freshet")
        ? "jdbc:freshet:remote:url=" + server.url()
        : "jdbc:avatica:remote:url=" + server.url() + ";serialization=PROTOBUF");
  }

  private static List<List<Object>> query(Statement statement, String sql) throws SQLException {
    try (ResultSet rs = statement.executeQuery(sql)) {
      return readAll(rs);
    }
  }

  @ParameterizedTest @ValueSource(strings = {"freshet", "stock"})
  void rollbackShouldLeaveNoRowAndCommitShouldAppend(String driver) throws Exception {
    String stream = uniqueName("clicks");
    String view = uniqueName("per_user");
    try (Connection writer = connect(driver);
         Statement w = writer.createStatement();
         Connection reader = connect(driver);
         Statement r = reader.createStatement()) {
      w.execute("CREATE STREAM " + stream + " (user_id VARCHAR, amount INTEGER)");
      w.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT user_id, COUNT(*) AS n FROM "
          + stream + " GROUP BY user_id EMIT UPDATE");
      writer.setAutoCommit(false);
      assertFalse(writer.getAutoCommit());
      assertEquals(2, w.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1), ('b', 2)"));
      assertEquals(List.of(List.of(0L)), query(r, "SELECT COUNT(*) FROM " + stream));
      writer.rollback();
      assertEquals(1, w.executeUpdate("INSERT INTO " + stream + " VALUES ('c', 3)"));
      assertEquals(List.of(List.of(0L)), query(r, "SELECT COUNT(*) FROM " + stream));
      writer.commit();

      RemoteTesting.awaitView(server, view);
      assertEquals(List.of(List.of("c", 3)), query(r, "SELECT * FROM " + stream));
      assertEquals(List.of(List.of("c", 1L)), query(r, "SELECT user_id, n FROM " + view));
    }
  }

  @Test void commitShouldAppendEachStreamsRowsAsOneBatch() throws Exception {
    String a = uniqueName("a");
    String b = uniqueName("b");
    try (Connection writer = connect("freshet");
         Statement w = writer.createStatement();
         Connection reader = connect("freshet");
         Statement pushA = reader.createStatement();
         Statement pushB = reader.createStatement()) {
      w.execute("CREATE STREAM " + a + " (k VARCHAR, v INTEGER)");
      w.execute("CREATE STREAM " + b + " (k VARCHAR, v INTEGER)");
      ResultSet rowsA = pushA.executeQuery("SELECT STREAM k, v FROM " + a);
      ResultSet rowsB = pushB.executeQuery("SELECT STREAM k, v FROM " + b);
      writer.setAutoCommit(false);
      w.executeUpdate("INSERT INTO " + a + " VALUES ('a1', 1)");
      w.executeUpdate("INSERT INTO " + b + " VALUES ('b1', 10)");
      w.executeUpdate("INSERT INTO " + a + " VALUES ('a2', 2)");
      try (Statement count = reader.createStatement()) {
        assertEquals(List.of(List.of(0L)), query(count, "SELECT COUNT(*) FROM " + a));
      }
      writer.commit();

      List<List<Object>> rowsOfA = RemoteTesting.read(rowsA, 2);
      List<List<Object>> rowsOfB = RemoteTesting.read(rowsB, 1);
      Object batchA = rowsOfA.get(0).get(2);
      assertEquals(List.of(List.of("a1", 1, batchA, "INSERT"), List.of("a2", 2, batchA,
          "INSERT")), rowsOfA, "a's rows in one batch");
      assertEquals(List.of(List.of("b1", 10, rowsOfB.get(0).get(2), "INSERT")), rowsOfB);
    }
  }

  @ParameterizedTest @ValueSource(strings = {"freshet", "stock"})
  void closingWithoutCommitShouldDropTheRows(String driver) throws Exception {
    String stream = uniqueName("s");
    try (Connection reader = connect(driver); Statement r = reader.createStatement()) {
      r.execute("CREATE STREAM " + stream + " (v INTEGER)");
      try (Connection writer = connect(driver); Statement w = writer.createStatement()) {
        writer.setAutoCommit(false);
        w.executeUpdate("INSERT INTO " + stream + " VALUES (1)");
      }
      assertEquals(List.of(List.of(0L)), query(r, "SELECT COUNT(*) FROM " + stream));
    }
  }

  /** The setting reaches the server when it is made, not with a next statement that never comes. */
  @Test void autoCommitOnShouldCommitBeforeClose() throws Exception {
    String stream = uniqueName("s");
    try (Connection reader = connect("freshet"); Statement r = reader.createStatement()) {
      r.execute("CREATE STREAM " + stream + " (v INTEGER)");
      try (Connection writer = connect("freshet"); Statement w = writer.createStatement()) {
        writer.setAutoCommit(false);
        w.executeUpdate("INSERT INTO " + stream + " VALUES (7)");
        writer.setAutoCommit(true);
      }
      assertEquals(List.of(List.of(7)), query(r, "SELECT v FROM " + stream));
    }
  }

  @ParameterizedTest @ValueSource(strings = {"freshet", "stock"})
  void readOnlyShouldRefuseInsertWith25006(String driver) throws Exception {
    String stream = uniqueName("s");
    try (Connection connection = connect(driver);
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE STREAM " + stream + " (v INTEGER)");
      connection.setReadOnly(true);
      assertTrue(connection.isReadOnly());
      SQLException e = assertThrows(SQLException.class,
          () -> statement.executeUpdate("INSERT INTO " + stream + " VALUES (1)"));
      assertEquals("25006", e.getSQLState());
      assertTrue(e.getMessage().contains("The connection is read-only"
          + " (Connection.setReadOnly(true)), so it cannot run INSERT;"), e.getMessage());
      connection.setReadOnly(false);
      assertEquals(1, statement.executeUpdate("INSERT INTO " + stream + " VALUES (1)"));
    }
  }

  @Test void isolationShouldBeReadCommitted() throws Exception {
    try (Connection connection = connect("freshet")) {
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
      DatabaseMetaData metaData = connection.getMetaData();
      assertTrue(metaData.supportsTransactions());
      assertEquals(Connection.TRANSACTION_READ_COMMITTED,
          metaData.getDefaultTransactionIsolation());
      assertTrue(metaData.supportsTransactionIsolationLevel(
          Connection.TRANSACTION_READ_COMMITTED));
      assertFalse(metaData.supportsTransactionIsolationLevel(
          Connection.TRANSACTION_SERIALIZABLE));
      SQLException e = assertThrows(SQLException.class,
          () -> connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
      assertEquals("0A000", e.getSQLState());
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
      connection.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
      // The connection still works.
      try (Statement statement = connection.createStatement()) {
        assertEquals(List.of(List.of(1)), query(statement, "SELECT 1"));
      }
    }
  }
}

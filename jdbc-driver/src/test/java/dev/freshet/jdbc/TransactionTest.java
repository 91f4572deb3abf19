package dev.freshet.jdbc;

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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Transactions through the embedded driver: with auto-commit off a connection's INSERTs are
 * invisible until {@code commit()}, which appends them as one offset per stream, and
 * {@code rollback()} (or closing) drops them; a read-only connection refuses writes (25006);
 * isolation is READ_COMMITTED wherever it is asked.
 */
class TransactionTest {
  private final String engine = UUID.randomUUID().toString();
  private final String url = "jdbc:freshet:engine=" + engine;

  private static List<List<Object>> query(Statement statement, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(PushResults.row(rs));
      }
    }
    return rows;
  }

  @Test void rollbackShouldLeaveNoRowInTheStreamOrItsView() throws Exception {
    try (Connection writer = DriverManager.getConnection(url);
         Statement w = writer.createStatement();
         Connection reader = DriverManager.getConnection(url);
         Statement r = reader.createStatement()) {
      w.execute("CREATE STREAM clicks (user_id VARCHAR, amount INTEGER)");
      w.execute("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id, COUNT(*) AS n"
          + " FROM clicks GROUP BY user_id EMIT UPDATE");
      w.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");

      writer.setAutoCommit(false);
      assertFalse(writer.getAutoCommit());
      assertEquals(2, w.executeUpdate("INSERT INTO clicks VALUES ('a', 2), ('b', 3)"));
      assertEquals(1, w.executeUpdate("INSERT INTO clicks VALUES ('c', 4)"));
      // Uncommitted: no one sees them, not even the writer's own reads.
      assertEquals(List.of(List.of("a", 1)), query(r, "SELECT * FROM clicks"));
      assertEquals(List.of(List.of("a", 1)), query(w, "SELECT * FROM clicks"));
      writer.rollback();

      // A later committed row proves the view has caught up past any rolled-back offset.
      writer.setAutoCommit(true);
      w.executeUpdate("INSERT INTO clicks VALUES ('z', 9)");
      PushResults.awaitIdle(engine, "after rollback");
      assertEquals(List.of(List.of("a", 1), List.of("z", 9)),
          query(r, "SELECT * FROM clicks"));
      assertEquals(List.of(List.of("a", 1L), List.of("z", 1L)),
          query(r, "SELECT user_id, n FROM clicks_per_user ORDER BY user_id"));
    }
  }

  @Test void commitShouldAppendEachStreamsRowsAsOneBatch() throws Exception {
    try (Connection writer = DriverManager.getConnection(url);
         Statement w = writer.createStatement();
         Connection reader = DriverManager.getConnection(url);
         Statement r = reader.createStatement();
         Statement pushA = reader.createStatement();
         Statement pushB = reader.createStatement()) {
      w.execute("CREATE STREAM a (k VARCHAR, v INTEGER)");
      w.execute("CREATE STREAM b (k VARCHAR, v INTEGER)");
      ResultSet rowsA = pushA.executeQuery("SELECT STREAM k, v FROM a");
      ResultSet rowsB = pushB.executeQuery("SELECT STREAM k, v FROM b");

      writer.setAutoCommit(false);
      w.executeUpdate("INSERT INTO a VALUES ('a1', 1)");
      w.executeUpdate("INSERT INTO b VALUES ('b1', 10), ('b2', 20)");
      w.executeUpdate("INSERT INTO a VALUES ('a2', 2), ('a3', 3)");
      assertEquals(List.of(List.of(0L)), query(r, "SELECT COUNT(*) FROM a"));
      assertEquals(List.of(List.of(0L)), query(r, "SELECT COUNT(*) FROM b"));
      writer.commit();

      List<List<Object>> a = PushResults.read(rowsA, 3);
      List<List<Object>> b = PushResults.read(rowsB, 2);
      long batchA = (Long) a.get(0).get(2);
      long batchB = (Long) b.get(0).get(2);
      assertEquals(List.of(List.of("a1", 1, batchA, "INSERT"), List.of("a2", 2, batchA, "INSERT"),
          List.of("a3", 3, batchA, "INSERT")), a, "all of a's rows in one batch");
      assertEquals(List.of(List.of("b1", 10, batchB, "INSERT"),
          List.of("b2", 20, batchB, "INSERT")), b, "all of b's rows in one batch");
      assertEquals(List.of(List.of(3L)), query(r, "SELECT COUNT(*) FROM a"));
      // Committed once: the next commit has nothing to append.
      writer.commit();
      assertEquals(List.of(List.of(2L)), query(r, "SELECT COUNT(*) FROM b"));
    }
  }

  @Test void closingWithoutCommitShouldDropAndAutoCommitOnShouldCommit() throws Exception {
    try (Connection reader = DriverManager.getConnection(url);
         Statement r = reader.createStatement()) {
      r.execute("CREATE STREAM s (v INTEGER)");
      try (Connection writer = DriverManager.getConnection(url);
           Statement w = writer.createStatement()) {
        writer.setAutoCommit(false);
        w.executeUpdate("INSERT INTO s VALUES (1)");
      }
      assertEquals(List.of(List.of(0L)), query(r, "SELECT COUNT(*) FROM s"));
      try (Connection writer = DriverManager.getConnection(url);
           Statement w = writer.createStatement()) {
        writer.setAutoCommit(false);
        w.executeUpdate("INSERT INTO s VALUES (2)");
        // JDBC: turning auto-commit on commits the transaction.
        writer.setAutoCommit(true);
        assertEquals(List.of(List.of(2)), query(r, "SELECT v FROM s"));
      }
    }
  }

  @Test void readOnlyConnectionShouldRefuseWritesWith25006() throws Exception {
    try (Connection connection = DriverManager.getConnection(url);
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE STREAM s (v INTEGER)");
      connection.setReadOnly(true);
      assertTrue(connection.isReadOnly());
      SQLException insert = assertThrows(SQLException.class,
          () -> statement.executeUpdate("INSERT INTO s VALUES (1)"));
      assertEquals("25006", insert.getSQLState());
      assertEquals("The connection is read-only (Connection.setReadOnly(true)), so it cannot"
          + " run INSERT; call setReadOnly(false) or run it on a connection that is not"
          + " read-only", insert.getMessage());
      SQLException create = assertThrows(SQLException.class,
          () -> statement.execute("CREATE STREAM t (v INTEGER)"));
      assertEquals("25006", create.getSQLState());
      assertTrue(create.getMessage().contains("cannot run CREATE STREAM;"), create.getMessage());
      SQLException drop = assertThrows(SQLException.class,
          () -> statement.execute("DROP STREAM s"));
      assertEquals("25006", drop.getSQLState());
      // Reads still work.
      assertEquals(List.of(List.of(0L)), query(statement, "SELECT COUNT(*) FROM s"));

      // Read-only governs the statements that follow: what is pending still commits.
      connection.setReadOnly(false);
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO s VALUES (1)");
      connection.setReadOnly(true);
      assertEquals("25006", assertThrows(SQLException.class,
          () -> statement.executeUpdate("INSERT INTO s VALUES (2)")).getSQLState());
      connection.commit();
      assertEquals(List.of(List.of(1)), query(statement, "SELECT v FROM s"));
    }
  }

  @Test void isolationShouldBeReadCommittedEverywhere() throws Exception {
    try (Connection connection = DriverManager.getConnection(url)) {
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
      DatabaseMetaData metaData = connection.getMetaData();
      assertTrue(metaData.supportsTransactions());
      assertEquals(Connection.TRANSACTION_READ_COMMITTED,
          metaData.getDefaultTransactionIsolation());
      assertTrue(metaData.supportsTransactionIsolationLevel(
          Connection.TRANSACTION_READ_COMMITTED));
      assertFalse(metaData.supportsTransactionIsolationLevel(
          Connection.TRANSACTION_SERIALIZABLE));
      assertFalse(metaData.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE));

      // A weaker level asked for gets READ_COMMITTED; a stronger one is refused.
      connection.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
      SQLException serializable = assertThrows(SQLException.class,
          () -> connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
      assertEquals("0A000", serializable.getSQLState());
      assertEquals("Transaction isolation 8 is not supported: Freshet provides READ_COMMITTED"
          + " (2); call setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED)",
          serializable.getMessage());
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
    }
  }
}

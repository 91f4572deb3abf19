package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A continuous GROUP BY through the plain java.sql API, embedded. */
class PushQueryTest {
  private final String url = "jdbc:freshet:engine=" + UUID.randomUUID();
  private Connection a;
  private Connection b;

  @BeforeEach void connect() throws Exception {
    a = DriverManager.getConnection(url);
    b = DriverManager.getConnection(url);
    try (Statement s = a.createStatement()) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
          + " WITH (connector = 'memory')");
    }
  }

  @AfterEach void close() throws Exception {
    b.close();
    a.close();
  }

  @Test void shouldReadExactlyTheChangedRowsOfEachBatchWhenAnotherConnectionInserts()
      throws Exception {
    try (Statement query = b.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n,"
             + " SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE");
         Statement insert = a.createStatement()) {
      assertEquals(5, rs.getMetaData().getColumnCount());
      assertEquals(List.of("USER_ID", "N", "TOTAL"), List.of(rs.getMetaData().getColumnLabel(1),
          rs.getMetaData().getColumnLabel(2), rs.getMetaData().getColumnLabel(3)));

      assertEquals(2, insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('b', 2)"));
      assertEquals(Set.of(List.of("a", 1L, 1.0, 0L, "INSERT"),
          List.of("b", 1L, 2.0, 0L, "INSERT")),
          Set.copyOf(PushResults.read(rs, 2)));

      insert.executeUpdate("INSERT INTO clicks VALUES ('a', 3)");
      assertEquals(List.of(List.of("a", 2L, 4.0, 1L, "UPDATE")), PushResults.read(rs, 1));

      // Had batch 2 emitted anything for b, that row would be read here instead.
      insert.executeUpdate("INSERT INTO clicks VALUES ('b', 5)");
      assertEquals(List.of(List.of("b", 2L, 7.0, 2L, "UPDATE")), PushResults.read(rs, 1));
    }
  }

  @Test void shouldReturnTheRowOfABatchWithoutWaitingForAnotherBatch() throws Exception {
    try (Statement query = b.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n"
             + " FROM clicks GROUP BY user_id");
         Statement insert = a.createStatement()) {
      insert.executeUpdate("INSERT INTO clicks VALUES ('only', 1)");
      // No further insert: a driver that looked one row ahead would block here forever.
      assertEquals(List.of(List.of("only", 1L, 0L, "INSERT")), PushResults.read(rs, 1));
    }
  }

  @Test void shouldComputeEveryAggregateWithWhereBeforeTheAggregation() throws Exception {
    try (Statement query = b.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n,"
             + " COUNT(amount) AS c, SUM(amount) AS s, MIN(amount) AS lo, MAX(amount) AS hi,"
             + " AVG(amount) AS av FROM clicks WHERE amount <> 100 GROUP BY user_id");
         Statement insert = a.createStatement()) {
      insert.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('a', NULL), ('a', 100),"
          + " ('a', 5)");
      assertEquals(List.of(List.of("a", 2L, 2L, 6.0, 1.0, 5.0, 3.0, 0L, "INSERT")),
          PushResults.read(rs, 1));
      insert.executeUpdate("INSERT INTO clicks VALUES ('a', 9)");
      assertEquals(List.of(List.of("a", 3L, 3L, 15.0, 1.0, 9.0, 5.0, 1L, "UPDATE")),
          PushResults.read(rs, 1));
    }
  }

  @Test void shouldGroupByTwoColumns() throws Exception {
    try (Statement s = a.createStatement()) {
      s.execute("CREATE STREAM orders (region VARCHAR, product VARCHAR, qty INTEGER)"
          + " WITH (connector = 'memory')");
    }
    try (Statement query = b.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM region, product, SUM(qty) AS q"
             + " FROM orders GROUP BY region, product EMIT UPDATE");
         Statement insert = a.createStatement()) {
      insert.executeUpdate("INSERT INTO orders VALUES ('eu', 'x', 1), ('eu', 'y', 2),"
          + " ('us', 'x', 3), ('eu', 'x', 4)");
      assertEquals(Set.of(List.of("eu", "x", 5L, 0L, "INSERT"),
          List.of("eu", "y", 2L, 0L, "INSERT"),
          List.of("us", "x", 3L, 0L, "INSERT")), Set.copyOf(PushResults.read(rs, 3)));
    }
  }
}

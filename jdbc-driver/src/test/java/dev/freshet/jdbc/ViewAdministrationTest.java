package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.awaitRows;
import static dev.freshet.jdbc.ViewResults.query;
import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SHOW VIEWS, SHOW QUERIES, STOP QUERY, DESCRIBE and DROP of materialized views. */
class ViewAdministrationTest {
  private static final String VIEW_SQL = "CREATE MATERIALIZED VIEW clicks_per_user AS"
      + " SELECT user_id, COUNT(*) AS n FROM clicks GROUP BY user_id EMIT UPDATE";

  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
        + " WITH (connector = 'memory')");
    statement.execute(VIEW_SQL);
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  @Test void shouldShowTheViewWithItsModeQueryAndStatus() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW totals AS SELECT user_id, SUM(amount) AS s"
        + " FROM clicks GROUP BY user_id EMIT COMPLETE");
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    awaitRows(statement, "SELECT * FROM totals", List.of(row("a", 1.0)));

    List<List<Object>> views = query(statement, "SHOW VIEWS");
    assertEquals(2, views.size());
    List<Object> first = views.get(0);
    assertEquals("CLICKS_PER_USER", first.get(0));
    assertEquals("UPDATE", first.get(1));
    assertEquals("ACTIVE", first.get(3));
    List<Object> second = views.get(1);
    assertEquals(List.of("TOTALS", "COMPLETE", "ACTIVE", 0L),
        List.of(second.get(0), second.get(1), second.get(3), second.get(4)));

    List<List<Object>> queries = query(statement, "SHOW QUERIES");
    assertEquals(2, queries.size());
    List<Object> q = queries.get(0);
    assertEquals(first.get(2), q.get(0), "SHOW VIEWS and SHOW QUERIES name the same query id");
    assertEquals(Arrays.asList("CLICKS_PER_USER", "ACTIVE", "UPDATE"),
        q.subList(1, 4));
    assertEquals(VIEW_SQL, q.get(5));
    assertNull(q.get(6), "no error");
  }

  @Test void shouldListAPushQueryUntilItsStatementCloses() throws Exception {
    try (Statement push = connection.createStatement();
         ResultSet rs = push.executeQuery("SELECT STREAM user_id FROM clicks")) {
      List<List<Object>> queries = query(statement, "SHOW QUERIES");
      assertEquals(2, queries.size());
      // Sorted by name: the view's query (upper case) before push-....
      List<Object> pushQuery = queries.get(1);
      assertTrue(((String) pushQuery.get(1)).startsWith("push-"), pushQuery::toString);
      assertEquals(List.of("ACTIVE", "APPEND", -1L, "SELECT STREAM user_id FROM clicks"),
          pushQuery.subList(2, 6));
      assertFalse(rs.isClosed());
    }
    assertEquals(1, query(statement, "SHOW QUERIES").size());
  }

  @Test void shouldStopAPushQueryById() throws Exception {
    try (Statement push = connection.createStatement();
         ResultSet rs = push.executeQuery("SELECT STREAM user_id FROM clicks")) {
      String id = (String) query(statement, "SHOW QUERIES").get(1).get(0);
      statement.execute("STOP QUERY '" + id + "'");
      // The push result ends: its query stopped.
      assertFalse(assertTimeoutPreemptively(PushResults.DEADLINE, rs::next));
      assertEquals(1, query(statement, "SHOW QUERIES").size());
    }
  }

  @Test void shouldStopAViewsQueryAndKeepItsLastResult() throws Exception {
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    awaitRows(statement, "SELECT * FROM clicks_per_user", List.of(row("a", 1L)));

    statement.execute("STOP QUERY clicks_per_user");
    assertEquals("STOPPED", query(statement, "SHOW VIEWS").get(0).get(3));
    assertEquals("STOPPED", query(statement, "SHOW QUERIES").get(0).get(2));
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    // The stopped query applies nothing more; the view answers from its last batch.
    assertEquals(List.of(row("a", 1L)), query(statement, "SELECT * FROM clicks_per_user"));
    assertEquals(0L, query(statement, "SHOW QUERIES").get(0).get(4));

    statement.execute("DROP MATERIALIZED VIEW clicks_per_user");
    assertEquals(List.of(), query(statement, "SHOW VIEWS"));
    assertEquals(List.of(), query(statement, "SHOW QUERIES"));
  }

  @Test void shouldDescribeAViewLikeAStream() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW stats (who, clicks, total) AS"
        + " SELECT user_id, COUNT(*), SUM(amount) FROM clicks GROUP BY user_id");
    assertEquals(List.of(row("WHO", "VARCHAR", null), row("CLICKS", "BIGINT NOT NULL", null),
        row("TOTAL", "DOUBLE", null)), query(statement, "DESCRIBE stats"));
  }

  @Test void shouldDropTheViewAndFreeItsNameAndItsStream() throws Exception {
    statement.execute("DROP MATERIALIZED VIEW clicks_per_user");
    SQLException e = assertThrows(SQLException.class,
        () -> statement.executeQuery("SELECT * FROM clicks_per_user"));
    assertEquals("42S02", e.getSQLState());
    statement.execute("DROP MATERIALIZED VIEW IF EXISTS clicks_per_user");

    // The name is free again, and the stream no longer has a reader.
    statement.execute("CREATE STREAM clicks_per_user (x INTEGER) WITH (connector = 'memory')");
    statement.execute("DROP STREAM clicks");
    assertEquals(List.of(row("CLICKS_PER_USER")), query(statement, "SHOW STREAMS"));
  }

  @Test void shouldSeeAViewFromEveryConnectionOfTheEngine() throws Exception {
    String url = connection.getMetaData().getURL();
    try (Connection other = DriverManager.getConnection(url)) {
      statement.executeUpdate("INSERT INTO clicks VALUES ('z', 1)");
      awaitRows(other.createStatement(), "SELECT user_id, n FROM clicks_per_user",
          List.of(row("z", 1L)));
    }
  }
}

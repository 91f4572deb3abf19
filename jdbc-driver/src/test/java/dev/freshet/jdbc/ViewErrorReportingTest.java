package dev.freshet.jdbc;

import static dev.freshet.jdbc.ViewResults.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Mistakes with views, queries and options get a SQLSTATE, the problem and the fix. */
class ViewErrorReportingTest {
  private Connection connection;
  private Statement statement;

  @BeforeEach void connect() throws Exception {
    connection = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)"
        + " WITH (connector = 'memory')");
    statement.execute("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id,"
        + " COUNT(*) AS n FROM clicks GROUP BY user_id");
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  private SQLException fails(String sql) {
    return assertThrows(SQLException.class, () -> statement.execute(sql));
  }

  private static void assertContains(String expected, String actual) {
    assertTrue(actual.contains(expected), () -> "expected <" + expected + "> in <" + actual + ">");
  }

  @Test void shouldRejectCreatingAViewTwiceUnlessIfNotExists() throws Exception {
    SQLException e = fails("CREATE MATERIALIZED VIEW clicks_per_user AS SELECT user_id"
        + " FROM clicks");
    assertEquals("42S01", e.getSQLState());
    assertEquals("Materialized view 'CLICKS_PER_USER' already exists. Use CREATE MATERIALIZED"
        + " VIEW IF NOT EXISTS, or DROP MATERIALIZED VIEW CLICKS_PER_USER first.",
        e.getMessage());
    statement.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS clicks_per_user AS"
        + " SELECT user_id FROM clicks");
  }

  @Test void shouldKeepOneNamespaceForStreamsAndViews() {
    SQLException e = fails("CREATE MATERIALIZED VIEW clicks AS SELECT user_id FROM clicks");
    assertEquals("42S01", e.getSQLState());
    assertEquals("Cannot create materialized view 'CLICKS': a stream of that name exists, and"
        + " streams, views and tables share one namespace. Choose another name, or DROP STREAM"
        + " CLICKS first.", e.getMessage());

    e = fails("CREATE STREAM IF NOT EXISTS clicks_per_user (x INTEGER)"
        + " WITH (connector = 'memory')");
    assertEquals("42S01", e.getSQLState());
    assertContains("a materialized view of that name exists", e.getMessage());
    assertContains("DROP MATERIALIZED VIEW CLICKS_PER_USER", e.getMessage());
  }

  @Test void shouldRefuseToDropAStreamThatAViewReads() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW big AS SELECT * FROM clicks WHERE amount > 9");
    SQLException e = fails("DROP STREAM clicks");
    assertEquals("2BP01", e.getSQLState());
    assertEquals("Cannot drop stream 'CLICKS': materialized views BIG, CLICKS_PER_USER read it."
        + " Drop them first: DROP MATERIALIZED VIEW BIG.", e.getMessage());
    statement.execute("DROP MATERIALIZED VIEW big");
    e = fails("DROP STREAM IF EXISTS clicks");
    assertEquals("Cannot drop stream 'CLICKS': materialized view CLICKS_PER_USER reads it."
        + " Drop the view first: DROP MATERIALIZED VIEW CLICKS_PER_USER.", e.getMessage());
  }

  @Test void shouldNameTheRightDropForTheKindOfObject() {
    SQLException e = fails("DROP STREAM clicks_per_user");
    assertEquals("42809", e.getSQLState());
    assertEquals("'CLICKS_PER_USER' is a materialized view, not a stream. Use DROP MATERIALIZED"
        + " VIEW CLICKS_PER_USER.", e.getMessage());
    e = fails("DROP MATERIALIZED VIEW IF EXISTS clicks");
    assertEquals("42809", e.getSQLState());
    assertContains("Use DROP STREAM CLICKS", e.getMessage());
  }

  @Test void shouldReportAMissingView() {
    SQLException e = fails("DROP MATERIALIZED VIEW nope");
    assertEquals("42S02", e.getSQLState());
    assertContains("See SHOW VIEWS", e.getMessage());
    e = fails("DESCRIBE nope");
    assertEquals("42S02", e.getSQLState());
    assertEquals("Stream or view 'NOPE' not found. See SHOW STREAMS and SHOW VIEWS.",
        e.getMessage());
    e = fails("SELECT * FROM nope");
    assertEquals("42S02", e.getSQLState());
    assertContains("Object 'NOPE' not found", e.getMessage());
    assertContains("SHOW VIEWS", e.getMessage());
  }

  @Test void shouldRejectAContinuousQueryThatReadsAViewsChangesWithoutAggregatingThem() {
    // Aggregating them is what a view over a view does: ViewOverViewTest.
    for (String sql : new String[] {"SELECT STREAM * FROM clicks_per_user WHERE n > 1",
        "SELECT user_id FROM clicks_per_user EMIT UPDATE"}) {
      SQLException e = fails(sql);
      assertEquals("0A000", e.getSQLState(), sql);
      assertEquals("A continuous query can read the changes of materialized view CLICKS_PER_USER"
          + " only to aggregate them (GROUP BY): its rows are updated and deleted, which a query"
          + " without aggregation cannot emit. Subscribe with SELECT STREAM * FROM"
          + " CLICKS_PER_USER to get its rows and their changes, or query it with a plain"
          + " SELECT", e.getMessage(), sql);
    }
  }

  @Test void shouldRejectReplaceAndAWrongColumnList() {
    SQLException e = fails("CREATE OR REPLACE MATERIALIZED VIEW clicks_per_user AS"
        + " SELECT user_id FROM clicks");
    assertEquals("0A000", e.getSQLState());
    assertContains("DROP MATERIALIZED VIEW CLICKS_PER_USER, then CREATE", e.getMessage());
    e = fails("CREATE MATERIALIZED VIEW v (a, b) AS SELECT user_id FROM clicks");
    assertEquals("42000", e.getSQLState());
    assertEquals("Materialized view V names 2 columns, but its query has 1. Name each column of"
        + " the query once, or leave the list out", e.getMessage());
    e = fails("CREATE MATERIALIZED VIEW v (a, a) AS SELECT user_id, amount FROM clicks");
    assertContains("Column A appears twice in materialized view V", e.getMessage());
  }

  @Test void shouldReportAViewQueryThatCannotRunInItsMode() {
    SQLException e = fails("CREATE MATERIALIZED VIEW v AS SELECT user_id, COUNT(*)"
        + " FROM clicks GROUP BY user_id EMIT APPEND");
    assertEquals("42KDE", e.getSQLState());
  }

  @Test void shouldReportAValueThatBreaksAQueryOverAView() throws Exception {
    statement.executeUpdate("INSERT INTO clicks VALUES ('a', 1)");
    ViewResults.awaitRows(statement, "SELECT * FROM clicks_per_user", List.of(row("a", 1L)));
    SQLException e = fails("SELECT n / (n - 1) FROM clicks_per_user");
    assertEquals("22000", e.getSQLState());
    assertContains("Cannot compute the result of the query over view CLICKS_PER_USER: ",
        e.getMessage());
  }

  @Test void shouldNameShowQueriesWhenStoppingAnUnknownQuery() {
    SQLException e = fails("STOP QUERY 'no-such-query'");
    assertEquals("42704", e.getSQLState());
    assertEquals("Query 'no-such-query' not found. See SHOW QUERIES for the ids and names of the"
        + " engine's queries.", e.getMessage());
  }

  @Test void shouldListTheValidOptionsWhenAnOptionIsUnknownOrBad() throws Exception {
    SQLException e = fails("SET 'trigger.intervall' = '1 second'");
    assertEquals("42000", e.getSQLState());
    assertEquals("Unknown option 'trigger.intervall'. Options: max.windows.per.row,"
        + " min.batches.to.retain, on.error, pull.max.rows, push.batch.markers, push.buffer.rows,"
        + " query.memory.budget, restart.backoff, restart.max-attempts, state.partitions,"
        + " state.store.provider, state.ttl, trigger, trigger.interval", e.getMessage());

    e = fails("SET 'state.store.provider' = 'rocksdb'");
    assertEquals("42000", e.getSQLState());
    assertEquals("Option 'state.store.provider' must be one of: memory, mvstore; not 'rocksdb'",
        e.getMessage());
    statement.execute("SET 'state.store.provider' = 'MEMORY'");

    e = fails("SET 'trigger.interval' = 'soon'");
    assertEquals("42000", e.getSQLState());
    assertContains("must be a duration such as '1 second', '500 ms'", e.getMessage());
    e = fails("SET 'trigger.interval' = '500'");
    assertContains("not '500'", e.getMessage());
    for (String interval : new String[] {"1 second", "500 ms", "0", "2 minutes", "1.5 s"}) {
      statement.execute("SET 'trigger.interval' = '" + interval + "'");
    }
    statement.execute("RESET 'trigger.interval'");
  }
}

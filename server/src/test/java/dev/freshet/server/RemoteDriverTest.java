package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.await;
import static dev.freshet.server.RemoteTesting.awaitView;
import static dev.freshet.server.RemoteTesting.queriesReading;
import static dev.freshet.server.RemoteTesting.read;
import static dev.freshet.server.RemoteTesting.readAll;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.common.errors.SqlState;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Freshet over the wire: jdbc:freshet:remote: against a real server on a free port. */
class RemoteDriverTest {
  private static FreshetServer server;
  private static String url;

  private final String stream = uniqueName("clicks");
  private Connection writer;
  private Connection reader;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).start();
    url = "jdbc:freshet:remote:url=" + server.url();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  @BeforeEach void connect() throws SQLException {
    writer = DriverManager.getConnection(url);
    reader = DriverManager.getConnection(url);
    try (Statement s = writer.createStatement()) {
      assertEquals(0, s.executeUpdate("CREATE STREAM " + stream
          + " (user_id VARCHAR, amount DOUBLE) WITH (connector = 'memory')"));
    }
  }

  @AfterEach void close() throws SQLException {
    reader.close();
    writer.close();
  }

  @Test void shouldReturnEachPushedRowWithoutWaitingForALaterOneWhenAnotherConnectionInserts()
      throws Exception {
    try (Statement query = reader.createStatement();
         ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n,"
             + " SUM(amount) AS total FROM " + stream + " GROUP BY user_id EMIT UPDATE");
         Statement insert = writer.createStatement()) {
      assertEquals(2, insert.executeUpdate("INSERT INTO " + stream
          + " VALUES ('a', 1), ('b', 2)"));
      assertEquals(Set.of(List.of("a", 1L, 1.0, 0L, "INSERT"),
          List.of("b", 1L, 2.0, 0L, "INSERT")), Set.copyOf(read(rs, 2)));

      insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 3)");
      // Nothing is inserted after this: a client that looked one row ahead would block here.
      assertEquals(List.of(List.of("a", 2L, 4.0, 1L, "UPDATE")), read(rs, 1));
    }
  }

  @Test void shouldAnswerPullQueriesOverAMaterializedView() throws Exception {
    String view = uniqueName("totals");
    try (Statement s = writer.createStatement()) {
      assertEquals(0, s.executeUpdate("CREATE MATERIALIZED VIEW " + view + " AS SELECT user_id,"
          + " COUNT(*) AS n, SUM(amount) AS total FROM " + stream
          + " GROUP BY user_id EMIT UPDATE"));
      s.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1), ('b', 20), ('c', 5)");
      s.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 2), ('c', 1)");
    }
    awaitView(server, view);
    try (Statement s = reader.createStatement()) {
      assertEquals(List.of(List.of("a", 2L), List.of("c", 2L)), readAll(s.executeQuery(
          "SELECT user_id, n FROM " + view + " WHERE n > 1 ORDER BY user_id")));
      assertEquals(List.of(List.of("b", 20.0), List.of("c", 6.0)), readAll(s.executeQuery(
          "SELECT user_id, total FROM " + view + " ORDER BY total DESC LIMIT 2")));
      assertEquals(List.of(List.of(3L)), readAll(s.executeQuery(
          "SELECT COUNT(*) FROM " + view)));
    }
  }

  @Test void shouldReportTheEnginesSqlStateAndMessageOverTheWire() throws Exception {
    String embedded = "jdbc:freshet:engine=" + UUID.randomUUID();
    try (Connection local = DriverManager.getConnection(embedded);
         Statement s = local.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (user_id VARCHAR, amount DOUBLE)");
      for (String sql : List.of(
          "CREATE STREAM " + stream + " (user_id VARCHAR)",
          "SELECT STREAM 1",
          "SELECT STREAM * FROM " + stream + " EMIT COMPLETE",
          "SELECT * FROM no_such_table",
          "SELEC 1")) {
        SQLException expected = assertThrows(SQLException.class, () -> s.executeQuery(sql));
        try (Statement remote = reader.createStatement()) {
          SQLException actual = assertThrows(SQLException.class, () -> remote.executeQuery(sql));
          assertEquals(expected.getSQLState(), actual.getSQLState(), sql);
          assertEquals(expected.getMessage(), actual.getMessage(), sql);
        }
      }
    }
  }

  @Test void shouldReportThePlannersStateOverTheWire() throws Exception {
    String join = "SELECT STREAM user_id FROM " + stream + " a JOIN " + stream + " b"
        + " ON a.amount = b.amount";
    Map<String, SqlState> states = Map.of(
        "SELECT STREAM * FROM " + stream + " EMIT COMPLETE", SqlState.NOT_VALID_ON_STREAM,
        join, SqlState.AMBIGUOUS_COLUMN,
        "SELECT STREAM usr FROM " + stream, SqlState.COLUMN_NOT_FOUND);
    try (Statement remote = reader.createStatement()) {
      for (Map.Entry<String, SqlState> c : states.entrySet()) {
        SQLException e = assertThrows(SQLException.class, () -> remote.executeQuery(c.getKey()));
        assertEquals(c.getValue().code(), e.getSQLState(), c.getKey());
      }
      SQLException e = assertThrows(SQLException.class, () -> remote.executeQuery(join));
      assertTrue(e.getMessage().endsWith("Column 'USER_ID' is ambiguous"), e.getMessage());
    }
  }

  @Test void shouldStopThePushQueryOnTheServerWhenAReaderIsCancelled() throws Exception {
    try (Statement query = reader.createStatement()) {
      ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM " + stream
          + " GROUP BY user_id");
      assertEquals(1, queriesReading(server, stream).size());
      CompletableFuture<Boolean> next = CompletableFuture.supplyAsync(() -> {
        try {
          return rs.next();
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      query.cancel();
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> assertTimeoutPreemptively(RemoteTesting.DEADLINE, () -> next.get()));
      SQLException cancelled = (SQLException) e.getCause().getCause();
      assertEquals("HY008", cancelled.getSQLState(), cancelled.toString());
      await("the push query stops", () -> queriesReading(server, stream).isEmpty());

      // The statement can run another query.
      try (ResultSet again = query.executeQuery("SELECT COUNT(*) FROM " + stream)) {
        assertEquals(List.of(List.of(0L)), readAll(again));
      }
    }
  }

  @Test void shouldStopThePushQueryOnTheServerWhenTheStatementIsClosed() throws Exception {
    Statement query = reader.createStatement();
    query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM " + stream
        + " GROUP BY user_id");
    assertEquals(1, queriesReading(server, stream).size());
    query.close();
    await("the push query stops", () -> queriesReading(server, stream).isEmpty());
  }

  @Test void shouldStopThePushQueryOnTheServerWhenTheConnectionIsClosed() throws Exception {
    Connection other = DriverManager.getConnection(url);
    other.createStatement().executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM " + stream
        + " GROUP BY user_id");
    assertEquals(1, queriesReading(server, stream).size());
    other.close();
    await("the push query stops", () -> queriesReading(server, stream).isEmpty());
  }

  @Test void shouldStopAPushQueryWhoseClientStoppedFetching() throws Exception {
    try (FreshetServer strict = FreshetServer.builder().port(0)
        .fetchTimeout(Duration.ofMillis(50)).pushIdleTimeout(Duration.ofMillis(200)).start();
         Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + strict.url());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM " + stream + " (user_id VARCHAR)");
      try (Statement query = c.createStatement()) {
        // Executed, never read: as if the client had died.
        ResultSet rs = query.executeQuery("SELECT STREAM * FROM " + stream);
        await("the abandoned push query stops", () -> queriesReading(strict, stream).isEmpty());
        SQLException e = assertThrows(SQLException.class, rs::next);
        assertEquals("24000", e.getSQLState(), e.toString());
      }
    }
  }

  @Test void shouldEndAPushResultAtTheStatementsRowLimit() throws Exception {
    try (Statement insert = writer.createStatement()) {
      insert.executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1), ('b', 2), ('c', 3)");
    }
    try (Statement query = reader.createStatement()) {
      query.setMaxRows(2);
      ResultSet rs = query.executeQuery("SELECT STREAM user_id, COUNT(*) AS n FROM " + stream
          + " GROUP BY user_id");
      assertEquals(2, read(rs, 2).size());
      assertFalse(assertTimeoutPreemptively(RemoteTesting.DEADLINE, rs::next));
      await("the push query stops", () -> queriesReading(server, stream).isEmpty());
    }
  }
}

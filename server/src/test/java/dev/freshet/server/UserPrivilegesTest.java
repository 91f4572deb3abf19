package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.DEADLINE;
import static dev.freshet.server.RemoteTesting.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer.Authentication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users, owners and grants through the remote driver, against a real server with Basic
 * authentication: an administrator ({@code admin}, the users file's {@code admin} role) and two
 * plain users, {@code alice} and {@code bob}. Each object belongs to its creator; others need
 * {@code GRANT SELECT} to read it and {@code GRANT INSERT} to add rows, and only its owner or an
 * administrator may drop it or stop its query. Listings show each user what it may see.
 */
class UserPrivilegesTest {
  private static final String PASSWORD = "pw-Privileges-1";

  @TempDir Path dir;
  private FreshetServer server;
  private final List<Connection> connections = new ArrayList<>();

  @BeforeEach void start() throws Exception {
    server = start(dir.resolve("data"));
  }

  private FreshetServer start(Path dataDir) throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"),
        "admin: " + PASSWORD + ",admin\nalice: " + PASSWORD + "\nbob: " + PASSWORD + "\n");
    Files.createDirectories(dir.resolve("files"));
    return FreshetServer.builder().port(0).dataDir(dataDir)
        .authentication(Authentication.BASIC, users)
        .allowFileRoot(dir.resolve("files")).auditLog(dir.resolve("audit.jsonl")).start();
  }

  @AfterEach void stop() throws SQLException {
    closeConnections();
    if (server != null) {
      server.close();
    }
  }

  private void closeConnections() throws SQLException {
    for (Connection c : connections) {
      c.close();
    }
    connections.clear();
  }

  private Statement as(String user) throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url(), user,
        PASSWORD);
    connections.add(c);
    return c.createStatement();
  }

  /** Alice's stream {@code clicks} with three rows and her view {@code totals} over it. */
  private Statement alicesView() throws Exception {
    Statement alice = as("alice");
    alice.executeUpdate("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)");
    alice.executeUpdate("CREATE MATERIALIZED VIEW totals AS SELECT user_id, COUNT(*) AS n"
        + " FROM clicks GROUP BY user_id");
    alice.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('a', 2), ('b', 3)");
    RemoteTesting.awaitView(server, "totals");
    return alice;
  }

  @Test void shouldLetAUserReadAViewOnlyAfterGrantSelectAndNotAfterRevoke() throws Exception {
    Statement alice = alicesView();
    Statement bob = as("bob");
    assertRefused("SELECT on materialized view TOTALS",
        () -> bob.executeQuery("SELECT * FROM totals"));
    assertRefused("SELECT on stream CLICKS", () -> bob.executeQuery("SELECT * FROM clicks"));
    assertRefused("SELECT on materialized view TOTALS",
        () -> bob.executeQuery("SELECT STREAM * FROM totals"));
    assertRefused("SELECT on stream CLICKS", () -> bob.executeQuery(
        "SELECT STREAM user_id, COUNT(*) FROM clicks GROUP BY user_id"));
    // A subquery, a join and a WITH item reach the objects too.
    assertRefused("SELECT on materialized view TOTALS", () -> bob.executeQuery(
        "WITH t AS (SELECT * FROM totals) SELECT * FROM t"));
    assertRefused("SELECT on materialized view TOTALS", () -> bob.executeQuery(
        "SELECT 1 FROM (VALUES 1) WHERE EXISTS (SELECT 1 FROM \"totals\")"));

    alice.executeUpdate("GRANT SELECT ON MATERIALIZED VIEW totals TO bob");
    assertEquals(List.of(List.of("a", 2L), List.of("b", 1L)),
        readAll(bob.executeQuery("SELECT user_id, n FROM totals ORDER BY user_id")));
    // The view, not its stream.
    assertRefused("SELECT on stream CLICKS", () -> bob.executeQuery("SELECT * FROM clicks"));

    ResultSet push = bob.getConnection().createStatement().executeQuery(
        "SELECT STREAM * FROM totals");
    assertEquals(2, RemoteTesting.readSkippingProgress(push, 2).size());
    alice.executeUpdate("REVOKE SELECT ON totals FROM bob");
    SQLException ended = assertTimeoutPreemptively(DEADLINE, () -> assertThrows(
        SQLException.class, () -> {
          while (push.next()) {
            // Rows that arrived before the revoke; the result then ends with the refusal.
          }
        }));
    assertEquals("42501", ended.getSQLState(), ended.getMessage());
    assertRefused("SELECT on materialized view TOTALS",
        () -> bob.executeQuery("SELECT * FROM totals"));
  }

  @Test void shouldCheckAPreparedQueryAtPrepareAndAtEachExecution() throws Exception {
    Statement alice = alicesView();
    Connection bob = as("bob").getConnection();
    String lookup = "SELECT n FROM totals WHERE user_id = ?";
    SQLException prepare = assertThrows(SQLException.class, () -> bob.prepareStatement(lookup));
    assertEquals("42501", prepare.getSQLState(), prepare.getMessage());
    alice.executeUpdate("GRANT SELECT ON totals TO bob");
    java.sql.PreparedStatement prepared = bob.prepareStatement(lookup);
    prepared.setString(1, "a");
    assertEquals(List.of(List.of(2L)), readAll(prepared.executeQuery()));
    // Prepared while granted, executed after the revoke: refused, not served from its plan.
    alice.executeUpdate("REVOKE SELECT ON totals FROM bob");
    prepared.setString(1, "b");
    assertRefused("SELECT on materialized view TOTALS", prepared::executeQuery);
  }

  @Test void shouldLetNoUserDropStopOrChangeWhatOthersOwn() throws Exception {
    Statement alice = alicesView();
    Statement bob = as("bob");
    assertRefused("may not DROP materialized view TOTALS",
        () -> bob.executeUpdate("DROP MATERIALIZED VIEW totals"));
    assertRefused("may not DROP stream CLICKS", () -> bob.executeUpdate("DROP STREAM clicks"));
    assertRefused("INSERT on stream CLICKS",
        () -> bob.executeUpdate("INSERT INTO clicks VALUES ('x', 1)"));
    assertRefused("may not GRANT on stream CLICKS",
        () -> bob.executeUpdate("GRANT SELECT ON clicks TO bob"));
    // Alice's view's query is not bob's to see, so not to stop; with a grant he sees it and is
    // still refused.
    String queryId = server.engine().query("TOTALS").orElseThrow().id();
    SQLException hidden = assertThrows(SQLException.class,
        () -> bob.executeUpdate("STOP QUERY '" + queryId + "'"));
    assertEquals("42704", hidden.getSQLState(), hidden.getMessage());
    alice.executeUpdate("GRANT SELECT ON totals TO bob");
    assertRefused("may not STOP the query of materialized view TOTALS",
        () -> bob.executeUpdate("STOP QUERY '" + queryId + "'"));
    // A view's owner needs SELECT on what it reads.
    assertRefused("SELECT on stream CLICKS", () -> bob.executeUpdate(
        "CREATE MATERIALIZED VIEW bobs AS SELECT COUNT(*) AS c FROM clicks"));

    alice.executeUpdate("GRANT INSERT ON STREAM clicks TO bob");
    assertEquals(1, bob.executeUpdate("INSERT INTO clicks VALUES ('x', 1)"));
    alice.executeUpdate("GRANT SELECT ON STREAM clicks TO PUBLIC");
    bob.executeUpdate("CREATE MATERIALIZED VIEW bobs AS SELECT COUNT(*) AS c FROM clicks");
    RemoteTesting.awaitView(server, "bobs");
    assertEquals(List.of(List.of(4L)), readAll(bob.executeQuery("SELECT c FROM bobs")));
    assertRefused("may not DROP materialized view BOBS",
        () -> alice.executeUpdate("DROP MATERIALIZED VIEW bobs"));

    // An administrator does all.
    Statement admin = as("admin");
    assertEquals(List.of(List.of(4L)), readAll(admin.executeQuery("SELECT c FROM bobs")));
    admin.executeUpdate("STOP QUERY '" + queryId + "'");
    admin.executeUpdate("DROP MATERIALIZED VIEW bobs");
    admin.executeUpdate("DROP MATERIALIZED VIEW totals");
    admin.executeUpdate("DROP STREAM clicks");
    assertEquals(List.of(), readAll(admin.executeQuery("SHOW STREAMS")));
  }

  @Test void shouldShowEachUserOnlyWhatItMaySeeInEveryListing() throws Exception {
    Statement alice = alicesView();
    // On a statement of its own: the next executeQuery on a statement closes its result.
    ResultSet alicesPush = alice.getConnection().createStatement().executeQuery(
        "SELECT STREAM user_id, SUM(amount) AS s FROM clicks GROUP BY user_id");
    RemoteTesting.readSkippingProgress(alicesPush, 2);
    Statement bob = as("bob");
    bob.executeUpdate("CREATE STREAM bobs_stream (x INT)");

    assertEquals(List.of("BOBS_STREAM"), column(bob.executeQuery("SHOW STREAMS"), 1));
    assertEquals(List.of(), column(bob.executeQuery("SHOW VIEWS"), 1));
    assertEquals(List.of(), column(bob.executeQuery("SHOW QUERIES"), 1));
    assertEquals(List.of(), column(bob.executeQuery("SELECT name FROM sys.queries"), 1));
    assertEquals(List.of(), column(bob.executeQuery(
        "SELECT DISTINCT name FROM sys.query_progress"), 1));
    assertEquals(List.of(), column(bob.executeQuery(
        "SELECT DISTINCT query FROM sys.state_operators"), 1));
    assertEquals(List.of("BOBS_STREAM"), column(bob.executeQuery("SELECT table_name FROM"
        + " INFORMATION_SCHEMA.TABLES WHERE table_schema = 'FRESHET'"), 1));
    assertEquals(List.of("BOBS_STREAM"), freshetTables(bob.getConnection().getMetaData()));
    assertEquals(List.of(List.of("BOBS_STREAM", "STREAM", "BOB", "OWNER", "BOB")),
        readAll(bob.executeQuery("SELECT * FROM sys.privileges")));

    // Alice sees her own: two objects, her view's query and her push query.
    assertEquals(List.of("CLICKS", "TOTALS"), freshetTables(alice.getConnection().getMetaData()));
    assertEquals(2, column(alice.executeQuery("SHOW QUERIES"), 1).size());

    alice.executeUpdate("GRANT SELECT ON totals TO bob");
    assertEquals(List.of("TOTALS"), column(bob.executeQuery("SHOW VIEWS"), 1));
    assertEquals(List.of("BOBS_STREAM", "TOTALS"),
        freshetTables(bob.getConnection().getMetaData()));
    assertEquals(List.of("TOTALS"), column(bob.executeQuery("SELECT name FROM sys.queries"), 1));
    assertEquals(List.of("TOTALS"), column(bob.executeQuery(
        "SELECT DISTINCT query FROM sys.state_operators"), 1));
    assertEquals(List.of(List.of("TOTALS", "MATERIALIZED VIEW", "ALICE", "OWNER", "ALICE"),
        List.of("TOTALS", "MATERIALIZED VIEW", "BOB", "SELECT", "ALICE")),
        readAll(bob.executeQuery("SHOW GRANTS ON totals")));

    // The administrator sees everything: both users' objects and all three queries.
    Statement admin = as("admin");
    assertEquals(List.of("BOBS_STREAM", "CLICKS", "TOTALS"),
        freshetTables(admin.getConnection().getMetaData()));
    assertEquals(2, column(admin.executeQuery("SHOW QUERIES"), 1).size());
  }

  @Test void shouldLetOnlyAdministratorsAndGranteesCreateConnectorsThatReachOutside()
      throws Exception {
    Files.writeString(dir.resolve("files").resolve("a.csv"), "1\n2\n");
    String create = "CREATE STREAM lines (x INT) WITH (connector = 'filesystem', 'path' = '"
        + dir.resolve("files") + "', 'format' = 'csv')";
    Statement bob = as("bob");
    assertRefused("may not create a stream with connector 'filesystem'",
        () -> bob.executeUpdate(create));
    assertRefused("may not run GRANT CREATE CONNECTOR",
        () -> bob.executeUpdate("GRANT CREATE CONNECTOR TO bob"));
    as("admin").executeUpdate("GRANT CREATE CONNECTOR TO bob");
    bob.executeUpdate(create);
    bob.executeUpdate("CREATE MATERIALIZED VIEW sums AS SELECT COUNT(*) AS n, SUM(x) AS s"
        + " FROM lines");
    RemoteTesting.await("the file's two rows counted", () -> {
      try {
        return readAll(bob.executeQuery("SELECT n, s FROM sums"))
            .equals(List.of(List.of(2L, 3L)));
      } catch (SQLException e) {
        throw new AssertionError(e);
      }
    });
  }

  @Test void shouldKeepOwnersAndGrantsAcrossARestart() throws Exception {
    alicesView().executeUpdate("GRANT SELECT ON totals TO bob");
    closeConnections();
    server.close();
    server = start(dir.resolve("data"));
    RemoteTesting.awaitView(server, "totals");
    Statement bob = as("bob");
    assertEquals(List.of(List.of("a", 2L), List.of("b", 1L)),
        readAll(bob.executeQuery("SELECT user_id, n FROM totals ORDER BY user_id")));
    assertRefused("may not DROP materialized view TOTALS",
        () -> bob.executeUpdate("DROP MATERIALIZED VIEW totals"));
    assertRefused("SELECT on stream CLICKS", () -> bob.executeQuery("SELECT * FROM clicks"));
  }

  @Test void shouldAuditDdlGrantsStopsAndEveryRefusalWithoutStatementText() throws Exception {
    Statement alice = alicesView();
    Statement bob = as("bob");
    assertRefused("SELECT on materialized view TOTALS",
        () -> bob.executeQuery("SELECT * FROM totals WHERE user_id = 'needle-1'"));
    alice.executeUpdate("GRANT SELECT ON totals TO bob");
    assertRefused("may not DROP", () -> bob.executeUpdate("DROP STREAM clicks"));
    as("admin").executeUpdate("STOP QUERY totals");

    List<List<String>> lines = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("audit.jsonl"))) {
      com.fasterxml.jackson.databind.JsonNode json =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(line);
      lines.add(java.util.Arrays.asList(json.get("user").asText(), json.get("action").asText(),
          json.get("object").isNull() ? null : json.get("object").asText(),
          json.get("outcome").asText(), json.get("sqlstate").isNull() ? null
              : json.get("sqlstate").asText()));
      // Statements may hold secrets: their text is never logged.
      assertTrue(!line.contains("needle-1"), line);
    }
    assertEquals(List.of(
        java.util.Arrays.asList("alice", "CREATE STREAM", "CLICKS", "ok", null),
        java.util.Arrays.asList("alice", "CREATE MATERIALIZED VIEW", "TOTALS", "ok", null),
        java.util.Arrays.asList("bob", "REFUSED SELECT", null, "refused", "42501"),
        java.util.Arrays.asList("alice", "GRANT", "TOTALS", "ok", null),
        java.util.Arrays.asList("bob", "REFUSED DROP STREAM", "CLICKS", "refused", "42501"),
        java.util.Arrays.asList("admin", "STOP QUERY", "totals", "ok", null)), lines);
  }

  private static void assertRefused(String what, Executable statement) {
    SQLException e = assertThrows(SQLException.class, statement);
    assertEquals("42501", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(what), e.getMessage());
  }

  private static List<Object> column(ResultSet rs, int column) throws SQLException {
    List<Object> values = new ArrayList<>();
    for (List<Object> row : readAll(rs)) {
      values.add(row.get(column - 1));
    }
    return values;
  }

  private static List<Object> freshetTables(DatabaseMetaData metadata) throws SQLException {
    return column(metadata.getTables(null, "FRESHET", "%", null), 3);
  }
}

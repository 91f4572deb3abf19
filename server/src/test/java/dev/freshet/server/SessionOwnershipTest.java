package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.await;
import static dev.freshet.server.RemoteTesting.read;
import static dev.freshet.server.RemoteTesting.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.server.FreshetServer.Authentication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.remote.Service;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A connection belongs to the user who opened it; idle connections expire. */
class SessionOwnershipTest {
  private static final String ALICE = RawAvatica.basic("alice", "alice-pw");
  private static final String BOB = RawAvatica.basic("bob", "bob-pw");

  @TempDir Path dir;

  @Test void shouldRefuseAnotherUsersConnectionIdAndAReopenedId() throws Exception {
    try (FreshetServer server = start(FreshetServer.builder())) {
      String stream = uniqueName("owned");
      try (Connection alice = connect(server, "alice", "alice-pw")) {
        Statement statement = alice.createStatement();
        statement.executeUpdate("CREATE STREAM " + stream + " (k VARCHAR, v INT)");
        ResultSet push = statement.executeQuery("SELECT STREAM k, COUNT(*) FROM " + stream
            + " GROUP BY k");
        String id = alice.unwrap(AvaticaConnection.class).id;
        int statementId = statement.unwrap(AvaticaStatement.class).getId();

        // Bob knows the ids: he may not read her result, run SQL in her session, close it.
        assertRefused(RawAvatica.send(server, BOB,
            new Service.FetchRequest(id, statementId, 0, 100)), "42501");
        assertRefused(RawAvatica.send(server, BOB, new Service.CreateStatementRequest(id)),
            "42501");
        assertRefused(RawAvatica.send(server, BOB,
            new Service.PrepareAndExecuteRequest(id, statementId, "DROP STREAM " + stream, -1)),
            "42501");
        assertRefused(RawAvatica.send(server, BOB, new Service.CloseStatementRequest(id,
            statementId)), "42501");
        assertRefused(RawAvatica.send(server, BOB, new Service.CloseConnectionRequest(id)),
            "42501");
        // Nobody may open the id again, not even its owner: that would orphan its queries.
        assertRefused(RawAvatica.send(server, BOB, new Service.OpenConnectionRequest(id,
            Map.of())), "08002");
        assertRefused(RawAvatica.send(server, ALICE, new Service.OpenConnectionRequest(id,
            Map.of())), "08002");

        // Her session is intact: her push result still gets the rows she lets bob add.
        alice.createStatement().executeUpdate("GRANT INSERT ON " + stream + " TO bob");
        try (Connection other = connect(server, "bob", "bob-pw")) {
          other.createStatement().executeUpdate("INSERT INTO " + stream + " VALUES ('a', 1)");
        }
        assertEquals(List.of("a", 1L), read(push, 1).get(0).subList(0, 2));
      }
    }
  }

  @Test void shouldCloseIdleConnectionsAndStopTheirQueries() throws Exception {
    try (FreshetServer server = start(FreshetServer.builder()
        .fetchTimeout(Duration.ofMillis(100))
        .connectionIdleTimeout(Duration.ofMillis(800)))) {
      String stream = uniqueName("idle");
      Connection alice = connect(server, "alice", "alice-pw");
      Statement statement = alice.createStatement();
      statement.executeUpdate("CREATE STREAM " + stream + " (k VARCHAR, v INT)");
      statement.executeQuery("SELECT STREAM k, COUNT(*) FROM " + stream + " GROUP BY k");
      assertEquals(1, RemoteTesting.queriesReading(server, "COUNT").size());

      // Nobody reads: the connection and its push query go.
      await("the idle connection is closed", () -> server.openConnections() == 0);
      await("its push query stops",
          () -> RemoteTesting.queriesReading(server, "COUNT").isEmpty());
      SQLException e = assertThrows(SQLException.class,
          () -> alice.createStatement().executeQuery("SELECT * FROM SYS.QUERIES"));
      assertEquals("08003", e.getSQLState(), e.getMessage());
    }
  }

  private static void assertRefused(RawAvatica.Answer answer, String sqlState)
      throws Exception {
    assertEquals(500, answer.status(), answer.text());
    Service.ErrorResponse error = assertInstanceOf(Service.ErrorResponse.class,
        answer.response());
    assertEquals(sqlState, error.sqlState, error.errorMessage);
    assertEquals(List.of(), error.exceptions);
  }

  private FreshetServer start(FreshetServer.Builder builder) throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"),
        "alice: alice-pw\nbob: bob-pw\n");
    return builder.port(0).authentication(Authentication.BASIC, users).start();
  }

  private static Connection connect(FreshetServer server, String user, String password)
      throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url(), user,
        password);
  }
}

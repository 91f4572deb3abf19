package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer.Authentication;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.calcite.avatica.remote.Service;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Error responses: a status and a SQLSTATE, never a Java stack trace; bounded requests. */
class HttpErrorResponseTest {
  private static final String GOOD = RawAvatica.basic("alice", "alice-pw");

  @TempDir Path dir;

  @Test void shouldAnswerMalformedRequestsWithoutStackTraces() throws Exception {
    try (FreshetServer server = start()) {
      byte[] body = "not protobuf".getBytes(StandardCharsets.UTF_8);
      // Malformed Basic credentials: not base64, no colon, empty.
      for (String header : List.of("Basic !!not-base64!!", "Basic "
          + Base64.getEncoder().encodeToString("no-colon".getBytes(StandardCharsets.UTF_8)),
          "Basic", "Basic    ")) {
        RawAvatica.Answer answer = RawAvatica.post(server, header, body);
        assertEquals(401, answer.status(), header);
        assertNoTrace(answer);
      }
      assertEquals(401, RawAvatica.post(server, null, body).status());
      assertEquals(401, RawAvatica.post(server, RawAvatica.basic("alice", "wrong"), body)
          .status());

      RawAvatica.Answer garbage = RawAvatica.post(server, GOOD, body);
      assertEquals(400, garbage.status());
      assertNoTrace(garbage);
      assertEquals("08P01", error(garbage).sqlState);

      RawAvatica.Answer noConnection = RawAvatica.send(server, GOOD,
          new Service.CreateStatementRequest("no-such-connection"));
      assertEquals(500, noConnection.status());
      assertNoTrace(noConnection);
      assertEquals("08003", error(noConnection).sqlState);

      String id = UUID.randomUUID().toString();
      assertEquals(200, RawAvatica.send(server, GOOD, new Service.OpenConnectionRequest(id,
          Map.of())).status());
      Service.CreateStatementResponse created = (Service.CreateStatementResponse) RawAvatica
          .send(server, GOOD, new Service.CreateStatementRequest(id)).response();
      RawAvatica.Answer syntax = RawAvatica.send(server, GOOD,
          new Service.PrepareAndExecuteRequest(id, created.statementId, "SELEC 1", -1));
      assertEquals(500, syntax.status());
      assertNoTrace(syntax);
      assertEquals("42000", error(syntax).sqlState, error(syntax).errorMessage);

      RawAvatica.Answer get = RawAvatica.get(server);
      assertTrue(get.status() == 400 || get.status() == 401, "" + get.status());
      assertNoTrace(get);
    }
  }

  @Test void shouldRefuseATooLargeStatementWithoutEchoingIt() throws Exception {
    try (FreshetServer server = start(1 << 20);
         Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url(),
             "alice", "alice-pw")) {
      String huge = "SELECT '" + "x".repeat(2_000_000) + "'";
      SQLException e = assertThrows(SQLException.class,
          () -> c.createStatement().execute(huge));
      assertEquals("54000", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().length() < 500, e.getMessage());
      // A long statement under the limit: its error's message is capped.
      String longBad = "SELEC '" + "y".repeat(200_000) + "'";
      SQLException bad = assertThrows(SQLException.class,
          () -> c.createStatement().execute(longBad));
      assertTrue(bad.getMessage().length() < 2_500, "" + bad.getMessage().length());
      // The connection still works.
      assertTrue(c.createStatement().execute("SELECT * FROM SYS.QUERIES"));
    }
  }

  private static Service.ErrorResponse error(RawAvatica.Answer answer) throws Exception {
    Service.ErrorResponse error = assertInstanceOf(Service.ErrorResponse.class,
        answer.response());
    assertEquals(List.of(), error.exceptions);
    return error;
  }

  private static void assertNoTrace(RawAvatica.Answer answer) {
    String text = answer.text();
    assertFalse(text.contains("\tat "), text);
    assertFalse(text.contains("Exception\n") || text.contains("Exception:"), text);
    assertFalse(text.contains(".java:"), text);
  }

  private FreshetServer start() throws Exception {
    return start(8 << 20);
  }

  private FreshetServer start(long maxRequestBytes) throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "alice: alice-pw\n");
    return FreshetServer.builder().port(0).authentication(Authentication.BASIC, users)
        .maxRequestBytes(maxRequestBytes).start();
  }
}

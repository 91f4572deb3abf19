package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.server.FreshetServer.Authentication;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.apache.calcite.avatica.remote.Service;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The JDBC port refuses what a web page could send it (a foreign {@code Origin}, a foreign
 * {@code Host} on a server without authentication, a body that is not of Avatica's protobuf
 * content types) before any of it reaches the engine, records the refusal in the audit log, and
 * still serves JDBC drivers and the pages of origins the operator allowed.
 */
class BrowserRequestTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String EVIL = "https://evil.example";
  private static final String PROTOBUF = RawAvatica.PROTOBUF_CONTENT_TYPE;

  @TempDir Path dir;

  /**
   * The attack of issue 31: a page sends Avatica's protobuf as {@code text/plain} (no CORS
   * preflight), opening a connection of an id it chose and running a statement on it.
   */
  @Test void shouldRefuseACrossSiteRequestAndCreateNothing() throws Exception {
    Path audit = dir.resolve("audit.jsonl");
    try (FreshetServer server = FreshetServer.builder().port(0).auditLog(audit).start()) {
      List<Integer> refused = new ArrayList<>();
      // As a page sends it, then each of its two marks alone, then the other types a page
      // may send without asking.
      for (Map<String, String> headers : List.of(
          Map.of("Origin", EVIL, "Content-Type", "text/plain"),
          Map.of("Origin", EVIL, "Content-Type", PROTOBUF),
          Map.of("Content-Type", "text/plain;charset=UTF-8"),
          Map.of("Content-Type", "application/x-www-form-urlencoded"),
          Map.of("Content-Type", "multipart/form-data; boundary=x"),
          Map.<String, String>of())) {
        for (RawAvatica.Answer answer : attack(server, headers, "pwned")) {
          boolean foreign = headers.containsKey("Origin");
          assertEquals(foreign ? 403 : 415, answer.status(), headers.toString());
          Service.ErrorResponse error = error(answer);
          if (foreign) {
            assertEquals("42501", error.sqlState);
            assertTrue(error.errorMessage.startsWith("Cross-site request refused: the JDBC port"
                + " answers no web page of origin https://evil.example (it allows none)."),
                error.errorMessage);
            assertTrue(error.errorMessage.endsWith("start the server with --allowed-origin"
                + " https://evil.example"), error.errorMessage);
          } else {
            assertEquals("08P01", error.sqlState);
            assertTrue(error.errorMessage.contains("is not accepted: the JDBC port reads only"
                + " Avatica's protobuf requests, of Content-Type application/octet-stream or"
                + " application/x-google-protobuf"), error.errorMessage);
          }
          refused.add(answer.status());
        }
      }
      assertEquals(0, server.openConnections(), "no refused request opened a connection");
      assertFalse(tables(server).contains("PWNED"));

      // The same requests, as a JDBC driver sends them, do create the stream: the attack is real.
      for (RawAvatica.Answer answer : attack(server, Map.of("Content-Type", PROTOBUF), "owned")) {
        assertEquals(200, answer.status());
      }
      assertTrue(tables(server).contains("OWNED"));
      assertFalse(tables(server).contains("PWNED"));

      List<JsonNode> lines = auditLines(audit);
      // The refusals, then the legitimate CREATE STREAM, audited by the engine.
      assertEquals(refused.size() + 1, lines.size());
      JsonNode created = lines.remove(lines.size() - 1);
      assertEquals("CREATE STREAM", created.get("action").asText());
      assertEquals("OWNED", created.get("object").asText());
      assertEquals("ok", created.get("outcome").asText());
      for (int i = 0; i < lines.size(); i++) {
        JsonNode line = lines.get(i);
        assertEquals("REFUSED HTTP", line.get("action").asText());
        assertEquals("refused", line.get("outcome").asText());
        assertTrue(line.get("user").isNull());
        assertTrue(line.get("object").isNull());
        assertEquals(refused.get(i) == 403 ? "42501" : "08P01", line.get("sqlstate").asText());
        assertEquals("127.0.0.1", line.get("remote_address").asText());
      }
      // The statement's text is never read, let alone recorded.
      assertFalse(Files.readString(audit).contains("(x INT)"));
    }
  }

  @Test void shouldRefuseAForeignHostOnAServerWithoutAuthentication() throws Exception {
    try (FreshetServer server = FreshetServer.builder().port(0).start()) {
      String rebound = "attacker.example:" + server.port();
      for (RawAvatica.Answer answer : attack(server, Map.of("Host", rebound, "Content-Type",
          PROTOBUF), "pwned")) {
        assertEquals(403, answer.status());
        Service.ErrorResponse error = error(answer);
        assertEquals("42501", error.sqlState);
        assertEquals("Request refused: this server has no authentication and answers only"
            + " requests to a loopback host (localhost, 127.0.0.1 or [::1]), not to " + rebound
            + ", whose name a web page could point at this machine. Connect with"
            + " jdbc:freshet:remote:url=http://localhost:" + server.port() + ", or serve with"
            + " --auth BASIC and --users-file", error.errorMessage);
      }
      assertEquals(0, server.openConnections());
      assertFalse(tables(server).contains("PWNED"));
      // Loopback names, with and without the port, are served.
      for (String host : List.of("localhost:" + server.port(), "127.0.0.1:" + server.port(),
          "[::1]:" + server.port(), "localhost", "LOCALHOST", "127.0.0.1")) {
        assertEquals(200, open(server, Map.of("Host", host, "Content-Type", PROTOBUF))
            .status(), host);
      }
      // The remote driver names the server as its URL does.
      try (Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=http://localhost:"
          + server.port())) {
        assertTrue(c.isValid(5));
      }
    }
  }

  @Test void shouldServeAForeignHostOnAServerWithAuthentication() throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "alice: alice-pw\n");
    try (FreshetServer server = FreshetServer.builder().port(0)
        .authentication(Authentication.BASIC, users).start()) {
      // A rebound name gets no credentials from the browser: nothing to guard against.
      assertEquals(200, open(server, Map.of("Host", "attacker.example", "Content-Type",
          PROTOBUF, "Authorization", RawAvatica.basic("alice", "alice-pw"))).status());
      // A foreign Origin is refused before authentication: no password prompt for the page.
      RawAvatica.Answer foreign = open(server, Map.of("Origin", EVIL, "Content-Type",
          "text/plain", "Authorization", RawAvatica.basic("alice", "alice-pw")));
      assertEquals(403, foreign.status());
      assertTrue(foreign.header("WWW-Authenticate").isEmpty());
      RawAvatica.Answer plain = open(server, Map.of("Content-Type", "text/plain"));
      assertEquals(415, plain.status());
      assertTrue(plain.header("WWW-Authenticate").isEmpty());
    }
  }

  @Test void shouldServeThePagesOfAnAllowedOriginWithCorsHeaders() throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "alice: alice-pw\n");
    String bi = "https://bi.example.com";
    try (FreshetServer anonymous = FreshetServer.builder().port(0).allowOrigin(bi)
            .allowOrigin("http://localhost:3000").start();
         FreshetServer authenticated = FreshetServer.builder().port(0).allowOrigin(bi + "/")
             .authentication(Authentication.BASIC, users).start()) {
      for (String origin : List.of(bi, "https://BI.example.com:443", "http://localhost:3000")) {
        RawAvatica.Answer answer = open(anonymous, Map.of("Origin", origin, "Content-Type",
            PROTOBUF));
        assertEquals(200, answer.status(), origin);
        assertEquals(origin, answer.header("Access-Control-Allow-Origin").orElseThrow());
        assertEquals("Origin", answer.header("Vary").orElseThrow());
        assertTrue(answer.header("Access-Control-Allow-Credentials").isEmpty());
      }
      // Another origin: refused, naming the allowed ones; an allowed one still sends protobuf.
      RawAvatica.Answer other = open(anonymous, Map.of("Origin", "https://bi.example.com:8443",
          "Content-Type", PROTOBUF));
      assertEquals(403, other.status());
      assertTrue(error(other).errorMessage.contains("(it allows https://bi.example.com:443,"
          + " http://localhost:3000)") || error(other).errorMessage.contains("(it allows"
          + " http://localhost:3000, https://bi.example.com:443)"), error(other).errorMessage);
      assertTrue(other.header("Access-Control-Allow-Origin").isEmpty());
      assertEquals(415, open(anonymous, Map.of("Origin", bi, "Content-Type", "text/plain"))
          .status());

      // The browser's preflight, without credentials, also where the server requires them.
      for (FreshetServer server : List.of(anonymous, authenticated)) {
        RawAvatica.Answer preflight = RawAvatica.exchange(server, "OPTIONS", Map.of("Origin", bi,
            "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers",
            "content-type,authorization"), new byte[0]);
        assertEquals(204, preflight.status());
        assertEquals(bi, preflight.header("Access-Control-Allow-Origin").orElseThrow());
        assertEquals("POST", preflight.header("Access-Control-Allow-Methods").orElseThrow());
        assertEquals("Content-Type, Authorization",
            preflight.header("Access-Control-Allow-Headers").orElseThrow());
        assertEquals(403, RawAvatica.exchange(server, "OPTIONS", Map.of("Origin", EVIL,
            "Access-Control-Request-Method", "POST"), new byte[0]).status());
      }
      assertEquals(401, open(authenticated, Map.of("Origin", bi, "Content-Type", PROTOBUF))
          .status());
      RawAvatica.Answer withCredentials = open(authenticated, Map.of("Origin", bi,
          "Content-Type", PROTOBUF, "Authorization", RawAvatica.basic("alice", "alice-pw")));
      assertEquals(200, withCredentials.status());
      assertEquals(bi, withCredentials.header("Access-Control-Allow-Origin").orElseThrow());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FreshetServer.builder().allowOrigin("https://bi.example.com/dashboards"));
    assertEquals("'https://bi.example.com/dashboards' is not a web origin: give the scheme,"
        + " host and port a page is served from, e.g. https://bi.example.com or"
        + " http://localhost:3000 (no path)", e.getMessage());
  }

  /** What Avatica's clients send: its Java client's type, and its Go and Python clients'. */
  @Test void shouldReadTheContentTypesOfAvaticaClients() throws Exception {
    try (FreshetServer server = FreshetServer.builder().port(0).start()) {
      for (String type : List.of("application/octet-stream", "application/x-google-protobuf",
          "Application/Octet-Stream; charset=UTF-8", "application/x-google-protobuf ; q=1")) {
        assertEquals(200, open(server, Map.of("Content-Type", type)).status(), type);
      }
      for (String type : List.of("application/octet-streams", "application/json",
          "application/protobuf", "text/html", "")) {
        assertEquals(415, open(server, Map.of("Content-Type", type)).status(), type);
      }
      // Avatica's older client (HttpURLConnection) sends a form's type, as a page's form would.
      Exception e = assertThrows(Exception.class, () -> {
        try (Connection c = DriverManager.getConnection("jdbc:avatica:remote:url=" + server.url()
            + ";serialization=PROTOBUF;httpclient_impl="
            + "org.apache.calcite.avatica.remote.AvaticaHttpClientImpl")) {
          c.createStatement().executeQuery("SELECT 1");
        }
      });
      StringBuilder messages = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        messages.append(t).append('\n');
      }
      assertTrue(messages.toString().contains("Content-Type application/x-www-form-urlencoded"
          + " is not accepted: the JDBC port reads only Avatica's protobuf requests"),
          messages.toString());
    }
  }

  @Test void shouldRecordAFailedLoginButNotTheFirstChallenge() throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "alice: alice-pw\n");
    Path audit = dir.resolve("audit.jsonl");
    try (FreshetServer server = FreshetServer.builder().port(0).auditLog(audit)
        .authentication(Authentication.BASIC, users).start()) {
      assertEquals(401, open(server, Map.of("Content-Type", PROTOBUF)).status());
      assertEquals(401, open(server, Map.of("Content-Type", PROTOBUF, "Authorization",
          RawAvatica.basic("alice", "guess"))).status());
      assertEquals(200, open(server, Map.of("Content-Type", PROTOBUF, "Authorization",
          RawAvatica.basic("alice", "alice-pw"))).status());
    }
    List<JsonNode> lines = auditLines(audit);
    assertEquals(1, lines.size(), lines.toString());
    assertEquals("REFUSED HTTP", lines.get(0).get("action").asText());
    assertEquals("28000", lines.get(0).get("sqlstate").asText());
    assertEquals("Authentication failed: wrong user name or password (HTTP 401)",
        lines.get(0).get("message").asText());
    assertFalse(Files.readString(audit).contains("guess"));
  }

  @Test void shouldTakeAllowedOriginsAndTheAuditLogFromTheCommandLine() throws Exception {
    Path audit = dir.resolve("audit.jsonl");
    ServeCommand command = new ServeCommand(System.out, System.err, new CountDownLatch(0));
    new CommandLine(command).parseArgs("--port", "0", "--allowed-origin",
        "https://bi.example.com", "--allowed-origin", "http://localhost:3000", "--audit-log",
        audit.toString());
    try (FreshetServer server = command.builder().start()) {
      assertEquals("rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(audit)));
      for (String origin : List.of("https://bi.example.com", "http://localhost:3000")) {
        assertEquals(200, open(server, Map.of("Origin", origin, "Content-Type", PROTOBUF))
            .status(), origin);
      }
      assertEquals(403, open(server, Map.of("Origin", EVIL, "Content-Type", PROTOBUF))
          .status());
    }
    assertEquals(1, auditLines(audit).size());

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = new CommandLine(new ServeCommand(System.out,
        new PrintStream(err, true, StandardCharsets.UTF_8), new CountDownLatch(0)))
        .execute("--port", "0", "--allowed-origin", "bi.example.com");
    assertEquals(ServeCommand.CANNOT_START, exit);
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("freshet serve:"
        + " 'bi.example.com' is not a web origin"), err.toString(StandardCharsets.UTF_8));

    Path nowhere = dir.resolve("missing").resolve("audit.jsonl");
    err.reset();
    exit = new CommandLine(new ServeCommand(System.out,
        new PrintStream(err, true, StandardCharsets.UTF_8), new CountDownLatch(0)))
        .execute("--port", "0", "--audit-log", nowhere.toString());
    assertEquals(ServeCommand.CANNOT_START, exit);
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("freshet serve: Cannot open the"
        + " audit log " + nowhere + " for appending"), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * The requests of a page that runs {@code CREATE STREAM name}: open a connection of an id it
   * chose, create a statement, run the statement on it. Each with {@code headers}.
   */
  private static List<RawAvatica.Answer> attack(FreshetServer server,
      Map<String, String> headers, String name) throws Exception {
    String id = UUID.randomUUID().toString();
    List<RawAvatica.Answer> answers = new ArrayList<>();
    answers.add(post(server, headers, new Service.OpenConnectionRequest(id, Map.of())));
    RawAvatica.Answer created = post(server, headers, new Service.CreateStatementRequest(id));
    answers.add(created);
    // A statement id the page guesses if it could not read the answer.
    int statement = created.status() == 200
        ? ((Service.CreateStatementResponse) created.response()).statementId : 1;
    answers.add(post(server, headers, new Service.PrepareAndExecuteRequest(id, statement,
        "CREATE STREAM " + name + " (x INT)", -1)));
    return answers;
  }

  /** Opens a connection of a fresh id with {@code headers}. */
  private static RawAvatica.Answer open(FreshetServer server, Map<String, String> headers)
      throws Exception {
    return post(server, headers, new Service.OpenConnectionRequest(UUID.randomUUID().toString(),
        Map.of()));
  }

  private static RawAvatica.Answer post(FreshetServer server, Map<String, String> headers,
      Service.Request request) throws Exception {
    return RawAvatica.exchange(server, "POST", new HashMap<>(headers), RawAvatica.bytes(request));
  }

  private static Service.ErrorResponse error(RawAvatica.Answer answer) throws Exception {
    Service.ErrorResponse error = assertInstanceOf(Service.ErrorResponse.class,
        answer.response());
    assertEquals(List.of(), error.exceptions);
    return error;
  }

  /** The names of the server's tables and streams, as a JDBC driver lists them. */
  private static List<String> tables(FreshetServer server) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url());
         ResultSet tables = c.getMetaData().getTables(null, "FRESHET", "%", null)) {
      while (tables.next()) {
        names.add(tables.getString("TABLE_NAME"));
      }
    }
    return names;
  }

  private static List<JsonNode> auditLines(Path audit) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(audit, StandardCharsets.UTF_8)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}

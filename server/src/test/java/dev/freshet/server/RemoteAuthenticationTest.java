package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer.Authentication;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** HTTP authentication of the server, and its refusal to listen openly beyond loopback. */
class RemoteAuthenticationTest {
  static final String USER = "alice";
  static final String PASSWORD = "s3cret-Pa55word";

  @TempDir Path dir;

  @Test void shouldAdmitTheRightCredentialsWithBasicAuthentication() throws Exception {
    try (FreshetServer server = start(Authentication.BASIC)) {
      String url = "jdbc:freshet:remote:url=" + server.url();
      assertOneRow(DriverManager.getConnection(url + ";user=" + USER + ";password=" + PASSWORD));
      assertOneRow(DriverManager.getConnection(url, USER, PASSWORD));
    }
  }

  @Test void shouldAdmitTheRightCredentialsWithDigestAuthentication() throws Exception {
    try (FreshetServer server = start(Authentication.DIGEST)) {
      assertOneRow(DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url()
          + ";authentication=DIGEST", USER, PASSWORD));
    }
  }

  @Test void shouldRefuseAWrongPasswordWithHttp401() throws Exception {
    for (Authentication authentication : List.of(Authentication.BASIC, Authentication.DIGEST)) {
      try (FreshetServer server = start(authentication)) {
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
            "jdbc:freshet:remote:url=" + server.url() + ";authentication=" + authentication,
            USER, "wrong-" + PASSWORD));
        assertRefused(e, server);
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
      }
    }
  }

  @Test void shouldRefuseMissingCredentialsWithHttp401() throws Exception {
    try (FreshetServer server = start(Authentication.BASIC)) {
      assertRefused(assertThrows(SQLException.class, () -> DriverManager.getConnection(
          "jdbc:freshet:remote:url=" + server.url())), server);
    }
  }

  /**
   * Avatica's stock driver takes its credentials as {@code authentication=BASIC;avatica_user=...;
   * avatica_password=...}; its {@code user} and {@code password} are not credentials to it.
   */
  @Test void shouldAdmitTheStockAvaticaDriverWithAvaticaCredentials() throws Exception {
    try (FreshetServer server = start(Authentication.BASIC)) {
      String stock = "jdbc:avatica:remote:url=" + server.url() + ";serialization=PROTOBUF";
      try (Connection c = DriverManager.getConnection(stock + ";authentication=BASIC;avatica_user="
          + USER + ";avatica_password=" + PASSWORD);
           Statement s = c.createStatement()) {
        s.executeUpdate("CREATE STREAM clicks (user_id VARCHAR, amount DOUBLE)");
        s.executeUpdate("INSERT INTO clicks VALUES ('a', 1), ('b', 2)");
        assertEquals(List.of(List.of(2L)), readAll(s.executeQuery("SELECT COUNT(*) FROM clicks")));
      }
    }
  }

  /**
   * What the stock driver gives when the server refuses it is Avatica's, not Freshet's: an
   * unchecked exception from its HTTP client, without SQLSTATE, for a wrong password and for
   * {@code user}/{@code password}, which it does not send as credentials.
   */
  @Test void shouldRefuseTheStockAvaticaDriverWithWrongCredentials() throws Exception {
    try (FreshetServer server = start(Authentication.BASIC)) {
      String stock = "jdbc:avatica:remote:url=" + server.url() + ";serialization=PROTOBUF";
      for (String credentials : List.of(";authentication=BASIC;avatica_user=" + USER
          + ";avatica_password=wrong-" + PASSWORD, ";user=" + USER + ";password=" + PASSWORD)) {
        RuntimeException e = assertThrows(RuntimeException.class,
            () -> DriverManager.getConnection(stock + credentials));
        assertEquals(RuntimeException.class, e.getClass(), credentials);
        assertEquals("Failed to execute HTTP Request, got HTTP/401", e.getMessage(), credentials);
      }
    }
  }

  @Test void shouldRefuseToListenBeyondLoopbackWithoutAuthentication() {
    // Refused before anything binds: no traffic leaves this machine.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FreshetServer.builder().port(0).bindAddress("0.0.0.0").start());
    assertEquals("Refusing to listen on 0.0.0.0 without authentication: anyone who reaches that"
        + " address could read and change every stream. Give --auth BASIC or DIGEST with"
        + " --users-file, or bind 127.0.0.1", e.getMessage());

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
    int exit = new CommandLine(new ServeCommand(System.out, errors, new CountDownLatch(0)))
        .execute("--bind", "0.0.0.0", "--port", "0");
    assertEquals(ServeCommand.CANNOT_START, exit);
    assertEquals("freshet serve: " + e.getMessage(),
        err.toString(StandardCharsets.UTF_8).strip());
  }

  @Test void shouldServeAndStopFromTheCommandLine() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream printed = new PrintStream(out, true, StandardCharsets.UTF_8);
    // The latch is already released: the command starts the server, then stops it.
    int exit = new CommandLine(new ServeCommand(printed, System.err, new CountDownLatch(0)))
        .execute("--port", "0", "--auth", "BASIC", "--users-file", usersFile().toString());
    assertEquals(0, exit);
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith(
        "Freshet server listening on http://127.0.0.1:"), out.toString(StandardCharsets.UTF_8));
  }

  /** Runs a server and clients in a child JVM logging everything, and reads what it logged. */
  @Test void shouldNeverLogThePassword() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path log = dir.resolve("child.log");
    Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace",
        "-cp", System.getProperty("java.class.path"), PasswordLogProbe.class.getName(),
        usersFile().toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean exited = child.waitFor(RemoteTesting.DEADLINE.toSeconds() * 2,
        TimeUnit.SECONDS);
    if (!exited) {
      child.destroyForcibly();
    }
    String logged = Files.readString(log);
    assertTrue(exited, "the probe did not finish:\n" + logged);
    assertEquals(0, child.exitValue(), logged);
    // Proof that logging was on: the server's own INFO line and Avatica's DEBUG lines.
    assertTrue(logged.contains("Freshet server listening on"), logged);
    assertTrue(logged.contains("DEBUG"), logged);
    assertTrue(logged.contains(PasswordLogProbe.DONE), logged);
    assertFalse(logged.contains(PASSWORD), "the password was logged:\n" + logged);
    // A Basic Authorization header is the password too, base64-encoded.
    String basic = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD)
        .getBytes(StandardCharsets.UTF_8));
    assertFalse(logged.contains(basic), "a Basic Authorization header was logged:\n" + logged);
  }

  private FreshetServer start(Authentication authentication) throws IOException {
    return FreshetServer.builder().port(0).authentication(authentication, usersFile()).start();
  }

  private Path usersFile() throws IOException {
    return Files.writeString(dir.resolve("users.properties"), USER + ": " + PASSWORD + "\n");
  }

  private static void assertOneRow(Connection connection) throws SQLException {
    try (connection; Statement s = connection.createStatement()) {
      assertEquals(List.of(List.of(1)), readAll(s.executeQuery("VALUES 1")));
    }
  }

  private static void assertRefused(SQLException e, FreshetServer server) {
    assertEquals("28000", e.getSQLState(), e.toString());
    assertTrue(e.getMessage().startsWith("Cannot connect to " + server.url()
        + ": HTTP 401 Unauthorized."), e.getMessage());
    assertTrue(e.getCause().getMessage().contains("HTTP/401"), e.getCause().toString());
  }
}

package dev.freshet.pgwire;

import static dev.freshet.pgwire.PgTesting.connect;
import static dev.freshet.pgwire.PgTesting.row;
import static dev.freshet.pgwire.PgTesting.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.security.Principal;
import dev.freshet.pgwire.auth.PgAuthenticator;
import dev.freshet.pgwire.auth.PgUser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication on the PostgreSQL endpoint with pgjdbc: SCRAM-SHA-256 for a user whose
 * password is stored in plain text, a wrong password refused with 28P01 before any statement,
 * and a cleartext password (for a user stored as a hash) only over TLS.
 */
class PgAuthenticationTest {
  private static final String STORE_PASSWORD = "changeit";

  @TempDir Path dir;
  private Engine engine;
  private PgServer server;

  /** alice's password is kept in plain text; bob's only as a SHA-256 hash. */
  private static final PgAuthenticator USERS = PgAuthenticator.users(name -> switch (name) {
    case "alice" -> Optional.of(PgUser.plain(Principal.user("alice", true), "s3cret"));
    case "bob" -> Optional.of(PgUser.checked(Principal.user("bob", false),
        given -> sha256(given).equals(sha256("hunter2"))));
    default -> Optional.empty();
  });

  @BeforeEach void start() throws Exception {
    engine = new Engine("pgwire-auth-test");
    server = PgServer.builder(engine).port(0).authenticator(USERS)
        .tls(selfSignedKeystore(), STORE_PASSWORD).start();
  }

  @AfterEach void stop() {
    server.close();
    engine.close();
  }

  @Test void shouldAuthenticateByScramAndRefuseAWrongPasswordWith28P01() throws Exception {
    try (Connection c = connect(server, "alice", "s3cret"); Statement s = c.createStatement()) {
      assertEquals(List.of(row(1)), rows(s, "SELECT 1"));
      assertEquals(List.of(row("alice")), rows(s, "SHOW session_authorization"));
    }
    SQLException wrong = assertThrows(SQLException.class,
        () -> connect(server, "alice", "guess"));
    assertEquals("28P01", wrong.getSQLState(), wrong.toString());
    SQLException unknown = assertThrows(SQLException.class,
        () -> connect(server, "mallory", "guess"));
    assertEquals("28P01", unknown.getSQLState(), unknown.toString());
    // The wrong password ran nothing: a stream created by it would be listed.
    assertEquals(List.of(), engine.objectNames());
  }

  @Test void shouldTakeACleartextPasswordOverTlsOnly() throws Exception {
    SQLException clear = assertThrows(SQLException.class,
        () -> connect(server, "bob", "hunter2"));
    assertEquals("28000", clear.getSQLState(), clear.toString());
    assertTrue(clear.getMessage().contains("TLS"), clear.getMessage());

    try (Connection c = connect(server, "bob", "hunter2", "sslmode", "require",
        "sslfactory", "org.postgresql.ssl.NonValidatingFactory");
         Statement s = c.createStatement()) {
      assertEquals(List.of(row(1)), rows(s, "SELECT 1"));
    }
    SQLException wrong = assertThrows(SQLException.class, () -> connect(server, "bob", "nope",
        "sslmode", "require", "sslfactory", "org.postgresql.ssl.NonValidatingFactory"));
    assertEquals("28P01", wrong.getSQLState(), wrong.toString());
    // SCRAM over TLS too.
    try (Connection c = connect(server, "alice", "s3cret", "sslmode", "require",
        "sslfactory", "org.postgresql.ssl.NonValidatingFactory")) {
      assertTrue(c.isValid(5));
    }
  }

  @Test void shouldRunNoStatementBeforeAuthentication() throws Exception {
    try (RawPgClient c = new RawPgClient(server.port())) {
      c.send(RawPgClient.startupPacket(3 << 16, "user", "alice", "database", "freshet"));
      RawPgClient.Message sasl = c.read();
      assertEquals('R', sasl.type());
      assertEquals(10, java.nio.ByteBuffer.wrap(sasl.body()).getInt(), "AuthenticationSASL");
      c.send(RawPgClient.query("CREATE STREAM sneaked (x INTEGER)"));
      RawPgClient.Message refused = c.read();
      assertEquals('E', refused.type());
      assertEquals("08P01", refused.fields().get('C'));
      assertEquals(null, c.read());
    }
    assertEquals(List.of(), engine.objectNames());
  }

  @Test void shouldRefuseToTrustEveryoneBeyondLoopback() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PgServer.builder(engine).bindAddress("0.0.0.0").port(0).start());
    assertTrue(e.getMessage().contains("without authentication"), e.getMessage());
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A PKCS12 keystore with a certificate for 127.0.0.1, made by the JDK's keytool. */
  private Path selfSignedKeystore() throws Exception {
    Path keystore = dir.resolve("server.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "freshet",
        "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost",
        "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
        "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD,
        "-keypass", STORE_PASSWORD)
        .redirectErrorStream(true).redirectOutput(dir.resolve("keytool.out").toFile()).start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "keytool did not finish");
    assertEquals(0, process.exitValue(), Files.readString(dir.resolve("keytool.out")));
    return keystore;
  }
}

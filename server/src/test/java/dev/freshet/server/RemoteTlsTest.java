package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer.Authentication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS: a server with a keystore, a client that trusts its certificate. */
class RemoteTlsTest {
  private static final String STORE_PASSWORD = "keystore-pw";

  @TempDir Path dir;

  @Test void shouldServeOverHttpsWithBasicAuthentication() throws Exception {
    Path keystore = selfSignedKeystore();
    Path users = Files.writeString(dir.resolve("users.properties"), "alice: pw\n");
    try (FreshetServer server = FreshetServer.builder().port(0)
        .authentication(Authentication.BASIC, users).tls(keystore, STORE_PASSWORD).start()) {
      assertTrue(server.url().startsWith("https://127.0.0.1:"), server.url());
      String url = "jdbc:freshet:remote:url=" + server.url() + ";truststore=" + keystore
          + ";truststore_password=" + STORE_PASSWORD;
      try (Connection c = DriverManager.getConnection(url, "alice", "pw");
           Statement s = c.createStatement()) {
        s.execute("CREATE STREAM clicks (user_id VARCHAR)");
        s.executeUpdate("INSERT INTO clicks VALUES ('a'), ('b')");
        assertEquals(List.of(List.of(2L)), readAll(s.executeQuery(
            "SELECT COUNT(*) FROM clicks")));
      }
      // Without trusting the certificate there is no connection.
      SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
          "jdbc:freshet:remote:url=" + server.url(), "alice", "pw"));
      assertEquals("08001", e.getSQLState(), e.toString());
    }
  }

  @Test void shouldRefuseToStartWithAWrongKeystorePasswordWithoutShowingIt() throws Exception {
    Path keystore = selfSignedKeystore();
    String wrong = "not-the-" + STORE_PASSWORD;
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FreshetServer.builder().port(0).tls(keystore, wrong).start());
    assertTrue(e.getMessage().startsWith("Cannot start the server on 127.0.0.1:0: "),
        e.getMessage());
    assertFalse(e.getMessage().contains(wrong), e.getMessage());
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
    assertTrue(process.waitFor(RemoteTesting.DEADLINE.toSeconds(), TimeUnit.SECONDS),
        "keytool did not finish");
    assertEquals(0, process.exitValue(), Files.readString(dir.resolve("keytool.out")));
    return keystore;
  }
}

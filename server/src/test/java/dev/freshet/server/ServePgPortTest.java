package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.util.security.Credential;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code freshet serve --pg-port}: the PostgreSQL endpoint on the server's engine, behind the
 * same users file as the JDBC port (a plain password by SCRAM-SHA-256, a hashed one only as a
 * cleartext password over TLS), printed at start like the other endpoints.
 */
class ServePgPortTest {
  @TempDir Path dir;

  @Test void shouldServePostgreSqlClientsWithTheUsersFile() throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "alice: s3cret,admin\n"
        + "bob: " + Credential.MD5.digest("hunter2") + ",analyst\n");
    try (FreshetServer server = FreshetServer.builder().port(0).pgPort(0)
        .authentication(FreshetServer.Authentication.BASIC, users).start()) {
      String url = server.pgUrl().orElseThrow();
      assertTrue(url.startsWith("jdbc:postgresql://127.0.0.1:"), url);
      try (Connection c = connect(url, "alice", "s3cret"); Statement s = c.createStatement()) {
        s.execute("CREATE STREAM s (x INTEGER)");
        s.executeUpdate("INSERT INTO s VALUES (7)");
        try (ResultSet rs = s.executeQuery("SELECT x FROM s")) {
          assertTrue(rs.next());
          assertEquals(7, rs.getInt(1));
        }
        // The catalog is served: pgjdbc's metadata lists the stream as a table of public.
        try (ResultSet rs = c.getMetaData().getTables(null, "public", "s", null)) {
          assertTrue(rs.next());
          assertEquals("s", rs.getString("TABLE_NAME"));
          assertEquals("TABLE", rs.getString("TABLE_TYPE"));
          assertFalse(rs.next());
        }
      }
      assertEquals("stream", server.engine().objectKind("S"));
      SQLException wrong = assertThrows(SQLException.class, () -> connect(url, "alice", "x"));
      assertEquals("28P01", wrong.getSQLState(), wrong.toString());
      // bob's password is a hash: only a cleartext password proves it, and not without TLS.
      SQLException clear = assertThrows(SQLException.class,
          () -> connect(url, "bob", "hunter2"));
      assertEquals("28000", clear.getSQLState(), clear.toString());
    }
  }

  @Test void shouldTakeTheKeystoreForPostgreSqlsTls() throws Exception {
    Path keystore = dir.resolve("server.p12");
    Process keytool = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
        "-alias", "freshet", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
        "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", "changeit",
        "-keypass", "changeit")
        .redirectErrorStream(true).redirectOutput(dir.resolve("keytool.out").toFile()).start();
    assertTrue(keytool.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "keytool hung");
    assertEquals(0, keytool.exitValue(), Files.readString(dir.resolve("keytool.out")));
    Path users = Files.writeString(dir.resolve("users.properties"),
        "bob: " + Credential.MD5.digest("hunter2") + ",analyst\n");
    try (FreshetServer server = FreshetServer.builder().port(0).pgPort(0)
        .authentication(FreshetServer.Authentication.BASIC, users)
        .tls(keystore, "changeit").start()) {
      Properties p = new Properties();
      p.setProperty("user", "bob");
      p.setProperty("password", "hunter2");
      p.setProperty("sslmode", "require");
      p.setProperty("sslfactory", "org.postgresql.ssl.NonValidatingFactory");
      // A hashed password, checked by Jetty's credential, as a cleartext password over TLS.
      try (Connection c = DriverManager.getConnection(server.pgUrl().orElseThrow(), p);
           Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
        assertTrue(rs.next());
      }
    }
  }

  @Test void shouldPrintThePostgreSqlEndpointAtStart() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream printed = new PrintStream(out, true, StandardCharsets.UTF_8);
    // The latch is already released: the command starts the server, then stops it.
    int exit = new CommandLine(new ServeCommand(printed, System.err, new CountDownLatch(0)))
        .execute("--port", "0", "--pg-port", "0");
    assertEquals(0, exit);
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("PostgreSQL: jdbc:postgresql://127.0.0.1:"), text);
    assertTrue(text.contains("/freshet (psql -h 127.0.0.1 -p "), text);
  }

  private static Connection connect(String url, String user, String password)
      throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    p.setProperty("sslmode", "disable");
    p.setProperty("connectTimeout", "30");
    return DriverManager.getConnection(url, p);
  }
}

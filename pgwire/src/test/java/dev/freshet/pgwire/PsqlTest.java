package dev.freshet.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.clients.PostgresClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * psql 15 ({@code /usr/bin/psql}, Debian's postgresql-client) over the simple query protocol:
 * several statements in one {@code -c}, each with its result in order; a comment-only query
 * (EmptyQueryResponse); an error that skips the rest of the message. Fails where psql is not
 * installed, naming the package ({@code ./run-tests} installs it).
 */
@ExternalTest
class PsqlTest {
  private static final Path PSQL = Path.of("/usr/bin/psql");

  @TempDir Path dir;
  private Engine engine;
  private PgServer server;

  /** What psql printed and how it exited. */
  private record Run(int exit, String out, String err) {
  }

  @BeforeEach void start() {
    // Fails naming the package where psql is missing: CI installs it, a test never skips.
    PostgresClients.psql();
    engine = new Engine("pgwire-psql-test");
    server = PgServer.builder(engine).port(0).start();
  }

  @AfterEach void stop() {
    if (server != null) {
      server.close();
      engine.close();
    }
  }

  @Test void shouldAnswerEachStatementOfOneQueryInOrder() throws Exception {
    Run create = psql("CREATE STREAM s (k VARCHAR, n INTEGER); INSERT INTO s VALUES ('a;b', 1),"
        + " ('c', 2); SELECT k, n FROM s ORDER BY n; SELECT 'x' || ';' AS y -- a comment; here\n"
        + "; /* ; */ SELECT 3");
    assertEquals(0, create.exit(), create.err());
    assertEquals("CREATE STREAM\nINSERT 0 2\na;b|1\nc|2\nx;\n3\n", create.out());
  }

  @Test void shouldAnswerAnEmptyQuery() throws Exception {
    for (String empty : new String[] {"-- nothing", ";", "/* nothing */ ;  "}) {
      Run run = psql(empty);
      assertEquals(0, run.exit(), run.err());
      assertEquals("", run.out());
      assertEquals("", run.err());
    }
  }

  @Test void shouldSkipTheRestOfAQueryAfterAnError() throws Exception {
    Run run = psql("SELECT 1; SELECT * FROM missing; SELECT 3");
    assertEquals(1, run.exit(), run.err());
    assertEquals("1\n", run.out());
    assertTrue(run.err().startsWith("ERROR:  "), run.err());
  }

  /** libpq's own SCRAM-SHA-256 and TLS, against a server with users. */
  @Test void shouldAuthenticateLibpqByScramInTheClearAndOverTls() throws Exception {
    Path keystore = dir.resolve("server.p12");
    Process keytool = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
        "-alias", "freshet", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=localhost", "-storetype", "PKCS12", "-keystore", keystore.toString(),
        "-storepass", "changeit", "-keypass", "changeit")
        .redirectErrorStream(true).redirectOutput(dir.resolve("keytool.out").toFile()).start();
    assertTrue(keytool.waitFor(60, TimeUnit.SECONDS), "keytool did not finish");
    try (PgServer secured = PgServer.builder(engine).port(0)
        .authenticator(dev.freshet.pgwire.auth.PgAuthenticator.plainPasswords(
            java.util.Map.of("alice", "s3cret")))
        .tls(keystore, "changeit").start()) {
      for (String sslmode : new String[] {"disable", "require"}) {
        Run ok = psql(secured, "alice", "s3cret", sslmode, "SELECT 'in'");
        assertEquals(0, ok.exit(), sslmode + ": " + ok.err());
        assertEquals("in\n", ok.out());
        Run wrong = psql(secured, "alice", "guess", sslmode, "SELECT 'in'");
        assertEquals(2, wrong.exit(), wrong.err());
        assertTrue(wrong.err().contains("Password authentication failed for user \"alice\""),
            wrong.err());
      }
    }
  }

  private Run psql(String command) throws Exception {
    return psql(server, "freshet", null, "prefer", command);
  }

  private Run psql(PgServer target, String user, String password, String sslmode,
      String command) throws Exception {
    List<String> args = new ArrayList<>(List.of(PSQL.toString(), "-X", "-A", "-t",
        "-h", "127.0.0.1", "-p", Integer.toString(target.port()), "-U", user,
        "-d", "freshet", "-c", command));
    ProcessBuilder builder = new ProcessBuilder(args)
        .redirectOutput(dir.resolve("out").toFile())
        .redirectError(dir.resolve("err").toFile());
    builder.environment().put("PGCONNECT_TIMEOUT", "30");
    builder.environment().put("PGAPPNAME", "psql-test");
    builder.environment().put("PGSSLMODE", sslmode);
    builder.environment().remove("PGPASSWORD");
    if (password != null) {
      builder.environment().put("PGPASSWORD", password);
    }
    Process process = builder.start();
    assertTrue(process.waitFor(PgTesting.DEADLINE.toSeconds(), TimeUnit.SECONDS),
        "psql did not finish");
    return new Run(process.exitValue(), Files.readString(dir.resolve("out")),
        Files.readString(dir.resolve("err")));
  }
}

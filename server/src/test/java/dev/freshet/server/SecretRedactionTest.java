package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer.Authentication;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A password given to a server, as a secret or written as a string, appears in no answer, no
 * error and no log line: a scripted session of an administrator ({@link SecretSession}) through
 * the remote driver and the web UI, searched for the passwords, in this JVM and, with every
 * logger at its most verbose, in a child process's whole output. The catalog's file is its
 * owner's alone.
 */
class SecretRedactionTest {
  private static final List<String> PASSWORDS = List.of(SecretSession.OWNER_PASSWORD,
      SecretSession.WRITER_PASSWORD);

  @TempDir Path dir;

  private Path usersFile() throws Exception {
    return Files.writeString(dir.resolve("users.properties"), SecretSession.usersFileLine());
  }

  private static void assertNoPassword(String where, String text) {
    for (String password : PASSWORDS) {
      assertFalse(text.contains(password), () -> "a password in " + where + ":\n" + text);
    }
  }

  @Test void shouldShowNoSecretInAnyAnswerOfAScriptedSession() throws Exception {
    Path dataDir = dir.resolve("data");
    List<String> outputs;
    try (SecretSession session = SecretSession.start();
         FreshetServer server = FreshetServer.builder().port(0).uiPort(0)
             .authentication(Authentication.BASIC, usersFile()).dataDir(dataDir).start()) {
      outputs = session.run(server);
    }
    for (String output : outputs) {
      assertNoPassword("an answer", output);
    }
    String all = String.join("\n", outputs);
    // What the secrets are shown as, where the statements are shown.
    assertTrue(all.contains("'password' = SECRET owner_pass)"), all);
    assertTrue(all.contains("'password' = SECRET \\\"WITH_STRING$password\\\")")
        && all.contains("'password' = SECRET \"WITH_STRING$password\")"), all);
    assertTrue(all.contains("[OWNER_PASS, ") && all.contains(", CUSTOMERS, WITH_SECRET]"), all);
    assertTrue(all.contains("42S01 Secret 'OWNER_PASS' already exists."), all);
    // A server takes no password in a URL (docs/security.md, Connectors): refused before any
    // connection, and the refusal quotes none.
    assertTrue(all.contains("42501 Sink UNREACHABLE cannot connect: its 'url' has parameter"
        + " 'password'"), all);
    assertTrue(all.contains("42501 Table IN_URL cannot connect: its 'url' has H2 setting"
        + " 'USER'"), all);
    // The web UI answered.
    assertTrue(all.contains("/api/overview -> 200 {"), all);
    assertTrue(all.contains("POST SHOW SECRETS -> 200"), all);

    Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews()
        .contains("posix"), "modes are POSIX's");
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dataDir.resolve("catalog.mv.db"))));
    assertEquals("rwx------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dataDir)));
  }

  @Test void shouldRefuseToServeWithAKeyFileInsideTheDataDirectory() throws Exception {
    Path dataDir = Files.createDirectories(dir.resolve("data"));
    Path key = Files.writeString(dataDir.resolve("secrets.key"),
        "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=\n");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);

    int exit = new CommandLine(new ServeCommand(System.out, errors, new CountDownLatch(0)))
        .execute("--port", "0", "--data-dir", dataDir.toString(), "--secrets-key-file",
            key.toString());

    assertEquals(ServeCommand.CANNOT_START, exit);
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("freshet serve: The secrets key"
        + " file " + key + " is inside the data directory "), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Every logger at TRACE but Avatica's protobuf translation, whose TRACE lines are the wire's
   * messages as sent, statements and all (so the text of a {@code CREATE SECRET}); it logs at
   * DEBUG like the rest. docs/security.md says so.
   */
  @Test void shouldNeverLogASecret() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path log = dir.resolve("child.log");
    Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace",
        "-Dorg.slf4j.simpleLogger.log.org.apache.calcite.avatica.remote"
            + ".ProtobufTranslationImpl=debug",
        "-cp", System.getProperty("java.class.path"), SecretLogProbe.class.getName(),
        usersFile().toString(), dir.resolve("data").toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean exited = child.waitFor(RemoteTesting.DEADLINE.toSeconds() * 4, TimeUnit.SECONDS);
    if (!exited) {
      child.destroyForcibly();
    }
    String logged = Files.readString(log);
    assertTrue(exited, "the probe did not finish:\n" + logged);
    assertEquals(0, child.exitValue(), logged);
    // Proof that logging was on and the script ran.
    assertTrue(logged.contains("Freshet server listening on"), logged);
    assertTrue(logged.contains("DEBUG"), logged);
    assertTrue(logged.contains(SecretSession.DONE), logged);
    assertNoPassword("the log", logged);
  }
}

package dev.freshet.testkit.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExternalClientTest {
  @Test void shouldCaptureStdinStdoutStderrAndExitCode() {
    ClientResult r = ExternalClient.of("/bin/sh", "-c", "cat; echo \"to $WHO\" >&2; exit 3")
        .env("WHO", "stderr")
        .stdin("line one\nzwei ü\n")
        .run();

    assertEquals(3, r.exitCode());
    assertFalse(r.timedOut());
    assertFalse(r.succeeded());
    assertEquals("line one\nzwei ü\n", r.stdout());
    assertEquals("to stderr\n", r.stderr());
    AssertionError failure = assertThrows(AssertionError.class, r::requireSuccess);
    assertTrue(failure.getMessage().contains("exited with 3"), failure.getMessage());
    assertTrue(failure.getMessage().contains("to stderr"), failure.getMessage());
  }

  @Test void shouldReturnSuccessWhenTheClientExitsWithZero() {
    ClientResult r = ExternalClient.of("/bin/echo", "hello", "world").run().requireSuccess();

    assertEquals("hello world\n", r.stdout());
    assertEquals("", r.stderr());
  }

  @Test void shouldNotBlockWhenTheClientPrintsMoreThanAPipeHolds() {
    // 1 MB on each stream: far more than a pipe's 64 KB, so an unread pipe would stall it.
    ClientResult r = ExternalClient.of("/bin/sh", "-c",
            "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2")
        .timeout(Duration.ofSeconds(60)).run().requireSuccess();

    assertEquals(1048576, r.stdout().length());
    assertEquals(1048576, r.stderr().length());
  }

  @Test void shouldKillTheProcessTreeWhenTheDeadlinePasses() throws Exception {
    // The shell starts a grandchild and waits for it; both must be gone after the timeout.
    ClientResult r = ExternalClient.of("/bin/sh", "-c", "sleep 300 & echo $!; wait")
        .timeout(Duration.ofSeconds(2)).run();

    assertTrue(r.timedOut(), r.describe());
    assertEquals(-1, r.exitCode());
    assertTrue(r.describe().contains("killed at its deadline"), r.describe());
    long grandchild = Long.parseLong(r.stdout().strip());
    Optional<ProcessHandle> handle = ProcessHandle.of(grandchild);
    assertTrue(handle.isEmpty() || !handle.get().isAlive(), "sleep " + grandchild + " lives on");
  }

  @Test void shouldKeepItsDeadlineWhenTheClientReadsNoInput() {
    // 1 MB of input that nobody reads: far more than a pipe holds.
    ClientResult r = ExternalClient.of("/bin/sleep", "300")
        .stdin("x".repeat(1 << 20))
        .timeout(Duration.ofSeconds(2)).run();

    assertTrue(r.timedOut(), r.describe());
  }

    @Test void shouldRunInTheGivenDirectory(@org.junit.jupiter.api.io.TempDir Path dir) {
    ClientResult r = ExternalClient.of("/bin/pwd").directory(dir).run().requireSuccess();

    assertEquals(dir.toAbsolutePath().toString(), r.stdout().strip());
  }

  @Test void shouldFailNamingTheProgramWhenItIsMissing() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> ExternalClient.of("/nonexistent/psql", "--version").run());

    assertTrue(e.getMessage().contains("/nonexistent/psql"), e.getMessage());
    assertTrue(e.getMessage().contains("./run-tests"), e.getMessage());
  }

  @Test void shouldFailNamingTheDebianPackageWhenAClientIsMissing() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> PostgresClients.require(Path.of("/nonexistent/psql"), "postgresql-client"));

    assertTrue(e.getMessage().contains("postgresql-client"), e.getMessage());
    assertTrue(e.getMessage().contains("./run-tests"), e.getMessage());
  }
}

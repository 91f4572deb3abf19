package dev.freshet.testkit.clients;

import java.time.Duration;
import java.util.List;

/**
 * How a run of an {@link ExternalClient} ended: its exit code ({@code -1} when it was killed at
 * its deadline), what it printed, and how long it took.
 *
 * @param command the command line, program first
 * @param exitCode the exit code, {@code -1} when timed out
 * @param stdout standard output (UTF-8)
 * @param stderr standard error (UTF-8)
 * @param timedOut whether the client was killed at its deadline
 * @param took how long it ran
 */
public record ClientResult(List<String> command, int exitCode, String stdout, String stderr,
    boolean timedOut, Duration took) {

  /** Whether the client exited with code 0 before its deadline. */
  public boolean succeeded() {
    return !timedOut && exitCode == 0;
  }

  /**
   * This result if the client succeeded.
   *
   * @throws AssertionError naming the command, its exit code (or the timeout) and its output
   */
  public ClientResult requireSuccess() {
    if (!succeeded()) {
      throw new AssertionError(describe());
    }
    return this;
  }

  /** The command, how it ended and what it printed, for a failure message. */
  public String describe() {
    String ending = timedOut
        ? "was killed at its deadline after " + took.toMillis() + " ms"
        : "exited with " + exitCode + " after " + took.toMillis() + " ms";
    return String.join(" ", command) + " " + ending
        + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
  }
}

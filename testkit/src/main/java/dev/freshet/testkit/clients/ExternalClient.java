package dev.freshet.testkit.clients;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A client program run once with a deadline: its command, environment, standard input and
 * working directory, then its exit code and everything it printed.
 *
 * <pre>{@code
 * ClientResult r = ExternalClient.of(PostgresClients.psql().toString(),
 *         "-h", "127.0.0.1", "-p", "5433", "-U", "alice", "-d", "freshet", "-c", "\\dt")
 *     .env("PGPASSWORD", "secret")
 *     .timeout(Duration.ofSeconds(60))
 *     .run()
 *     .requireSuccess();
 * }</pre>
 *
 * <p>Past the deadline the process and every process it started are killed (a psql waiting on
 * a pager, a node script with an open socket), and the result says it timed out with what the
 * client had printed by then. Standard output and error are read by threads of their own, so a
 * client that prints a lot never blocks on a full pipe. Not thread-safe; each {@link #run()}
 * starts a new process.
 */
public final class ExternalClient {
  private final List<String> command;
  private final Map<String, String> env = new LinkedHashMap<>();
  private String stdin = "";
  private Duration timeout = Duration.ofSeconds(60);
  private Path directory;

  private ExternalClient(List<String> command) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException("An external client needs a command");
    }
    this.command = List.copyOf(command);
  }

  /** A client running this program with these arguments (no shell: each argument as it is). */
  public static ExternalClient of(String program, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Objects.requireNonNull(program, "program"));
    command.addAll(List.of(args));
    return new ExternalClient(command);
  }

  /** A client running this command line, program first. */
  public static ExternalClient of(List<String> command) {
    return new ExternalClient(command);
  }

  /** Sets a variable of the client's environment (which otherwise is the test JVM's). */
  public ExternalClient env(String name, String value) {
    env.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /** What the client reads from standard input (UTF-8); then the input is closed. Default none. */
  public ExternalClient stdin(String text) {
    stdin = Objects.requireNonNull(text, "text");
    return this;
  }

  /** How long the client may run before it is killed; default 60 s. */
  public ExternalClient timeout(Duration deadline) {
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("A client's timeout must be positive: " + deadline);
    }
    timeout = deadline;
    return this;
  }

  /** The client's working directory; default the test JVM's. */
  public ExternalClient directory(Path dir) {
    directory = Objects.requireNonNull(dir, "dir");
    return this;
  }

  /** The command line, program first. */
  public List<String> command() {
    return command;
  }

  /**
   * Runs the client to its end or its deadline.
   *
   * @throws AssertionError if the program cannot be started (missing, not executable)
   */
  public ClientResult run() {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    long start = System.nanoTime();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new AssertionError("Cannot start " + command.get(0) + " (" + e.getMessage()
          + "); ./run-tests installs the PostgreSQL clients the tests run", e);
    }
    Drain out = Drain.start(process.getInputStream(), command.get(0) + "-stdout");
    Drain err = Drain.start(process.getErrorStream(), command.get(0) + "-stderr");
    writeStdin(process);
    boolean exited;
    try {
      exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      killTree(process);
      throw new AssertionError("Interrupted while " + command.get(0) + " ran", e);
    }
    if (!exited) {
      killTree(process);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    // After a kill the pipes close when the last process holding them dies; a grandchild that
    // escaped the kill (a new session) could hold them, so the drains get a deadline too.
    String stdout = out.text(Duration.ofSeconds(10));
    String stderr = err.text(Duration.ofSeconds(10));
    return new ClientResult(command, exited ? process.exitValue() : -1, stdout, stderr, !exited,
        took);
  }

  /**
   * Writes the input on a thread of its own: a client that does not read it would otherwise
   * block this thread on a full pipe, past the deadline.
   */
  private void writeStdin(Process process) {
    byte[] bytes = stdin.getBytes(StandardCharsets.UTF_8);
    Thread writer = new Thread(() -> {
      try (OutputStream in = process.getOutputStream()) {
        in.write(bytes);
      } catch (IOException e) {
        // The client exited (or closed its input) before reading it all: its exit code and
        // output tell what happened, which is what the test reports.
      }
    }, command.get(0) + "-stdin");
    writer.setDaemon(true);
    writer.start();
  }

  /** Kills the process and all its descendants, children first, and waits for them to die. */
  static void killTree(Process process) {
    List<ProcessHandle> tree = new ArrayList<>();
    process.descendants().forEach(tree::add);
    tree.add(process.toHandle());
    for (ProcessHandle handle : tree) {
      handle.destroyForcibly();
    }
    for (ProcessHandle handle : tree) {
      try {
        handle.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // Still alive after SIGKILL's 10 s (uninterruptible I/O): nothing more to do here.
      }
    }
  }

  /** Reads a stream to its end on a thread of its own. */
  private static final class Drain implements Runnable {
    private final InputStream in;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Thread thread;
    private IOException failure;

    private Drain(InputStream in, String name) {
      this.in = in;
      this.thread = new Thread(this, name);
      thread.setDaemon(true);
    }

    static Drain start(InputStream in, String name) {
      Drain drain = new Drain(in, name);
      drain.thread.start();
      return drain;
    }

    @Override public void run() {
      byte[] buffer = new byte[8192];
      try (in) {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          synchronized (bytes) {
            bytes.write(buffer, 0, n);
          }
        }
      } catch (IOException e) {
        failure = e;
      }
    }

    String text(Duration deadline) {
      try {
        thread.join(deadline.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (failure != null && !thread.isAlive()) {
        throw new UncheckedIOException("Reading " + thread.getName() + " failed", failure);
      }
      synchronized (bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }
  }
}

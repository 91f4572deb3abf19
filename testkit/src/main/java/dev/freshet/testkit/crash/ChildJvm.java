package dev.freshet.testkit.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM running a test's {@code main} class on the test's own classpath, read line by line
 * with a deadline, and killed with SIGKILL where the test says: the one place crash tests start,
 * read and kill processes.
 *
 * <pre>{@code
 * try (ChildJvm child = ChildJvm.of(MyChild.class).args(dataDir, "run").start()) {
 *   child.awaitLine("ACK ");            // fails with the child's stderr if it ends first
 *   child.kill();                       // SIGKILL, as a crash
 * }
 * ChildJvm.Output out = ChildJvm.of(MyChild.class).args(dataDir, "verify").start().awaitExit();
 * List<String> rows = out.values("ROW");
 * }</pre>
 *
 * <p>A thread drains the child's standard output into a queue from the start, so the child never
 * blocks on a full pipe and lines printed just before a kill are not lost. Standard error goes
 * to a file whose end a failure message shows. {@link #close()} kills whatever is still alive,
 * with its descendants, so a failing test leaves no process behind.
 *
 * <p>Children share their classes through an archive ({@link SharedClasses}): the second child
 * a test JVM kills writes it just before its SIGKILL, later ones map it and start in about half
 * the CPU time.
 */
public final class ChildJvm implements AutoCloseable {
  /** How long a child may take for a line, or to end, unless the test says otherwise. */
  public static final Duration DEADLINE = Duration.ofSeconds(120);
  private static final String EOF = "\0EOF";

  private final String name;
  private final Process process;
  private final Path stderr;
  private final Duration deadline;
  /** Where the child writes the classes archive before it is killed, if it is the one to. */
  private Optional<Path> classesDump;
  private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private volatile boolean killed;
  private boolean ended;

  private ChildJvm(String name, Process process, Path stderr, Duration deadline,
      Optional<Path> classesDump) {
    this.name = name;
    this.process = process;
    this.stderr = stderr;
    this.deadline = deadline;
    this.classesDump = classesDump;
    Thread reader = new Thread(this::drain, "child-jvm-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /** A child that will run {@code mainClass}'s {@code main} with the test's classpath. */
  public static Builder of(Class<?> mainClass) {
    return new Builder(mainClass.getName());
  }

  /** How a child starts. */
  public static final class Builder {
    private final String mainClass;
    // C1 only: a child runs for seconds, so compiling for peak speed would cost more than it
    // saves on the two cores the tests share.
    private final List<String> jvmOptions = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
    private final List<String> args = new ArrayList<>();
    private boolean mergeStderr;
    private Duration deadline = DEADLINE;

    private Builder(String mainClass) {
      this.mainClass = mainClass;
    }

    /** JVM options besides {@code -XX:TieredStopAtLevel=1}, e.g. {@code -Xmx512m}. */
    public Builder jvmOptions(String... options) {
      jvmOptions.addAll(List.of(options));
      return this;
    }

    /** The arguments of {@code main}, each as {@link String#valueOf(Object)}. */
    public Builder args(Object... values) {
      for (Object value : values) {
        args.add(String.valueOf(value));
      }
      return this;
    }

    /** Standard error into the lines read too (a server that logs where it listens). */
    public Builder mergeStderr() {
      mergeStderr = true;
      return this;
    }

    /** How long the child may take for each line awaited, and to end. */
    public Builder deadline(Duration value) {
      deadline = value;
      return this;
    }

    /** Starts the child. */
    public ChildJvm start() throws IOException {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions);
      SharedClasses shared = SharedClasses.get();
      Optional<Path> classesDump = shared.claimDump();
      command.addAll(shared.jvmOptions(classesDump));
      command.addAll(List.of("-cp", shared.classPath(), mainClass));
      command.addAll(args);
      Path stderr = Files.createTempFile("child-jvm-", ".err");
      ProcessBuilder builder = new ProcessBuilder(command);
      if (mergeStderr) {
        builder.redirectErrorStream(true);
      } else {
        builder.redirectError(stderr.toFile());
      }
      String simpleName = mainClass.substring(mainClass.lastIndexOf('.') + 1);
      return new ChildJvm(simpleName + " " + String.join(" ", args), builder.start(), stderr,
          deadline, classesDump);
    }
  }

  /** What a child printed until it ended. */
  public record Output(List<String> lines) {
    /** The rest of each line {@code "<tag> ..."}, in order. */
    public List<String> values(String tag) {
      List<String> values = new ArrayList<>();
      for (String line : lines) {
        if (line.startsWith(tag + " ")) {
          values.add(line.substring(tag.length() + 1));
        }
      }
      return values;
    }

    /** The number of the last line {@code "<tag> <n>"}, or {@code otherwise} if none. */
    public long last(String tag, long otherwise) {
      List<String> values = values(tag);
      return values.isEmpty() ? otherwise : Long.parseLong(values.get(values.size() - 1));
    }
  }

  /**
   * Thrown by {@link #awaitLine} when the child was killed (by {@link #killLater}) before the
   * line came: a kill point reached by time, not a failure.
   */
  public static final class KilledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    KilledException(String message) {
      super(message);
    }
  }

  /**
   * Reads lines until one matches and returns it; fails if the child ends or prints nothing
   * that matches within the deadline.
   */
  public String awaitLine(Predicate<String> match) {
    long end = System.nanoTime() + deadline.toNanos();
    while (true) {
      String line = next(end);
      if (match.test(line)) {
        return line;
      }
    }
  }

  /** Reads lines until one starts with {@code prefix} and returns it. */
  public String awaitLine(String prefix) {
    return awaitLine(line -> line.startsWith(prefix));
  }

  /**
   * Reads every line until the child ends, which it must do within the deadline and with exit
   * code 0; fails with its stderr otherwise. The child is gone afterwards, as after
   * {@link #close()}.
   */
  public Output awaitExit() throws InterruptedException {
    try {
      long end = System.nanoTime() + deadline.toNanos();
      List<String> read = new ArrayList<>();
      for (String line = poll(end); line != null && !line.equals(EOF); line = poll(end)) {
        read.add(line);
      }
      if (!process.waitFor(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        fail(name + " did not end within " + deadline + errors());
      }
      ended = true;
      assertEquals(0, process.exitValue(), () -> name + " failed" + errors());
      return new Output(read);
    } finally {
      close();
    }
  }

  /**
   * SIGKILLs the child and its descendants, as a crash would, waits until it is gone, and
   * returns the lines it printed that were not read yet (printed before it died). The one child
   * of a module that writes the classes archive ({@link SharedClasses}) writes it first, going
   * on meanwhile: its kill comes a second or so later than the test asked.
   */
  public List<String> kill() throws InterruptedException {
    if (classesDump.isPresent() && process.isAlive()) {
      // The one child of the module to write the classes archive, a moment before it dies.
      SharedClasses.get().dump(process.pid(), classesDump.get());
      classesDump = Optional.empty();
    }
    killed = true;
    // Through the process handle: Process.destroyForcibly() would also close the pipe, and
    // what the child printed before it died would be lost to the test.
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.toHandle().destroyForcibly();
    assertTrue(process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), name + " did not die");
    List<String> rest = new ArrayList<>();
    long end = System.nanoTime() + DEADLINE.toNanos();
    if (!ended) {
      for (String line = poll(end); line != null && !line.equals(EOF); line = poll(end)) {
        rest.add(line);
      }
      ended = true;
    }
    return rest;
  }

  /**
   * Writes a line to the child's standard input, for a child that waits for what the test
   * worked out from its earlier lines ({@link ChildLines#receive()}).
   */
  public void send(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** SIGKILLs the child after {@code delay} unless it ended before: a kill point in time. */
  public void killLater(Duration delay) {
    CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
      killed = true;
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.toHandle().destroyForcibly();
    });
  }

  /** The child's process. */
  public Process process() {
    return process;
  }

  /** The last 4,000 characters the child wrote to standard error, for a failure message. */
  public String errors() {
    try {
      String errors = Files.exists(stderr) ? Files.readString(stderr) : "";
      return errors.isEmpty() ? "" : "; its stderr ends:\n"
          + errors.substring(Math.max(0, errors.length() - 4_000));
    } catch (IOException e) {
      return "; its stderr is unreadable: " + e;
    }
  }

  /** Kills the child if it still runs and removes its stderr file. */
  @Override public void close() {
    try {
      if (process.isAlive()) {
        killed = true;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.toHandle().destroyForcibly();
        process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      }
      Files.deleteIfExists(stderr);
      classesDump.ifPresent(SharedClasses.get()::release);
      classesDump = Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String next(long end) {
    String line;
    try {
      line = poll(end);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(name + ": interrupted", e);
    }
    if (line == null) {
      fail(name + " printed nothing awaited within " + deadline + errors());
    }
    if (line.equals(EOF)) {
      ended = true;
      if (killed) {
        throw new KilledException(name + " was killed");
      }
      fail(name + " ended before the line awaited" + errors());
    }
    return line;
  }

  private String poll(long end) throws InterruptedException {
    if (ended) {
      return EOF;
    }
    return lines.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  private void drain() {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!SharedClasses.isDumpReport(line)) {
          lines.add(line);
        }
      }
    } catch (IOException e) {
      lines.add("child output unreadable: " + e);
    }
    lines.add(EOF);
  }
}

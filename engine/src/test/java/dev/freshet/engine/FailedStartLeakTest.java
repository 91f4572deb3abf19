package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statements and engines that fail after opening files or starting threads close and stop them
 * again: the threads and the open file descriptors of the process come back to what they were
 * before, however often they fail.
 */
class FailedStartLeakTest {
  /** How often each failure repeats: a leak of one file or thread each time shows as many. */
  private static final int REPEATS = 5;
  /** The same for the statements, which plan a query (and create and drop streams) each time. */
  private static final int STATEMENT_REPEATS = 3;
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @TempDir Path dataDir;

  @Test void shouldCloseTheStateStoresOfAFailedCreateMaterializedView() throws Exception {
    try (Engine engine = new Engine("leaks", Optional.of(dataDir))) {
      Session session = engine.openSession();
      session.execute("CREATE STREAM clicks (user_id VARCHAR, n INTEGER)");
      // MVStore opens a file per state partition when the operators are built.
      session.execute("SET 'state.store.provider' = 'mvstore'");
      session.execute("SET 'state.partitions' = '2'");
      // Once first, so that the classes the failures use are loaded (and their jars open).
      failToCreate(engine, session, "WARM");
      Resources baseline = Resources.now();
      for (int i = 0; i < STATEMENT_REPEATS; i++) {
        failToCreate(engine, session, "V" + i);
      }
      baseline.awaitBack("after " + STATEMENT_REPEATS
          + " failed CREATE MATERIALIZED VIEW of each kind");
      assertEquals(List.of(), engine.queries());
    }
  }

  @Test void shouldStopTheThreadsOfAnEngineThatCannotOpenItsDataDirectory() throws Exception {
    Path used = dataDir.resolve("used");
    Path broken = dataDir.resolve("broken");
    Files.createDirectories(broken);
    // Not an H2 database: the engine locks the directory, then cannot open its results.
    Files.writeString(broken.resolve("catalog.mv.db"), "not a database ".repeat(1000));
    try (Engine holder = new Engine("holder", Optional.of(used))) {
      failToOpen(used, broken);
      Resources baseline = Resources.now();
      for (int i = 0; i < REPEATS; i++) {
        failToOpen(used, broken);
      }
      baseline.awaitBack("after " + REPEATS + " engines failed to open each directory");
    }
  }

  private static void failToOpen(Path used, Path broken) {
    UncheckedIOException locked = assertThrows(UncheckedIOException.class,
        () -> new Engine("second", Optional.of(used)));
    assertTrue(locked.getMessage().contains("is in use by another Freshet engine"),
        locked.getMessage());
    UncheckedIOException corrupt = assertThrows(UncheckedIOException.class,
        () -> new Engine("broken", Optional.of(broken)));
    assertTrue(corrupt.getMessage().startsWith("Cannot open the database of the views' results"),
        corrupt.getMessage());
  }

  /**
   * Fails {@code CREATE MATERIALIZED VIEW name} in each way it can: checks on the query (found
   * before anything is opened), and the name taken or the stream dropped while the query was
   * planned and its operators built (found after).
   */
  private void failToCreate(Engine engine, Session session, String name) throws Exception {
    SQLException unsupported = assertThrows(SQLException.class, () -> session.execute(
        "CREATE MATERIALIZED VIEW " + name + " AS SELECT user_id, ANY_VALUE(n) AS a"
            + " FROM clicks GROUP BY user_id"));
    assertEquals("0A000", unsupported.getSQLState(), unsupported.toString());
    SQLException columns = assertThrows(SQLException.class, () -> session.execute(
        "CREATE MATERIALIZED VIEW " + name + " (a) AS SELECT user_id, COUNT(*) AS n"
            + " FROM clicks GROUP BY user_id"));
    assertTrue(columns.getMessage().contains("names 1 columns, but its query has 2"),
        columns.getMessage());
    // Nothing was opened for a statement that failed its checks, not even a checkpoint.
    assertEquals(false, Files.exists(dataDir.resolve("checkpoints").resolve(name)), name);

    SQLException taken = failWhilePlanned(engine, name, "clicks",
        () -> session.execute("CREATE STREAM " + name + " (x INTEGER)"));
    assertEquals("Cannot create materialized view '" + name + "': a stream of that name"
        + " exists, and streams, views and tables share one namespace. Choose another name, or"
        + " DROP STREAM " + name + " first.", taken.getMessage());
    session.execute("DROP STREAM " + name);

    session.execute("CREATE STREAM " + name + "_IN (user_id VARCHAR)");
    SQLException dropped = failWhilePlanned(engine, name + "_OUT", name + "_IN",
        () -> session.execute("DROP STREAM " + name + "_IN"));
    assertTrue(dropped.getMessage().contains(name + "_IN"), dropped.getMessage());
  }

  /** A statement run on this thread while it holds the engine's DDL lock. */
  @FunctionalInterface
  private interface Ddl {
    void run() throws SQLException;
  }

  /**
   * Runs {@code CREATE MATERIALIZED VIEW name} over {@code stream} on another thread and, once
   * it has planned the query and built its operators and waits for the DDL lock, runs
   * {@code meanwhile} (which makes the statement fail) before letting it go on; returns its error.
   */
  private static SQLException failWhilePlanned(Engine engine, String name, String stream,
      Ddl meanwhile) throws Exception {
    AtomicReference<Throwable> error = new AtomicReference<>();
    Session other = engine.openSession();
    other.execute("SET 'state.store.provider' = 'mvstore'");
    other.execute("SET 'state.partitions' = '2'");
    Thread create = new Thread(() -> {
      try {
        other.execute("CREATE MATERIALIZED VIEW " + name + " AS SELECT user_id, COUNT(*) AS n"
            + " FROM " + stream + " GROUP BY user_id");
      } catch (Throwable t) {
        error.set(t);
      }
    }, "create-" + name);
    synchronized (engine.ddlLock()) {
      create.start();
      awaitBlockedOn(create, engine.ddlLock(), error);
      // The lock is re-entrant: the statement runs while the other thread waits for it.
      meanwhile.run();
    }
    create.join(DEADLINE.toMillis());
    assertEquals(false, create.isAlive(), "CREATE MATERIALIZED VIEW " + name + " did not end");
    if (!(error.get() instanceof SQLException e)) {
      throw new AssertionError("CREATE MATERIALIZED VIEW " + name + " should have failed",
          error.get());
    }
    return e;
  }

  /**
   * Waits until {@code thread} waits to enter {@code monitor}'s synchronized block; fails with
   * its {@code error} if it ends first.
   */
  private static void awaitBlockedOn(Thread thread, Object monitor,
      AtomicReference<Throwable> error) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    int identity = System.identityHashCode(monitor);
    while (true) {
      ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(thread.getId());
      LockInfo lock = info == null ? null : info.getLockInfo();
      if (info != null && info.getThreadState() == Thread.State.BLOCKED && lock != null
          && lock.getIdentityHashCode() == identity) {
        return;
      }
      if (!thread.isAlive() || System.nanoTime() > deadline) {
        fail(thread.getName() + " never waited for the DDL lock: " + info, error.get());
      }
      Thread.yield();
    }
  }

  /** The live threads and the open file descriptors of the process at one moment. */
  private record Resources(Set<Thread> threads, List<String> files) {
    static Resources now() throws IOException {
      return new Resources(Thread.getAllStackTraces().keySet(), openFiles());
    }

    /** What the file descriptors of the process point at (Linux); empty elsewhere. */
    private static List<String> openFiles() throws IOException {
      Path fds = Path.of("/proc/self/fd");
      if (!Files.isDirectory(fds)) {
        return List.of();
      }
      List<String> files = new ArrayList<>();
      try (Stream<Path> list = Files.list(fds)) {
        for (Path fd : list.toList()) {
          try {
            files.add(Files.readSymbolicLink(fd).toString());
          } catch (IOException closedMeanwhile) {
            // The descriptor of the listing itself, or one closed since.
          }
        }
      }
      files.sort(null);
      return files;
    }

    /**
     * Waits, up to the deadline, for every thread started since this snapshot to end, then
     * checks that no more files are open than then.
     */
    void awaitBack(String context) throws Exception {
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      List<String> alive = new ArrayList<>();
      for (Thread thread : Thread.getAllStackTraces().keySet()) {
        if (!threads.contains(thread)) {
          thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
          if (thread.isAlive()) {
            alive.add(thread.getName());
          }
        }
      }
      assertEquals(List.of(), alive, context + ": threads left running");
      List<String> open = openFiles();
      List<String> extra = new ArrayList<>(open);
      for (String file : files) {
        extra.remove(file);
      }
      assertTrue(open.size() <= files.size(), context + ": " + (open.size() - files.size())
          + " more files open than before: " + new HashSet<>(extra));
    }
  }
}

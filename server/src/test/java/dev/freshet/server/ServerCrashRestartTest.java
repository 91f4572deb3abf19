package dev.freshet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server process killed with SIGKILL while clients insert, then started again on the same data
 * directory: the catalog brings the stream and the view back, the view continues from its
 * checkpoint, and a pull query sees whole committed batches only, never a part of one. At the end
 * the view counts every acknowledged INSERT exactly once.
 *
 * <p>Each INSERT adds one row for each of the keys {@code a}, {@code b} and {@code c}, so a
 * committed result has the same count for every key; a result with a part of a batch would not.
 */
@CrashTest
class ServerCrashRestartTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String[] KEYS = {"a", "b", "c"};

  @TempDir Path dataDir;

  @Test void shouldContinueTheViewFromItsCheckpointAfterTheServerIsKilled() throws Exception {
    int acknowledged;
    try (ChildJvm server = start()) {
      String url = url(server);
      ExecutorService writer = Executors.newSingleThreadExecutor();
      Connection first = DriverManager.getConnection(url);
      try {
        Statement s = first.createStatement();
        s.execute("CREATE STREAM clicks (k VARCHAR, n INTEGER)");
        s.execute("CREATE MATERIALIZED VIEW per_key AS SELECT k, COUNT(*) AS c, SUM(n) AS total"
            + " FROM clicks GROUP BY k");
        AtomicInteger acks = new AtomicInteger();
        Future<?> inserts = writer.submit(() -> {
          Connection w = DriverManager.getConnection(url);
          try {
            Statement insert = w.createStatement();
            for (int i = 1; ; i++) {
              insert.executeUpdate("INSERT INTO clicks VALUES ('a', " + i + "), ('b', " + i
                  + "), ('c', " + i + ")");
              acks.set(i);
            }
          } catch (SQLException e) {
            // The server was killed: the INSERT in flight was not acknowledged.
            return null;
          } finally {
            closeQuietly(w);
          }
        });
        await("30 acknowledged INSERTs", () -> acks.get() >= 30);
        await("the view to count some of them", () -> consistentCount(s) > 0);
        server.kill();
        inserts.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        acknowledged = acks.get();
      } finally {
        writer.shutdownNow();
        closeQuietly(first);
      }
    }

    try (ChildJvm restarted = start();
         Connection c = DriverManager.getConnection(url(restarted));
         Statement s = c.createStatement()) {
      // The INSERT in flight when the server died may have reached the disk unacknowledged: it
      // counts or not, wholly. Every acknowledged one counts, once.
      long inFlight = acknowledged + 1;
      // Whole batches only, from the first read on, while the view catches up.
      long firstRead = consistentCount(s);
      assertTrue(firstRead <= inFlight, "count " + firstRead);
      await("the view to count all " + acknowledged + " acknowledged INSERTs",
          () -> consistentCount(s) >= acknowledged);
      // A marker row for 'a' only: once the view has it, it has every row before it too.
      s.executeUpdate("INSERT INTO clicks VALUES ('a', 0)");
      await("the marker row", () -> {
        List<List<Object>> rows = rows(s, "SELECT k, c FROM per_key ORDER BY k");
        return rows.size() == 3 && (Long) rows.get(0).get(1) == (Long) rows.get(1).get(1) + 1;
      });
      List<List<Object>> rows = RemoteTesting.readAll(
          s.executeQuery("SELECT k, c, total FROM per_key ORDER BY k"));
      long counted = (Long) rows.get(1).get(1);
      assertTrue(counted == acknowledged || counted == inFlight,
          "counted " + counted + " INSERTs; " + acknowledged + " were acknowledged: " + rows);
      long total = counted * (counted + 1) / 2;
      assertEquals(List.of(List.of("a", counted + 1, total), List.of("b", counted, total),
          List.of("c", counted, total)), rows);
    }
  }

  /**
   * The view's count, the same for every key, or a failure if the keys' counts differ (a batch
   * seen in part) or the sums disagree with the counts (a row counted twice); 0 before the first
   * batch.
   */
  private static long consistentCount(Statement s) {
    List<List<Object>> rows = rows(s, "SELECT k, c, total FROM per_key ORDER BY k");
    if (rows.isEmpty()) {
      return 0;
    }
    assertEquals(KEYS.length, rows.size(), rows::toString);
    long count = (Long) rows.get(0).get(1);
    for (List<Object> row : rows) {
      assertEquals(count, row.get(1), () -> "a part of a batch: " + rows);
      assertEquals(count * (count + 1) / 2, row.get(2), () -> "counted twice: " + rows);
    }
    return count;
  }

  private static List<List<Object>> rows(Statement s, String sql) {
    try (ResultSet rs = s.executeQuery(sql)) {
      return RemoteTesting.readAll(rs);
    } catch (SQLException e) {
      throw new AssertionError(sql, e);
    }
  }

  /** Closes a connection to a killed server, which cannot answer the close. */
  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      // The server is gone; nothing of the connection is left to release there.
    }
  }

  /** Polls {@code condition} until it holds, every 20 ms, failing at the deadline. */
  private static void await(String what, java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not within " + DEADLINE + ": " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
  }

  private ChildJvm start() throws Exception {
    return ChildJvm.of(FreshetMain.class).mergeStderr()
        .args("serve", "--port", "0", "--data-dir", dataDir).start();
  }

  /** Reads the server's output until it says where it listens; its JDBC URL. */
  private static String url(ChildJvm server) {
    return server.awaitLine("Connect with: ").substring("Connect with: ".length());
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.testkit.CrashTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An INSERT that returned success survives a crash: a child JVM inserts through
 * {@code jdbc:freshet:dataDir=...} in a loop and prints each acknowledged statement; the test
 * kills it with SIGKILL ({@link ProcessHandle#destroyForcibly()}) at a random point, reopens the
 * stream on a new engine over the same directory, and finds every acknowledged INSERT, in order,
 * with its rows, and nothing else but possibly the one in flight, whole. Several kills in a row,
 * each run continuing the stream the last one left; the seed of the kill points is printed.
 */
@CrashTest
class DurableStreamCrashTest {
  private static final String CREATE = "CREATE STREAM IF NOT EXISTS events (seq BIGINT NOT NULL,"
      + " i INTEGER NOT NULL, payload VARCHAR, amount DECIMAL(12, 2), ts TIMESTAMP(3))"
      + " WITH (connector = 'memory')";
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final int KILLS = 3;

  @TempDir Path dataDir;

  /** The rows of the INSERT numbered {@code seq}: it is the stream's offset {@code seq} too. */
  static List<List<Object>> rowsOf(long seq) {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i <= seq % 4; i++) {
      // Every seventh statement carries a string long enough to be written in chunks.
      int length = seq % 7 == 3 && i == 0 ? 40_000 : (int) ((seq * 131 + i * 17) % 3000);
      String payload = String.valueOf((char) ('a' + (seq + i) % 26)).repeat(length);
      rows.add(Arrays.asList(seq, i, i == 1 ? null : payload,
          new BigDecimal(seq + "." + String.format("%02d", i)), 1_700_000_000_000L + seq * 1000));
    }
    return rows;
  }

  private static String insert(long seq) {
    StringBuilder sql = new StringBuilder("INSERT INTO events VALUES ");
    List<List<Object>> rows = rowsOf(seq);
    for (int r = 0; r < rows.size(); r++) {
      List<Object> row = rows.get(r);
      sql.append(r == 0 ? "" : ", ").append('(').append(row.get(0)).append(", ")
          .append(row.get(1)).append(", ")
          .append(row.get(2) == null ? "NULL" : "'" + row.get(2) + "'").append(", ")
          .append(row.get(3)).append(", TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '")
          .append(((Long) row.get(4)) / 1000).append("' SECOND)");
    }
    return sql.toString();
  }

  /**
   * The child: opens the engine of the data directory given, declares the stream, prints
   * {@code ready <latest seq>}, then inserts statement after statement, printing {@code ack <seq>}
   * once each returned. It runs until it is killed.
   */
  static final class Child {
    private Child() {
    }

    public static void main(String[] args) throws Exception {
      try (Connection connection = DriverManager.getConnection("jdbc:freshet:dataDir=" + args[0]);
           Statement statement = connection.createStatement()) {
        statement.execute(CREATE);
        long latest;
        try (ResultSet rs = statement.executeQuery("SELECT MAX(seq) FROM events")) {
          rs.next();
          latest = rs.getLong(1);
        }
        System.out.println("ready " + latest);
        System.out.flush();
        for (long seq = latest + 1; ; seq++) {
          statement.executeUpdate(insert(seq));
          System.out.println("ack " + seq);
          System.out.flush();
        }
      }
    }
  }

  @Test void shouldKeepEveryAcknowledgedInsertWhenTheProcessIsKilled() throws Exception {
    long seed = System.nanoTime();
    System.out.println("DurableStreamCrashTest seed " + seed);
    Random random = new Random(seed);
    long stored = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      int acksBeforeKill = 1 + random.nextInt(40);
      List<Long> acked = runAndKill(acksBeforeKill, stored, "seed " + seed + ", kill " + kill);
      long lastAcked = acked.isEmpty() ? stored : acked.get(acked.size() - 1);
      long latest = verify("seed " + seed + ", kill " + kill + ", acknowledged " + acked);
      assertTrue(latest == lastAcked || latest == lastAcked + 1, "seed " + seed + ", kill "
          + kill + ": " + latest + " statements stored, but " + lastAcked + " acknowledged;"
          + " only the one in flight may be there too");
      stored = latest;
    }
  }

  /**
   * Starts the child, kills it after it acknowledged {@code acks} statements, and returns every
   * acknowledgement it printed, including those printed while it was being killed.
   */
  private List<Long> runAndKill(int acks, long stored, String context) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path stderr = dataDir.resolveSibling(dataDir.getFileName() + "-child-stderr.txt");
    Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Child.class.getName(),
        dataDir.toString())
        .redirectError(stderr.toFile())
        .start();
    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("reader failed: " + e);
      }
      lines.add("EOF");
    }, "crash-test-child-stdout");
    reader.start();
    List<Long> acked = new ArrayList<>();
    try {
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      String ready = next(lines, deadline, child, stderr, context);
      assertEquals("ready " + stored, ready, context + ": the child found the stored statements");
      while (acked.size() < acks) {
        acked.add(ack(next(lines, deadline, child, stderr, context), stored + acked.size() + 1,
            context));
      }
    } finally {
      // SIGKILL, through the process handle: Process.destroyForcibly() would also close the
      // pipe, and the acknowledgements still in it would be lost to the test.
      child.toHandle().destroyForcibly();
      assertTrue(child.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the child did not die");
      reader.join(DEADLINE.toMillis());
    }
    // What the child printed before it died was acknowledged too.
    for (String line = lines.poll(); !"EOF".equals(line); line = lines.poll()) {
      acked.add(ack(line, stored + acked.size() + 1, context));
    }
    return acked;
  }

  private static String next(LinkedBlockingQueue<String> lines, long deadline, Process child,
      Path stderr, String context) throws Exception {
    String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    if (line == null || line.equals("EOF")) {
      child.destroyForcibly();
      child.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      fail(context + ": the child " + (line == null ? "printed nothing within " + DEADLINE
          : "ended") + "; its stderr:\n" + (Files.exists(stderr) ? Files.readString(stderr) : ""));
    }
    return line;
  }

  private static long ack(String line, long expected, String context) {
    assertEquals("ack " + expected, line, context);
    return expected;
  }

  /**
   * Opens a new engine on the data directory, as a restarted application would, checks that
   * the stream holds statements {@code 1..N} in order, each with all of its rows, and returns N.
   */
  private long verify(String context) throws Exception {
    try (Engine engine = new Engine("verify", Optional.of(dataDir))) {
      Session session = engine.openSession();
      session.execute(CREATE);
      List<Object[]> rows = ((StatementResult.Rows) session.execute(
          "SELECT seq, i, payload, amount, ts FROM events")).rows();
      long seq = 0;
      int at = 0;
      while (at < rows.size()) {
        seq++;
        for (List<Object> expected : rowsOf(seq)) {
          assertTrue(at < rows.size(), context + ": statement " + seq + " is cut short");
          assertEquals(expected, Arrays.asList(rows.get(at)), context + ": statement " + seq
              + ", row " + expected.get(1));
          at++;
        }
      }
      return seq;
    }
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.Engine;
import dev.freshet.engine.Session;
import dev.freshet.engine.query.StatementResult;
import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import dev.freshet.testkit.crash.KillLoop;
import java.math.BigDecimal;
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
  /** The statements the stream holds, as the last check found. */
  private long stored;

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
    KillLoop loop = new KillLoop();
    List<Long> acked = new ArrayList<>();
    loop.run(KILLS, run -> ChildJvm.of(Child.class).jvmOptions("-XX:+UseSerialGC")
        .deadline(DEADLINE).args(dataDir).start(), (child, run) -> {
          String context = loop.context() + ", kill " + run;
          acked.clear();
          int acksBeforeKill = 1 + loop.random().nextInt(40);
          assertEquals("ready " + stored, child.awaitLine(line -> true),
              context + ": the child found the stored statements");
          while (acked.size() < acksBeforeKill) {
            acked.add(ack(child.awaitLine(line -> true), stored + acked.size() + 1, context));
          }
        }, (lastLines, run) -> {
          String context = loop.context() + ", kill " + run + ", acknowledged " + acked;
          // What the child printed before it died was acknowledged too.
          for (String line : lastLines) {
            acked.add(ack(line, stored + acked.size() + 1, context));
          }
          long lastAcked = acked.isEmpty() ? stored : acked.get(acked.size() - 1);
          long latest = verify(context);
          assertTrue(latest == lastAcked || latest == lastAcked + 1, context + ": " + latest
              + " statements stored, but " + lastAcked + " acknowledged;"
              + " only the one in flight may be there too");
          stored = latest;
        });
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

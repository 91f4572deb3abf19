package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across crashes for a stream-stream join: a child JVM runs a view joining two
 * streams with watermarks in a time range (both sides' rows in its state) and INSERTs into both;
 * the test SIGKILLs it at random moments, starts it again on the same data directory, and at the
 * end compares the view's rows, duplicates counted, with H2's join over everything the streams
 * hold: no joined row lost, none twice.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@CrashTest
class JoinExactlyOnceCrashTest {
  private static final int KILLS = 4;

  @TempDir Path dataDir;

  @Test void shouldLoseNoJoinedRowAndEmitNoneTwiceWhenKilledAtRandomMoments() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String context = "seed " + seed;
    long viewed = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      Process child = start("run");
      try (BufferedReader lines = reader(child)) {
        int acks = 2 + random.nextInt(12);
        String line;
        while (acks > 0 && (line = lines.readLine()) != null) {
          if (line.startsWith("ACK ")) {
            acks--;
          } else if (line.startsWith("VIEWED ")) {
            viewed = Math.max(viewed, Long.parseLong(line.substring(7)));
          }
        }
        child.destroyForcibly();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), context + ": child did not die");
      }
    }
    Output streams = run(start("count"), context);
    List<String> expected = new ArrayList<>();
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
         Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE orders (id BIGINT)");
      s.execute("CREATE TABLE payments (order_id BIGINT, amount BIGINT)");
      for (String order : streams.orders) {
        s.execute("INSERT INTO orders VALUES (" + order + ")");
      }
      for (String payment : streams.payments) {
        s.execute("INSERT INTO payments VALUES (" + payment.replace(' ', ',') + ")");
      }
      // The child's event times: order i at i s, a payment at its step's i s, amount i (or
      // -i out of range), so the range condition is: step - order in [0, 10] seconds.
      try (ResultSet rs = s.executeQuery("SELECT o.id, p.amount FROM orders o JOIN payments p"
          + " ON o.id = p.order_id AND ABS(p.amount) - o.id BETWEEN 0 AND 10"
          + " ORDER BY o.id, p.amount")) {
        while (rs.next()) {
          expected.add(rs.getLong(1) + " " + rs.getLong(2));
        }
      }
    }
    assertTrue(expected.size() >= viewed, context + ": the view had " + viewed
        + " rows before a kill, but the streams join to " + expected.size());
    Output verify = run(start("verify", Integer.toString(expected.size())), context);
    List<String> actual = new ArrayList<>(verify.rows);
    actual.sort(JoinExactlyOnceCrashTest::byNumbers);
    expected.sort(JoinExactlyOnceCrashTest::byNumbers);
    assertEquals(expected, actual, context + ", " + KILLS + " kills");
    if (viewed > 0) {
      assertTrue(verify.lastBatch > 0, context + ": the view's query did not resume");
    }
  }

  private static int byNumbers(String a, String b) {
    String[] x = a.split(" ");
    String[] y = b.split(" ");
    int c = Long.compare(Long.parseLong(x[0]), Long.parseLong(y[0]));
    return c != 0 ? c : Long.compare(Long.parseLong(x[1]), Long.parseLong(y[1]));
  }

  /** What a child printed. */
  private static final class Output {
    final List<String> orders = new ArrayList<>();
    final List<String> payments = new ArrayList<>();
    final List<String> rows = new ArrayList<>();
    long lastBatch = -1;
  }

  private Output run(Process child, String context) throws Exception {
    Output output = new Output();
    try (BufferedReader lines = reader(child)) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("ORDER ")) {
          output.orders.add(line.substring(6));
        } else if (line.startsWith("PAYMENT ")) {
          output.payments.add(line.substring(8));
        } else if (line.startsWith("ROW ")) {
          output.rows.add(line.substring(4));
        } else if (line.startsWith("LASTBATCH ")) {
          output.lastBatch = Long.parseLong(line.substring(10));
        }
      }
    }
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), context + ": child did not end");
    if (child.exitValue() != 0) {
      String err = java.nio.file.Files.readString(dataDir.resolve("child.err"));
      org.junit.jupiter.api.Assertions.fail(context + ": child failed:\n"
          + err.substring(Math.max(0, err.length() - 4_000)));
    }
    return output;
  }

  private Process start(String... args) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), JoinCrashTestChild.class.getName(),
        dataDir.toString()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.appendTo(dataDir.resolve("child.err").toFile()))
        .start();
  }

  private static BufferedReader reader(Process process) {
    return new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }
}

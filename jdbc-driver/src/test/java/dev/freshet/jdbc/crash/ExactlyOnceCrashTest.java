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
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly-once across crashes: a child JVM runs a named UPDATE-mode view over a memory stream
 * and INSERTs into it; the test SIGKILLs it at random moments (during INSERTs, mid-batch, between
 * the offset and commit log writes, during state commits and snapshots, as they fall), starts it
 * again on the same data directory, and at the end compares the view with H2's GROUP BY over the
 * stream: nothing acknowledged is lost, nothing is counted twice.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@CrashTest
class ExactlyOnceCrashTest {
  /**
   * Kills per state store provider. Random kills sample the moments of a batch; the power-loss
   * test (engine, PowerLossTest) crashes at every file operation of one in turn.
   */
  private static final int KILLS = 3;

  @TempDir Path dataDir;

  @ParameterizedTest(name = "state store provider {0}")
  @ValueSource(strings = {"memory", "mvstore"})
  void shouldLoseNothingAndCountNothingTwiceWhenKilledAtRandomMoments(String provider)
      throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String context = "provider " + provider + ", seed " + seed;
    long lastAck = -1;
    // The most rows the view was seen to have counted before the last kill.
    long viewed = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      Process child = start("run", provider);
      try (BufferedReader lines = reader(child)) {
        // Kill after a random number of further acknowledged INSERTs: 0 kills at start-up.
        int acks = random.nextInt(12);
        String line;
        while (acks >= 0 && (line = lines.readLine()) != null) {
          if (line.startsWith("VIEWED ")) {
            viewed = Math.max(viewed, Long.parseLong(line.substring(7)));
          } else if (line.startsWith("ACK ")) {
            lastAck = Math.max(lastAck, Long.parseLong(line.substring(4)));
            acks--;
          } else if (line.startsWith("START") && acks == 0) {
            acks--;
          }
        }
        child.destroyForcibly();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), context + ": child did not die");
      }
    }

    Process verify = start("verify", provider);
    List<String> in = new ArrayList<>();
    List<String> view = new ArrayList<>();
    long lastBatch = -1;
    long read = -1;
    try (BufferedReader lines = reader(verify)) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("IN ")) {
          in.add(line.substring(3));
        } else if (line.startsWith("ROW ")) {
          view.add(line.substring(4));
        } else if (line.startsWith("LASTBATCH ")) {
          lastBatch = Long.parseLong(line.substring(10));
        } else if (line.startsWith("READ ")) {
          read = Long.parseLong(line.substring(5));
        }
      }
    }
    assertTrue(verify.waitFor(120, TimeUnit.SECONDS), context + ": verify did not end");
    assertEquals(0, verify.exitValue(), context + ": verify failed");

    // The last run resumed from the checkpoint: it did not start over from the first row.
    if (viewed > 0) {
      assertTrue(lastBatch > 0, context + ": the view's query did not resume; last batch "
          + lastBatch);
    }
    // Rows the view had committed before a kill are never read again; how many it committed
    // depends on when the kills came, so the bound is what the runs saw.
    assertTrue(read <= in.size() - viewed, context + ": the last run read " + read + " of "
        + in.size() + " rows, though the view had counted " + viewed + " before");

    // Every acknowledged INSERT is in the stream, each exactly once, with all its rows.
    TreeSet<Long> statements = new TreeSet<>();
    for (String row : in) {
      statements.add(Long.parseLong(row.split(" ")[1]) / 100);
    }
    assertEquals(in.size(), statements.size() * CrashTestChild.ROWS, context + ": torn INSERT");
    for (long i = 0; i <= lastAck; i++) {
      assertTrue(statements.contains(i), context + ": acknowledged INSERT " + i + " lost");
    }

    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
         Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE clicks (user_id VARCHAR, amount BIGINT)");
      for (String row : in) {
        String[] parts = row.split(" ");
        s.execute("INSERT INTO clicks VALUES ('" + parts[0] + "', " + parts[1] + ")");
      }
      TreeSet<String> expected = new TreeSet<>();
      try (ResultSet rs = s.executeQuery("SELECT user_id, COUNT(*), SUM(amount) FROM clicks"
          + " GROUP BY user_id")) {
        while (rs.next()) {
          expected.add(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getLong(3));
        }
      }
      assertEquals(expected, new TreeSet<>(view), context + ", " + KILLS + " kills, last ack "
          + lastAck);
    }
  }

  private Process start(String mode, String provider) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // C1 only: each child runs for seconds, so compiling for peak speed would cost more than it
    // saves on the two cores the tests share.
    return new ProcessBuilder(java, "-Xmx512m", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        CrashTestChild.class.getName(), dataDir.toString(), mode, provider)
        .redirectError(ProcessBuilder.Redirect.appendTo(dataDir.resolve("child.err").toFile()))
        .start();
  }

  private static BufferedReader reader(Process process) {
    return new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }
}

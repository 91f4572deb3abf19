package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once for a view over a view across crashes: a child JVM runs an UPDATE view over a
 * memory stream and a view over the first view's changes, and INSERTs; the test SIGKILLs it at
 * random moments, starts it again on the same data directory, and at the end compares the
 * second view with H2 running the nested query over the stream: a batch of the second view that
 * runs again reads the same versions of the first, none is skipped and none read twice.
 */
@CrashTest
class ViewOverViewExactlyOnceCrashTest {
  /** Two kills and a verify: four JVM starts, about 20 s on the shared machine. */
  private static final int KILLS = 2;

  @TempDir Path dataDir;

  @Test void shouldEqualTheNestedQueryAfterKillsAtRandomMoments() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String context = "seed " + seed;
    long lastAck = -1;
    for (int kill = 0; kill < KILLS; kill++) {
      Process child = start("run");
      try (BufferedReader lines = reader(child)) {
        // Kill after a random number of further acknowledged INSERTs: 0 kills at start-up.
        int acks = random.nextInt(15);
        String line;
        while (acks >= 0 && (line = lines.readLine()) != null) {
          if (line.startsWith("ACK ")) {
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

    Process verify = start("verify");
    List<String> in = new ArrayList<>();
    List<String> view = new ArrayList<>();
    try (BufferedReader lines = reader(verify)) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("IN ")) {
          in.add(line.substring(3));
        } else if (line.startsWith("ROW ")) {
          view.add(line.substring(4));
        }
      }
    }
    assertTrue(verify.waitFor(120, TimeUnit.SECONDS), context + ": verify did not end");
    assertEquals(0, verify.exitValue(), context + ": verify failed: "
        + Files.readString(dataDir.resolve("child.err")));
    assertTrue(in.size() >= (lastAck + 1) * ViewOverViewCrashTestChild.ROWS,
        context + ": acknowledged rows lost");

    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
         Statement s = h2.createStatement()) {
      s.execute("CREATE TABLE clicks (user_id VARCHAR, amount BIGINT)");
      for (String row : in) {
        String[] parts = row.split(" ");
        s.execute("INSERT INTO clicks VALUES ('" + parts[0] + "', " + parts[1] + ")");
      }
      TreeSet<String> expected = new TreeSet<>();
      try (ResultSet rs = s.executeQuery(ViewOverViewCrashTestChild.DOWNSTREAM.formatted(
          "(" + ViewOverViewCrashTestChild.UPSTREAM + ")"))) {
        while (rs.next()) {
          expected.add(rs.getLong(1) + " " + rs.getLong(2) + " " + rs.getLong(3) + " "
              + rs.getLong(4) + " " + rs.getLong(5));
        }
      }
      assertEquals(expected, new TreeSet<>(view), context + ", " + KILLS + " kills, last ack "
          + lastAck);
    }
  }

  private Process start(String mode) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // C1 only: each child runs for seconds, so compiling for peak speed would cost more than it
    // saves on the two cores the tests share.
    return new ProcessBuilder(java, "-Xmx512m", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        ViewOverViewCrashTestChild.class.getName(), dataDir.toString(), mode)
        .redirectError(ProcessBuilder.Redirect.appendTo(dataDir.resolve("child.err").toFile()))
        .start();
  }

  private static BufferedReader reader(Process process) {
    return new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }
}

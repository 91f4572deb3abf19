package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.SparkTest;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once across real crashes of the Freshet server driving Spark: a child JVM runs a view
 * {@code WITH ('engine' = 'spark')} and INSERTs into its stream; the test SIGKILLs it at random
 * moments (during an INSERT, while Spark runs a batch, between the view's applying a batch and
 * Spark's commit of it, as they fall), starts it again on the same data directory, where Spark
 * resumes from its checkpoint and the view from its own result, and at the end compares the view
 * with H2's GROUP BY over the stream: nothing acknowledged is lost, nothing counted twice.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@CrashTest
@SparkTest
class SparkViewCrashTest {
  /** Kills; each costs a child JVM's start with Spark (seconds). */
  private static final int KILLS = 2;

  @TempDir Path dataDir;

  @Test void shouldLoseNothingAndCountNothingTwiceWhenTheDriverIsKilled() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String context = "seed " + seed;
    long lastAck = -1;
    for (int kill = 0; kill < KILLS; kill++) {
      Process child = start("run");
      try (BufferedReader lines = reader(child)) {
        // Kill after a few more acknowledged INSERTs, while Spark runs their batches.
        int acks = 2 + random.nextInt(8);
        String line;
        while (acks > 0 && (line = lines.readLine()) != null) {
          if (line.startsWith("ACK ")) {
            lastAck = Math.max(lastAck, Long.parseLong(line.substring(4)));
            acks--;
          }
        }
        child.destroyForcibly();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), context + ": child did not die");
      }
    }
    assertTrue(lastAck >= 0, () -> context + ": no INSERT was acknowledged: " + childErrors());

    Process verify = start("verify");
    List<String> in = new ArrayList<>();
    List<String> view = new ArrayList<>();
    long lastBatch = -1;
    try (BufferedReader lines = reader(verify)) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("IN ")) {
          in.add(line.substring(3));
        } else if (line.startsWith("ROW ")) {
          view.add(line.substring(4));
        } else if (line.startsWith("LASTBATCH ")) {
          lastBatch = Long.parseLong(line.substring(10));
        }
      }
    }
    assertTrue(verify.waitFor(120, TimeUnit.SECONDS), context + ": verify did not end");
    assertEquals(0, verify.exitValue(), () -> context + ": verify failed: " + childErrors());
    assertTrue(lastBatch >= 0, context + ": the view ran no batch");

    // Every acknowledged INSERT is in the stream, whole and once.
    TreeSet<Long> statements = new TreeSet<>();
    for (String row : in) {
      statements.add(Long.parseLong(row.split(" ")[1]) / 100);
    }
    assertEquals(in.size(), statements.size() * SparkViewCrashChild.ROWS, context + ": torn");
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
      assertEquals(expected, new TreeSet<>(view), context + ", last ack " + lastAck);
    }
  }

  private Process start(String mode) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // Spark's JVM options on Java 17, from the file the launcher reads too (the module's
    // directory is the tests' working directory).
    return new ProcessBuilder(java, "-Xmx768m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "@" + Path.of("jvm.options").toAbsolutePath(),
        "-cp", System.getProperty("java.class.path"),
        SparkViewCrashChild.class.getName(), dataDir.toString(), mode)
        .redirectError(ProcessBuilder.Redirect.appendTo(dataDir.resolve("child.err").toFile()))
        .start();
  }

  /** The end of what the children wrote to standard error. */
  private String childErrors() {
    try {
      String errors = java.nio.file.Files.readString(dataDir.resolve("child.err"));
      return errors.substring(Math.max(0, errors.length() - 4000));
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }

  private static BufferedReader reader(Process process) {
    return new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }
}

package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * State larger than the heap, end to end through SQL: a materialized view over 1,000,000 distinct
 * keys, kept by the MVStore state store provider, runs in a JVM with {@code -Xmx128m}, and its
 * result equals H2's result of the same GROUP BY.
 *
 * <p>The child JVM ({@link LargeStateViewChild}) reads 1,100,000 generated numbers in batches of
 * 100,000, so the last 100,000 revisit groups whose state comes back from the file. As Java
 * objects the state would take several times the heap; the view's result lives in the engine's H2 file,
 * outside the heap too. This JVM then opens the same data directory (the catalog brings the view
 * back), reads the view through JDBC, and compares it row by row with H2's GROUP BY over
 * {@code SYSTEM_RANGE}.
 */
// Beyond the 20 minutes the test gives its child, whose failure shows the child's output.
@Timeout(value = 21, unit = TimeUnit.MINUTES)
class LargeStateViewTest {
  private static final long ROWS = 1_100_000;
  private static final long KEYS = 1_000_000;
  /** Rows per batch, as the child declares its stream. */
  private static final long BATCH_ROWS = 100_000;

  @TempDir Path dataDir;

  @Test void shouldKeepAMillionGroupsOfAViewInA128MbHeap() throws Exception {
    Path log = dataDir.resolveSibling(dataDir.getFileName() + "-child.log");
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-XX:+ExitOnOutOfMemoryError",
        // As the test JVMs run (the build's test.jvm), and crash children do: C1 alone and the
        // serial collector. With C2's and G1's threads the child took 27 CPU-s here, 10 without;
        // neither changes what the heap holds.
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"),
        LargeStateViewChild.class.getName(),
        dataDir.toString(), Long.toString(ROWS), Long.toString(KEYS), Long.toString(BATCH_ROWS))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    boolean finished = child.waitFor(20, TimeUnit.MINUTES);
    if (!finished) {
      child.destroyForcibly().waitFor();
    }
    List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    String context = "output of the child:\n" + String.join("\n", output);
    assertTrue(finished, "the child did not finish within 20 minutes; " + context);
    assertEquals(0, child.exitValue(), context);
    long maxHeap = output.stream().filter(l -> l.startsWith("MAX_HEAP "))
        .mapToLong(l -> Long.parseLong(l.substring(9))).findFirst().orElseThrow();
    assertTrue(maxHeap <= 128L << 20, "the child's heap was " + maxHeap + " bytes");
    long lastBatch = (ROWS + BATCH_ROWS - 1) / BATCH_ROWS - 1;
    assertTrue(output.contains("DONE STOPPED " + lastBatch), context);

    String url = "jdbc:freshet:dataDir=" + dataDir;
    try (Connection freshet = DriverManager.getConnection(url);
         Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
         Statement view = freshet.createStatement();
         Statement oracle = h2.createStatement();
         ResultSet actual = view.executeQuery("SELECT k, c, total FROM big ORDER BY k");
         ResultSet expected = oracle.executeQuery("SELECT MOD(X, " + KEYS + ") AS k,"
             + " COUNT(*) AS c, SUM(X) AS total FROM SYSTEM_RANGE(0, " + (ROWS - 1) + ")"
             + " GROUP BY MOD(X, " + KEYS + ") ORDER BY k")) {
      long compared = 0;
      while (expected.next()) {
        assertTrue(actual.next(), "the view ends after " + compared + " rows");
        for (int column = 1; column <= 3; column++) {
          if (expected.getLong(column) != actual.getLong(column)) {
            assertEquals(List.of(expected.getLong(1), expected.getLong(2), expected.getLong(3)),
                List.of(actual.getLong(1), actual.getLong(2), actual.getLong(3)),
                "row " + compared);
          }
        }
        compared++;
      }
      assertFalse(actual.next(), "the view has more rows than H2's " + compared);
      assertEquals(KEYS, compared);
    } finally {
      EngineRegistry.INSTANCE.resolve(java.util.Map.of(EngineRegistry.DATA_DIR,
          dataDir.toString())).close();
    }
  }
}

package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4, acceptance 5, at the provider level: a streaming aggregation over 600,000 distinct
 * BIGINT keys keeps its state in {@link MVStoreStateStoreProvider} in a JVM with {@code -Xmx96m}.
 * The state would take several times that heap as Java objects.
 *
 * <p>A child JVM runs {@link LargeStateMain}: 10 batches of 60,000 new keys, then one batch of
 * 60,000 rows that revisit keys written earlier (so restored values come back from the file), over
 * 2 state partitions. The child reads the last version back through cursors and prints the totals;
 * then it reads the version before the last and re-runs the last batch from it, as a restart after
 * a kill between the state commit and the commit log would, so the undo of the 60,000 keys that
 * batch changed (30,000 per partition) is read and applied in the same heap. This test checks the
 * totals against those computed from the input's definition.
 */
// Beyond the 10 minutes the test gives its child, whose failure shows the child's output.
@Timeout(value = 11, unit = TimeUnit.MINUTES)
class MVStoreLargeStateTest {
  private static final long KEYS = 600_000;
  private static final long REVISITS = 60_000;

  @TempDir Path dir;

  @Test void shouldKeepSixHundredThousandKeysWhenHeapIs96Mb() throws IOException, InterruptedException {
    Path log = dir.resolve("child.log");
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx96m",
        // As the test JVMs run (the build's test.jvm): C1 alone and the serial collector, whose
        // threads would otherwise take more CPU than the child's work. The heap is the same.
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"),
        LargeStateMain.class.getName(),
        dir.resolve("checkpoint").toString(),
        Long.toString(KEYS), "60000", "2", Long.toString(REVISITS))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    boolean finished = child.waitFor(10, TimeUnit.MINUTES);
    if (!finished) {
      child.destroyForcibly().waitFor();
    }
    List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
    output.forEach(System.out::println);
    assertTrue(finished, "the child did not finish within 10 minutes");
    assertEquals(0, child.exitValue(), "exit code of the child; its output:\n"
        + String.join("\n", output));

    Map<String, Long> result = fields(output, "RESULT ");
    Map<String, Long> rerun = fields(output, "RERUN ");
    // Row i < KEYS has value i % 1000; each revisiting row has value 1.
    long sumOfValues = KEYS / 1000 * (999 * 1000 / 2) + REVISITS;
    assertEquals(KEYS, result.get("keys"), "keys read back");
    assertEquals(KEYS, result.get("numKeys"), "numKeys");
    assertEquals(KEYS + REVISITS, result.get("countSum"), "sum of COUNT(*)");
    assertEquals(sumOfValues, result.get("sumSum"), "sum of SUM(v)");
    assertEquals(REVISITS, result.get("revisited"), "keys with COUNT(*) 2");
    assertEquals(KEYS + REVISITS, result.get("outputRows"), "rows emitted in UPDATE mode");

    assertEquals(KEYS, rerun.get("previousKeys"), "keys of the version before the last");
    assertEquals(KEYS, rerun.get("previousCountSum"), "sum of COUNT(*) before the revisits");
    assertEquals(KEYS, rerun.get("keys"), "keys after the re-run");
    assertEquals(KEYS + REVISITS, rerun.get("countSum"), "sum of COUNT(*) after the re-run");
    assertEquals(sumOfValues, rerun.get("sumSum"), "sum of SUM(v) after the re-run");
    assertEquals(REVISITS, rerun.get("revisited"), "keys with COUNT(*) 2 after the re-run");
  }

  /** The {@code name=value} fields of the line that starts with {@code prefix}. */
  private static Map<String, Long> fields(List<String> output, String prefix) {
    for (String line : output) {
      if (line.startsWith(prefix)) {
        Map<String, Long> fields = new HashMap<>();
        for (String field : line.substring(prefix.length()).split(" ")) {
          String[] kv = field.split("=");
          fields.put(kv[0], Long.parseLong(kv[1]));
        }
        return fields;
      }
    }
    throw new AssertionError("the child printed no line starting with " + prefix);
  }
}

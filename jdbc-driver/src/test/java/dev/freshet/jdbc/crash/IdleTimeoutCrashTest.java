package dev.freshet.jdbc.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.CrashTest;
import dev.freshet.testkit.crash.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code 'watermark.idle-timeout'} across a SIGKILL: the batch without data that the idle
 * timeout ran, closing the last window, is recorded in the offset log with its watermark and
 * time, so that a restart replays it exactly. The test kills the child with the engine open
 * after that batch, takes away the batch's commit-log entry (as a kill between the offset log's
 * write and the commit log's leaves it), restarts, and compares: the same batch ids with the
 * same watermarks, times and output, the offset log unchanged, each window once.
 */
@CrashTest
class IdleTimeoutCrashTest {
  @TempDir Path dataDir;

  @Test void shouldReplayTheIdleBatchAsRecordedAfterAKill() throws Exception {
    List<String> batches = new ArrayList<>();
    List<String> windows = new ArrayList<>();
    try (ChildJvm run = child("run")) {
      run.awaitLine(line -> {
        collect(line, batches, windows);
        return line.equals("READY");
      });
      run.kill();
    }
    long epoch = java.time.Instant.parse("2020-01-01T00:00:00Z").toEpochMilli();
    List<String> expectedWindows = List.of("WINDOW " + epoch + " 1",
        "WINDOW " + (epoch + 10_000) + " 1", "WINDOW " + (epoch + 20_000) + " 1");
    assertEquals(expectedWindows, windows);
    // The last batch read nothing and emitted the last window: the idle timeout's.
    String idleBatch = batches.get(batches.size() - 1);
    String[] idle = idleBatch.split(" ");
    assertEquals("0", idle[2], idleBatch);
    assertEquals("1", idle[3], idleBatch);
    // Its watermark is its time minus the delay, not the rows' 2020-01-01 00:00:20.
    assertEquals(Long.parseLong(idle[5]) - 5_000, Long.parseLong(idle[4]), idleBatch);
    long last = Long.parseLong(idle[1]);

    Path checkpoint = dataDir.resolve("checkpoints").resolve(IdleTimeoutCrashTestChild.VIEW);
    Map<String, byte[]> offsets = files(checkpoint.resolve("offsets"));
    assertTrue(offsets.containsKey(Long.toString(last)), offsets.keySet().toString());
    Path commit = checkpoint.resolve("commits").resolve(Long.toString(last));
    assertTrue(Files.exists(commit), commit.toString());
    // As if the kill came between the offset log's write and the commit log's.
    Files.delete(commit);

    List<String> replayed = new ArrayList<>();
    List<String> windowsAfter = new ArrayList<>();
    for (String line : child("verify", last).awaitExit().lines()) {
      collect(line, replayed, windowsAfter);
    }

    // The restart ran the batch again as recorded: same id, input, output, watermark and time.
    assertEquals(idleBatch, replayed.get(0), "replayed " + replayed);
    // No later batch emitted anything: no window twice.
    for (String batch : replayed.subList(1, replayed.size())) {
      assertEquals("0", batch.split(" ")[3], "batch after the replay emitted rows: " + replayed);
    }
    assertEquals(expectedWindows, windowsAfter);
    // The offset log of every batch before is as it was.
    Map<String, byte[]> offsetsAfter = files(checkpoint.resolve("offsets"));
    for (Map.Entry<String, byte[]> e : offsets.entrySet()) {
      assertArrayEquals(e.getValue(), offsetsAfter.get(e.getKey()), "offsets/" + e.getKey());
    }
    assertTrue(Files.exists(commit), "the replayed batch was not committed");
  }

  private static void collect(String line, List<String> batches, List<String> windows) {
    if (line.startsWith("BATCH ")) {
      batches.add(line);
    } else if (line.startsWith("WINDOW ")) {
      windows.add(line);
    }
  }

  /** The files of {@code directory} by name, with their bytes (not hidden or temporary ones). */
  private static Map<String, byte[]> files(Path directory) throws Exception {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(directory)) {
      for (Path file : (Iterable<Path>) list::iterator) {
        String name = file.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)) {
          files.put(name, Files.readAllBytes(file));
        }
      }
    }
    return files;
  }

  private ChildJvm child(Object... args) throws Exception {
    return ChildJvm.of(IdleTimeoutCrashTestChild.class).jvmOptions("-Xmx512m")
        .args(dataDir).args(args).start();
  }
}

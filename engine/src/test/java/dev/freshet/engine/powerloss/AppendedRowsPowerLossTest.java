package dev.freshet.engine.powerloss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.store.StoredColumnType;
import dev.freshet.engine.view.AppendedRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.h2.store.fs.FilePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss at any write while a view's {@link AppendedRows} is created and appended to keeps
 * every batch whose {@code addBatch} returned, whole, and no part of another: the rows live on a
 * {@link SimulatedDisk} (MVStore reaches it through {@link SimulatedDiskH2Path}), which loses
 * every write not forced, with a crash point at every create, write, force, rename and delete.
 * The operations are counted by a run without power loss; then the run is repeated on a new disk,
 * losing power at operation 1, 2, ... until a run ends before its crash point.
 */
class AppendedRowsPowerLossTest {
  private static final StoredColumnType[] TYPES =
      {StoredColumnType.BIGINT, StoredColumnType.VARCHAR};
  /** Batch b's rows; batch 1 has none. */
  private static final Object[][][] BATCHES = {
      {{1L, "a"}, {2L, "b"}},
      {},
      {{3L, "c"}, {4L, "d"}, {5L, "e"}},
  };

  @TempDir Path temp;
  private FilePath h2Files;
  private int runs;

  @AfterEach void unregister() {
    if (h2Files != null) {
      FilePath.unregister(h2Files);
    }
  }

  @Test void shouldKeepEveryAddedBatchWholeWhenThePowerFailsAtAnyWrite() throws Exception {
    long operations = run(Long.MAX_VALUE).operations;
    assertTrue(operations > 4, "creating and adding 3 batches writes more than 4 times: "
        + operations);
    for (long k = 1; ; k++) {
      Outcome outcome = run(k);
      if (!outcome.lost) {
        assertTrue(k > operations / 2, "runs ended before crash point " + k + " of about "
            + operations);
        return;
      }
      assertTrue(k < 2 * operations, "runs still lose power at crash point " + k
          + ", twice the " + operations + " operations");
    }
  }

  private record Outcome(boolean lost, long operations) {
  }

  /**
   * Creates the rows on a new disk and adds {@link #BATCHES}, losing power at operation
   * {@code crashAt}; then checks what the disk kept.
   */
  private Outcome run(long crashAt) throws Exception {
    int run = ++runs;
    Path root = Files.createDirectory(temp.resolve("disk-" + run));
    SimulatedDisk disk = new SimulatedDisk(root);
    // Replaces the previous disk's: H2 finds file systems by scheme.
    h2Files = new SimulatedDiskH2Path(disk.fileSystem(), "");
    FilePath.register(h2Files);
    Path file = disk.root().resolve("checkpoints").resolve("V").resolve("view")
        .resolve("rows.mv.db");

    disk.armAt(crashAt);
    long acknowledged = -1;
    AppendedRows rows = null;
    try {
      rows = AppendedRows.open(file, TYPES, true);
      for (int b = 0; b < BATCHES.length; b++) {
        rows.addBatch(b, rowsOf(b), keysOf(b));
        acknowledged = b;
      }
    } catch (RuntimeException e) {
      assertTrue(disk.lost(), "failed without a power loss: " + e);
    }
    long operations = disk.counted();
    boolean lost = disk.lost();
    String where = (lost ? "power lost at operation " + crashAt : "power lost after the batches")
        + " of " + operations + ": " + disk.operations();
    assertEquals(List.of(), disk.bypassed(), "files written around the disk; " + where);
    // Nothing a close would write reaches the disk.
    disk.powerOff();
    if (rows != null) {
      rows.close();
    }

    Path kept = Files.createDirectory(temp.resolve("kept-" + run));
    disk.restoreTo(kept);
    try (AppendedRows recovered = AppendedRows.open(
        kept.resolve("checkpoints").resolve("V").resolve("view").resolve("rows.mv.db"),
        TYPES, true)) {
      long last = recovered.lastBatch();
      assertTrue(last >= acknowledged && last < BATCHES.length, "batch " + acknowledged
          + " was added, the file has " + last + "; " + where);
      List<List<Object>> expected = new ArrayList<>();
      for (int b = 0; b <= last; b++) {
        for (Object[] r : BATCHES[b]) {
          expected.add(Arrays.asList(r));
        }
      }
      AppendedRows.Snapshot s = recovered.snapshot(last);
      List<List<Object>> read = new ArrayList<>();
      for (Object[] r : s.rows()) {
        read.add(Arrays.asList(r));
      }
      assertEquals(expected, read, where);
      for (List<Object> r : expected) {
        assertArrayEquals(r.toArray(), s.get(r.get(0)), where);
      }
      assertNull(s.get(6L), where);
      // It goes on from there.
      recovered.addBatch(BATCHES.length, List.<Object[]>of(new Object[] {6L, "f"}),
          List.of(6L));
      assertArrayEquals(new Object[] {6L, "f"}, recovered.snapshot(BATCHES.length).get(6L));
    }
    return new Outcome(lost, operations);
  }

  private static List<Object[]> rowsOf(int batch) {
    return Arrays.asList(BATCHES[batch]);
  }

  private static List<Object> keysOf(int batch) {
    List<Object> keys = new ArrayList<>();
    for (Object[] r : BATCHES[batch]) {
      keys.add(r[0]);
    }
    return keys;
  }
}

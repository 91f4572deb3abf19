package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import java.nio.file.Path;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a state row of a count and a sum by a number costs in {@link DeltaFileStateStoreProvider}
 * (the state of W2, {@code SELECT n % 1000000, COUNT(*), SUM(n) ... GROUP BY n % 1000000}),
 * counted structurally rather than by the GC: no object per row (the key kept as its hash, the
 * row as a word of the table), and at most {@link #MAX_BYTES_PER_ENTRY} bytes of the maps' arrays
 * per entry. A regression to a boxed key or a {@code byte[]} per row fails the object count; a
 * wider slot or an emptier table fails the bytes. The heap per row of the whole engine is the
 * benchmark harness's W5.
 */
class StateRowFootprintTest {
  /** 20 bytes a slot at the load a grown or trimmed table has (0.64 to 0.75), and some slack. */
  private static final double MAX_BYTES_PER_ENTRY = 34;
  private static final int KEYS = 100_000;

  @TempDir Path dir;

  @Test void shouldHoldNoObjectPerRowWhenKeysAreIntegersAndRowsCountAndSum() {
    checkFootprint(k -> k);
  }

  @Test void shouldHoldNoObjectPerRowWhenKeysAreLongsWithinIntRange() {
    checkFootprint(k -> (long) k - KEYS / 2);
  }

  /** The control: a key of two columns is an object of its own, as it was before. */
  @Test void shouldHoldOneObjectPerRowWhenKeysAreComposite() {
    DeltaFileStateStoreProvider provider = provider("composite");
    StateStore<Object, Object[]> store = provider.getStore(0);
    for (int k = 0; k < KEYS; k++) {
      store.put(GroupKey.of("k", (long) k), new Object[] {null, 1L, (long) k});
    }
    store.commit();
    long[] footprint = provider.footprintOfLatestVersion();
    assertEquals(KEYS, footprint[0]);
    assertEquals(KEYS, footprint[2], "one GroupKey a row, rows as words");
  }

  private void checkFootprint(IntFunction<Object> keyOf) {
    DeltaFileStateStoreProvider provider = provider("numbers");
    // Batch 1 creates every key; batch 2 updates each, to counts and sums that still fit a word.
    for (int batch = 0; batch < 2; batch++) {
      StateStore<Object, Object[]> store = provider.getStore(batch);
      for (int k = 0; k < KEYS; k++) {
        Object[] old = store.get(keyOf.apply(k));
        long count = old == null ? 0 : (Long) old[1];
        long sum = old == null ? 0 : (Long) old[2];
        store.put(keyOf.apply(k), new Object[] {null, count + 1, sum + 1_000L * k});
      }
      store.commit();
      checkLatestVersion(provider, "batch " + (batch + 1));
    }
    assertArrayEquals(new Object[] {null, 2L, 2_000L * 777},
        provider.getReadStore(2).get(keyOf.apply(777)));
    provider.close();

    // Loaded again from its files, as after a restart.
    DeltaFileStateStoreProvider restarted = provider("numbers");
    assertArrayEquals(new Object[] {null, 2L, 2_000L * 777},
        restarted.getReadStore(2).get(keyOf.apply(777)));
    checkLatestVersion(restarted, "reloaded");
    long perKey = restarted.metrics().memoryUsedBytes() / KEYS;
    assertTrue(perKey <= MAX_BYTES_PER_ENTRY, "estimated bytes a key: " + perKey);
    restarted.close();
  }

  private static void checkLatestVersion(DeltaFileStateStoreProvider provider, String when) {
    long[] footprint = provider.footprintOfLatestVersion();
    long entries = footprint[0];
    assertTrue(entries >= KEYS, when + ": entries " + entries);
    assertEquals(0, footprint[2], when + ": objects held by " + entries + " entries");
    double bytesPerEntry = (double) footprint[1] / entries;
    assertTrue(bytesPerEntry <= MAX_BYTES_PER_ENTRY,
        when + ": " + bytesPerEntry + " bytes of arrays per entry");
  }

  private DeltaFileStateStoreProvider provider(String name) {
    return new DeltaFileStateStoreProvider(new StateStoreSpec(new StateStoreId(name, 0, 0),
        dir.resolve(name), StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT,
        StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN));
  }
}

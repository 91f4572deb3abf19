package dev.freshet.executor.state.internals;

import static dev.freshet.executor.state.StateStoreContractChecks.commit;
import static dev.freshet.executor.state.StateStoreContractChecks.toMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.AbstractStateStoreProviderTest;
import dev.freshet.executor.state.ChangeDroppingStateStoreContract;
import dev.freshet.executor.state.PersistentRerunStateStoreContract;
import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs the state store contract against {@link MVStoreStateStoreProvider} with buffers of 1 KB: a
 * store applies its sorted writes to the data map every dozen writes, so reads find some writes
 * pending and some applied, and MVStore writes changed pages to the file every few writes, so
 * commit, abort and reopening all have to undo or skip such writes.
 */
class MVStoreStateStoreProviderContractTest extends AbstractStateStoreProviderTest
    implements ChangeDroppingStateStoreContract, PersistentRerunStateStoreContract {
  /**
   * 1 MB of cache and 1 KB buffers. With fsync on commit, MVStore reuses a chunk as soon as the
   * latest version no longer needs it, so aborts and reopening meet reused chunks.
   */
  static final MVStoreStateStoreProvider.Options SMALL =
      new MVStoreStateStoreProvider.Options(1, 1, 1, true);

  @Override protected <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec) {
    return new MVStoreStateStoreProvider<>(spec, SMALL);
  }

  /**
   * Re-runs only the previous batch (a {@link PersistentRerunStateStoreContract}, not a retained
   * versions one): the latest version and, through the undo map, the one before it, for MVStore
   * cannot reliably roll back past the last commit once it reused file space. Pins of the latest
   * version and the one before; the changes of the latest version only.
   */
  @Override public int changesRetained() {
    return 1;
  }

  @Test void shouldRefuseToPinVersionsBeforeThePreviousOne() {
    StateStoreProvider<String, Integer> provider = provider();
    for (long v = 0; v < 4; v++) {
      StateStore<String, Integer> store = provider.getStore(v);
      store.put("k", (int) v + 1);
      store.commit();
    }
    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.pin(2));
    assertEquals("Version 2 of " + ID + " is no longer retained: the oldest version kept is 3",
        e.getMessage());
    try (PinnedStateStore<String, Integer> three = provider.pin(3)) {
      assertEquals(Integer.valueOf(3), three.get("k"));
    }
  }

  /** The file keeps the latest version's changes and the version before: a restart reads both. */
  @Test void shouldPinAndReadTheChangesOfTheLatestVersionWhenReopened() {
    StateStoreSpec spec = spec(100);
    StateStoreProvider<String, Integer> provider = provider(spec);
    commit(provider, 0, "a", 1, "b", 2);
    commit(provider, 1, "a", 10, "b", null, "c", 3);

    StateStoreProvider<String, Integer> reopened = reopen(provider, spec);
    assertEquals(2, reopened.latestCommittedVersion());
    assertEquals(1, reopened.oldestChangesVersion());
    List<String> read = new ArrayList<>();
    reopened.readChanges(1, 2, (v, k, o, n) -> read.add(v + " " + k + " " + o + "->" + n));
    read.sort(null);
    assertEquals(List.of("2 a 1->10", "2 b 2->null", "2 c null->3"), read);
    try (PinnedStateStore<String, Integer> one = reopened.pin(1)) {
      reopened.getStore(2).commit();
      assertEquals(Map.of("a", 1, "b", 2), toMap(one.entries()));
    }
  }

  /**
   * A pin keeps the chunks its version reads while later versions rewrite every key; once it is
   * closed the next commits free them. Pinning and releasing each version keeps the file at the
   * size of a few versions; a pin held over as many commits takes as much again.
   */
  @Test void shouldFreeThePinnedVersionsChunksOnceThePinIsClosed() {
    StateStoreSpec spec = spec(100);
    try (MVStoreStateStoreProvider<String, Integer> provider = new MVStoreStateStoreProvider<>(
        spec, new MVStoreStateStoreProvider.Options(1, 64, 64, true))) {
      long version = 0;
      long[] sizes = new long[4];
      for (int phase = 0; phase < 4; phase++) {
        PinnedStateStore<String, Integer> held = phase == 2 ? provider.pin(version) : null;
        for (int i = 0; i < 25; i++) {
          version = rewriteEveryKey(provider, version);
          try (PinnedStateStore<String, Integer> pinned = provider.pin(version)) {
            assertEquals(Integer.valueOf((int) version), pinned.get("key-7"));
          }
        }
        if (held != null) {
          assertEquals(Integer.valueOf((int) version - 25), held.get("key-7"));
          held.close();
        }
        sizes[phase] = provider.file().toFile().length();
      }
      String why = "file sizes after 25, 50, 75 (a pin held over 50 to 75) and 100 versions: "
          + Arrays.toString(sizes);
      assertTrue(sizes[1] < sizes[0] * 3 / 2, why);
      assertTrue(sizes[2] > sizes[1] * 2, why);
      assertTrue(sizes[3] <= sizes[2], why);
    }
  }

  /** Commits {@code version + 1}, putting every key with the value {@code version + 1}. */
  private static long rewriteEveryKey(MVStoreStateStoreProvider<String, Integer> provider,
      long version) {
    StateStore<String, Integer> store = provider.getStore(version);
    for (int i = 0; i < 1_000; i++) {
      store.put("key-" + i, (int) version + 1);
    }
    return store.commit();
  }
}

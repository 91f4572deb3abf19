package dev.freshet.executor.state.internals;

import static dev.freshet.executor.state.StateStoreContractChecks.toMap;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.state.AbstractStateStoreProviderTest;
import dev.freshet.executor.state.MaintainedStateStoreProvider;
import dev.freshet.executor.state.PersistentRetainedVersionsStateStoreContract;
import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.PinningStateStoreContract;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreMaintenance;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.VersionChangeVisitor;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs the state store contract against {@link DeltaFileStateStoreProvider}.
 *
 * <p>The provider stores rows ({@code Object[]}), which is all an aggregation saves; the suite
 * saves single values, so each value travels as a one-column row.
 */
class DeltaFileStateStoreProviderContractTest extends AbstractStateStoreProviderTest
    implements PersistentRetainedVersionsStateStoreContract, PinningStateStoreContract {
  @Override protected <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec) {
    return new OneColumnRowStores.OneColumnRows<>(new DeltaFileStateStoreProvider(spec));
  }

  /**
   * With a snapshot every 3 versions and 2 versions retained, maintenance after version 9 keeps
   * snapshots 6 and 9 and deltas 6 to 9: version 4 can no longer be loaded, nor can the changes
   * after version 5 (delta 5 is gone), while those after 6 still can.
   */
  @Test void shouldRefuseToPinOrReadChangesOfVersionsNoLongerRetained() {
    StateStoreSpec spec = new StateStoreSpec(ID, checkpoint.resolve("state/3/7"), 2, 2);
    StateStoreProvider<String, Integer> provider = provider(spec);
    for (long v = 0; v < 9; v++) {
      StateStore<String, Integer> store = provider.getStore(v);
      store.put("k", (int) v + 1);
      store.commit();
      provider.doMaintenance();
    }

    StateStoreException pin = assertThrows(StateStoreException.class, () -> provider.pin(4));
    assertEquals("Version 4 of " + ID + " is no longer retained: the oldest version kept is 6",
        pin.getMessage());
    assertEquals(6, provider.oldestChangesVersion());
    StateStoreException changes = assertThrows(StateStoreException.class,
        () -> provider.readChanges(5, 9, (v, k, o, n) -> { }));
    assertEquals("The changes after version 5 of " + ID + " are no longer retained: the oldest"
        + " version whose later changes are kept is 6", changes.getMessage());

    List<String> read = new ArrayList<>();
    provider.readChanges(6, 9, (v, k, o, n) -> read.add(v + " " + k + " " + o + "->" + n));
    assertEquals(List.of("7 k 6->7", "8 k 7->8", "9 k 8->9"), read);
    PinnedStateStore<String, Integer> six = provider.pin(6);
    assertEquals(Integer.valueOf(6), six.get("k"));

    // Maintenance deletes version 6's files; the pin keeps reading it.
    for (long v = 9; v < 15; v++) {
      StateStore<String, Integer> store = provider.getStore(v);
      store.put("k", (int) v + 1);
      store.commit();
      provider.doMaintenance();
    }
    assertEquals(12, provider.oldestChangesVersion());
    assertThrows(StateStoreException.class, () -> provider.pin(6));
    assertEquals(Integer.valueOf(6), six.get("k"));
    assertEquals(Map.of("k", 6), Map.copyOf(toMap(six.entries())));
  }

  /** The provider wrapped for the maintenance thread pins and reads changes as it does. */
  @Test void shouldPinAndReadChangesWhenRegisteredForMaintenance() {
    try (StateStoreMaintenance maintenance = new StateStoreMaintenance(Duration.ofHours(1));
        StateStoreProvider<Object, Object[]> provider = MaintainedStateStoreProvider.register(
            new DeltaFileStateStoreProvider(spec(100)), maintenance)) {
      StateStore<Object, Object[]> v0 = provider.getStore(0);
      v0.put(1L, new Object[] {10L, 2.5});
      v0.commit();
      StateStore<Object, Object[]> v1 = provider.getStore(1);
      v1.put(1L, new Object[] {11L, null});
      v1.commit();

      assertEquals(2, provider.latestCommittedVersion());
      assertEquals(0, provider.oldestChangesVersion());
      try (PinnedStateStore<Object, Object[]> pinned = provider.pin(1)) {
        assertArrayEquals(new Object[] {10L, 2.5}, pinned.get(1L));
      }
      List<String> read = new ArrayList<>();
      provider.readChanges(1, 2, (v, k, o, n) ->
          read.add(v + " " + k + " " + Arrays.toString(o) + "->" + Arrays.toString(n)));
      assertEquals(List.of("2 1 [10, 2.5]->[11, null]"), read);
    }
  }

  /**
   * Pins and change reads may run on other threads while the batch thread re-runs a batch: a
   * version they read from files is not cached, where it could replace the re-run's new version.
   */
  @Test void shouldNotCacheVersionsThatPinsAndChangeReadsLoadFromFiles() {
    StateStoreSpec spec = spec(100);
    try (DeltaFileStateStoreProvider writer = new DeltaFileStateStoreProvider(spec)) {
      for (long v = 0; v < 3; v++) {
        StateStore<Object, Object[]> store = writer.getStore(v);
        store.put("k", new Object[] {v + 1});
        store.commit();
      }
    }
    try (DeltaFileStateStoreProvider restarted = new DeltaFileStateStoreProvider(spec)) {
      try (PinnedStateStore<Object, Object[]> pinned = restarted.pin(3)) {
        assertArrayEquals(new Object[] {3L}, pinned.get("k"));
      }
      restarted.readChanges(1, 3, (v, k, o, n) -> { });
      assertEquals(0, restarted.metrics().loadedVersions());
      assertArrayEquals(new Object[] {3L}, restarted.getReadStore(3).get("k"));
      assertEquals(1, restarted.metrics().loadedVersions(), "the batch thread's loads are cached");
    }
  }
}

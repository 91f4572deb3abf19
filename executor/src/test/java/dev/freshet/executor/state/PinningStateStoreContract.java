package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.ID;
import static dev.freshet.executor.state.StateStoreContractChecks.V2;
import static dev.freshet.executor.state.StateStoreContractChecks.assertState;
import static dev.freshet.executor.state.StateStoreContractChecks.changes;
import static dev.freshet.executor.state.StateStoreContractChecks.commit;
import static dev.freshet.executor.state.StateStoreContractChecks.commitV1AndV2;
import static dev.freshet.executor.state.StateStoreContractChecks.toMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Contract of a provider that can {@link StateStoreProvider#pin pin} a version while later ones
 * commit and read the changes of each version (docs/design/views-from-state.md §2.3).
 */
public interface PinningStateStoreContract extends StateStoreContract {
  @Test default void shouldKeepAPinnedVersionThroughLaterCommitsAndARerunOfIt() {
    StateStoreProvider<String, Integer> provider = provider();
    assertEquals(0, provider.latestCommittedVersion());
    commitV1AndV2(provider);
    assertEquals(2, provider.latestCommittedVersion());

    PinnedStateStore<String, Integer> pinned = provider.pin(2);
    commit(provider, 2, "a", 11, "c", null, "f", 6);      // 3: f appears
    commit(provider, 3, "b", 7, "d", 40);                 // 4: b, removed in 2, comes back
    commit(provider, 4, "e", null, "g", 8);               // 5
    assertEquals(5, provider.latestCommittedVersion());
    assertEquals(Map.of("a", 11, "b", 7, "d", 40, "f", 6, "g", 8),
        toMap(provider.getReadStore(5).entries()));

    assertEquals(2, pinned.version());
    assertEquals(ID, pinned.id());
    assertState(pinned, V2);
    assertEquals(V2, toMap(pinned.entries()));
    assertNull(pinned.get("f"), "f exists only from version 3 on");
    assertNull(pinned.get("b"), "b was removed in version 2 and put again in version 4");
    assertNull(pinned.get("g"));

    // The version before the latest: what a restart publishes.
    PinnedStateStore<String, Integer> previous = provider.pin(4);
    Map<String, Integer> v4 = Map.of("a", 11, "b", 7, "d", 40, "e", 5, "f", 6);
    assertState(previous, v4);
    // A re-run of version 5 (batch 4 replayed after a crash) replaces it, not what pins read.
    PinnedStateStore<String, Integer> latest = provider.pin(5);
    assertEquals(5, commit(provider, 4, "a", 99, "f", null));
    assertEquals(Map.of("a", 11, "b", 7, "d", 40, "f", 6, "g", 8), toMap(latest.entries()));
    assertEquals(Integer.valueOf(11), latest.get("a"));
    try (PinnedStateStore<String, Integer> rerun = provider.pin(5)) {
      assertEquals(Map.of("a", 99, "b", 7, "d", 40, "e", 5), toMap(rerun.entries()));
    }
    commit(provider, 5, "h", 9);
    assertState(previous, v4);
    assertState(pinned, V2);
    if (olderVersionsRetained() >= 4) {
      // A re-run of version 2 itself replaces it on disk, not in the pin.
      commit(provider, 1, "a", 99);
      assertEquals(V2, toMap(pinned.entries()));
      assertEquals(Integer.valueOf(99), provider.pin(2).get("a"));
    }
    latest.close();
    previous.close();
    pinned.close();
    pinned.close();
    assertThrows(StateStoreException.class, () -> pinned.get("a"));
    assertThrows(StateStoreException.class, () -> toMap(pinned.entries()));
    assertThrows(StateStoreException.class, pinned::numKeys);
  }

  /**
   * How long the pinned reader waits for the batch thread's commits: each MVStore commit is
   * fsynced, and 20 of them took over 20 s on a 2-core machine shared with other builds.
   */
  long COMMITS_DEADLINE_S = 120;

  @Test default void shouldScanAPinOnAnotherThreadWhileTheBatchThreadCommits() throws Exception {
    StateStoreProvider<String, Integer> provider = provider();
    // Few keys: MVStore's contract test writes a chunk every few writes, and none is freed while
    // the pin holds them.
    int keys = 100;
    int versions = 20;
    StateStore<String, Integer> first = provider.getStore(0);
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < keys; i++) {
      first.put("k" + i, i);
      expected.put("k" + i, i);
    }
    first.commit();
    PinnedStateStore<String, Integer> pinned = provider.pin(1);

    CountDownLatch midScan = new CountDownLatch(1);
    CountDownLatch committed = new CountDownLatch(1);
    FutureTask<Map<String, Integer>> scan = new FutureTask<>(() -> {
      Map<String, Integer> seen = new HashMap<>();
      for (Map.Entry<String, Integer> e : pinned.entries()) {
        seen.put(e.getKey(), e.getValue());
        if (seen.size() == keys / 2) {
          midScan.countDown();
          if (!committed.await(COMMITS_DEADLINE_S, TimeUnit.SECONDS)) {
            throw new TimeoutException("the batch thread did not commit " + versions
                + " versions within " + COMMITS_DEADLINE_S + " s");
          }
        }
      }
      return seen;
    });
    Thread reader = new Thread(scan, "pinned-reader");
    reader.start();
    try {
      assertTrue(midScan.await(COMMITS_DEADLINE_S, TimeUnit.SECONDS), "the reader did not start its scan");
      // Versions that change every key, remove a quarter and add as many.
      for (long v = 1; v <= versions; v++) {
        StateStore<String, Integer> store = provider.getStore(v);
        for (int i = 0; i < keys; i++) {
          if (i % 4 == (int) v) {
            store.remove("k" + i);
          } else {
            store.put("k" + i, i + (int) v * 100_000);
          }
          store.put("new" + v + "-" + i % (keys / 4), i);
        }
        store.commit();
      }
      committed.countDown();
      assertEquals(expected, scan.get(COMMITS_DEADLINE_S, TimeUnit.SECONDS));
    } finally {
      committed.countDown();
      reader.join(TimeUnit.SECONDS.toMillis(COMMITS_DEADLINE_S));
    }
    assertEquals(versions + 1, provider.latestCommittedVersion());
    assertEquals(expected, toMap(pinned.entries()));
    assertEquals(keys, pinned.numKeys());
    assertEquals(Integer.valueOf(1), pinned.get("k1"));
    assertNull(pinned.get("new1-0"));
    pinned.close();
  }

  @Test default void shouldReadTheOldAndNewValueOfEachKeyEachVersionChanged() {
    StateStoreProvider<String, Integer> provider = provider();
    commit(provider, 0, "a", 1, "b", 2, "c", 3);
    commit(provider, 1, "a", 100, "a", 10, "b", null, "d", 4);
    // x put and removed in one batch is no change; c removed, then put again in the next one.
    commit(provider, 2, "x", 9, "x", null, "c", null, "e", 5);
    commit(provider, 3, "c", 30, "e", 50, "d", null);

    // The latest version's changes: every provider that reads changes keeps them.
    assertEquals(List.of("4 c null->30", "4 d 4->null", "4 e 5->50"), changes(provider, 3, 4));
    assertEquals(List.of(), changes(provider, 4, 4));
    if (olderVersionsRetained() >= 1) {
      // A re-run of the latest version: its changes are the re-run's.
      // a put with the value it had is a change; c, absent, removed is none.
      commit(provider, 3, "a", 10, "b", 20, "c", null);
      assertEquals(List.of("4 a 10->10", "4 b null->20"), changes(provider, 3, 4));
      commit(provider, 3, "c", 30, "e", 50, "d", null);
    }
    if (changesRetained() < 4) {
      return;
    }
    assertEquals(0, provider.oldestChangesVersion());
    assertEquals(List.of(
        "1 a null->1", "1 b null->2", "1 c null->3",
        "2 a 1->10", "2 b 2->null", "2 d null->4",
        "3 c 3->null", "3 e null->5",
        "4 c null->30", "4 d 4->null", "4 e 5->50"), changes(provider, 0, 4));
    assertEquals(List.of("3 c 3->null", "3 e null->5"), changes(provider, 2, 3));
  }

  @Test default void shouldRefuseToPinOrReadChangesOfAVersionNotCommittedYet() {
    StateStoreProvider<String, Integer> provider = provider();
    commitV1AndV2(provider);

    StateStoreException pin = assertThrows(StateStoreException.class, () -> provider.pin(3));
    assertEquals("Version 3 of " + ID + " is not committed yet: the latest committed version"
        + " is 2", pin.getMessage());
    StateStoreException changes = assertThrows(StateStoreException.class,
        () -> provider.readChanges(1, 3, (v, k, o, n) -> { }));
    assertEquals(pin.getMessage(), changes.getMessage());
    assertEquals("Version -1 of " + ID + " is not committed yet: the latest committed version"
        + " is 2", assertThrows(StateStoreException.class, () -> provider.pin(-1)).getMessage());
  }
}

package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests what {@link MVStoreStateStoreProvider} adds to the contract of
 * {@link MVStoreStateStoreProviderContractTest}: recovery after the process dies in the middle of a
 * batch, retention, and its errors.
 */
class MVStoreStateStoreProviderTest {
  private static final StateStoreId ID = new StateStoreId("query-1", 0, 2);
  /** Small buffers, so that MVStore writes an unfinished batch to the file within a few writes. */
  private static final MVStoreStateStoreProvider.Options SMALL =
      new MVStoreStateStoreProvider.Options(1, 4, 4, true);

  @TempDir Path dir;

  private final List<MVStoreStateStoreProvider<?, ?>> opened = new ArrayList<>();

  @AfterEach void closeProviders() {
    for (MVStoreStateStoreProvider<?, ?> p : opened) {
      p.close();
    }
  }

  private StateStoreSpec spec(Path directory, int minVersionsToRetain) {
    return new StateStoreSpec(ID, directory, StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT,
        minVersionsToRetain);
  }

  private <K, V> MVStoreStateStoreProvider<K, V> open(StateStoreSpec spec) {
    MVStoreStateStoreProvider<K, V> provider = new MVStoreStateStoreProvider<>(spec, SMALL);
    opened.add(provider);
    return provider;
  }

  /** Commits version 1 with {@code k0..k99 -> 0..99}. */
  private static Map<String, Integer> commitFirstVersion(
      MVStoreStateStoreProvider<String, Integer> provider) {
    Map<String, Integer> state = new HashMap<>();
    StateStore<String, Integer> v0 = provider.getStore(0);
    for (int i = 0; i < 100; i++) {
      v0.put("k" + i, i);
      state.put("k" + i, i);
    }
    assertEquals(1, v0.commit());
    return state;
  }

  /** Writes into version 1 until MVStore has written part of the batch to the file. */
  private static void writeUntilMVStoreWrites(MVStoreStateStoreProvider<String, Integer> provider,
      StateStore<String, Integer> store, int from) {
    long committed = provider.mvStoreVersion();
    int i = from;
    while (provider.mvStoreVersion() < committed + 3) {
      store.put("new" + i, i);
      store.remove("k" + (i % 100));
      i++;
    }
  }

  @Test void shouldOpenLastCommittedVersionWhenClosedAbruptlyMidBatch() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    MVStoreStateStoreProvider<String, Integer> provider = open(spec);
    Map<String, Integer> state = commitFirstVersion(provider);
    StateStore<String, Integer> v1 = provider.getStore(1);
    writeUntilMVStoreWrites(provider, v1, 0);

    provider.closeAbruptly();
    MVStoreStateStoreProvider<String, Integer> reopened = open(spec);

    assertEquals(1, reopened.latestVersion());
    assertEquals(state, toMap(reopened.getStore(1).entries()));
  }

  @Test void shouldOpenLastCommittedVersionWhenFileIsCopiedMidBatch() throws IOException {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));
    Map<String, Integer> state = commitFirstVersion(provider);
    StateStore<String, Integer> v1 = provider.getStore(1);

    // A copy of the file at any moment is what a process killed at that moment leaves.
    List<Path> copies = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      writeUntilMVStoreWrites(provider, v1, round * 1_000_000);
      Path copy = dir.resolve("copy" + round);
      Files.createDirectories(copy);
      Files.copy(provider.file(), copy.resolve(MVStoreStateStoreProvider.FILE_NAME));
      copies.add(copy);
    }
    v1.commit();
    Path committedCopy = dir.resolve("committed");
    Files.createDirectories(committedCopy);
    Files.copy(provider.file(), committedCopy.resolve(MVStoreStateStoreProvider.FILE_NAME));

    for (Path copy : copies) {
      MVStoreStateStoreProvider<String, Integer> recovered = open(spec(copy, 10));
      assertEquals(1, recovered.latestVersion(), copy.toString());
      assertEquals(state, toMap(
          recovered.getStore(1).entries()), copy.toString());
    }
    MVStoreStateStoreProvider<String, Integer> atCommit = open(spec(committedCopy, 10));
    assertEquals(2, atCommit.latestVersion());
    assertEquals(toMap(provider.getReadStore(2).entries()),
        toMap(atCommit.getReadStore(2).entries()));
  }

  @Test void shouldOpenLastCommittedVersionWhenProcessIsKilledMidBatch()
      throws IOException, InterruptedException {
    Path storeDir = dir.resolve("killed");
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m",
        "-cp", System.getProperty("java.class.path"),
        MVStoreCrashMain.class.getName(),
        storeDir.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String line;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      line = out.readLine();
      // SIGKILL: no shutdown hook, no close; what MVStore wrote so far stays in the file.
      child.destroyForcibly();
    }
    assertTrue(child.waitFor(1, TimeUnit.MINUTES), "the killed child did not end");
    assertEquals("WRITING", line, "the child ended before it was killed");

    MVStoreStateStoreProvider<String, Long> recovered =
        open(StateStoreSpec.of(MVStoreCrashMain.ID, storeDir));
    assertEquals(2, recovered.latestVersion());
    Map<String, Long> expected = new HashMap<>();
    for (int i = 0; i < 999; i++) {
      expected.put("k" + i, i == 0 ? 2L : 1L);
    }
    ReadStateStore<String, Long> v2 = recovered.getStore(2);
    assertEquals(expected, toMap(v2.entries()));
    assertEquals(999, v2.numKeys());
  }

  /**
   * Regression: rolling MVStore back to a commit older than the last returned an empty or older
   * state once chunks had been reused, so the provider opens only the latest version.
   */
  @Test void shouldThrowNamingLatestVersionWhenOpeningOlderVersion() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    MVStoreStateStoreProvider<String, Integer> provider = open(spec);
    for (int v = 0; v < 6; v++) {
      StateStore<String, Integer> store = provider.getStore(v);
      store.put("k", v);
      store.commit();
    }

    for (long version : new long[] {-1, 4, 5, 7}) {
      StateStoreException e = assertThrows(StateStoreException.class,
          () -> provider.getStore(version));
      assertEquals("Cannot load version " + version + " of " + ID
          + ": this provider opens only the latest committed version, 6", e.getMessage());
      StateStoreException read = assertThrows(StateStoreException.class,
          () -> provider.getReadStore(version));
      assertEquals(e.getMessage(), read.getMessage());
    }
    provider.close();
    MVStoreStateStoreProvider<String, Integer> reopened = open(spec);
    assertEquals(6, reopened.latestVersion());
    assertEquals(5, reopened.getStore(6).get("k"));
  }

  @Test void shouldRejectFileWhenLayoutVersionIsUnknown() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    open(spec).close();
    try (MVStore store = new MVStore.Builder()
        .fileName(spec.directory().resolve(MVStoreStateStoreProvider.FILE_NAME).toString())
        .open()) {
      MVMap<String, String> info = store.openMap("info");
      info.put("layout", "2");
      store.commit();
    }

    StateStoreException e = assertThrows(StateStoreException.class,
        () -> new MVStoreStateStoreProvider<String, Integer>(spec));
    assertEquals(spec.directory().resolve(MVStoreStateStoreProvider.FILE_NAME) + " of " + ID
        + " has layout version 2 and codec version 1; this Freshet reads layout version 1 with"
        + " codec version 1", e.getMessage());
  }

  @Test void shouldRejectSecondProviderWhenFileIsOpen() {
    StateStoreSpec spec = spec(dir.resolve("s"), 10);
    open(spec);

    StateStoreException e = assertThrows(StateStoreException.class,
        () -> new MVStoreStateStoreProvider<String, Integer>(spec));
    assertEquals("Cannot open " + spec.directory().resolve(MVStoreStateStoreProvider.FILE_NAME)
        + " of " + ID, e.getMessage());
    assertInstanceOf(org.h2.mvstore.MVStoreException.class, e.getCause());
  }

  @Test void shouldThrowWhenReadStoreOutlivesItsVersion() {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));
    commitFirstVersion(provider);
    ReadStateStore<String, Integer> v1 = provider.getReadStore(1);
    StateStore<String, Integer> writer = provider.getStore(1);
    writer.put("k1", -1);
    assertEquals(1, v1.get("k1"));
    writer.commit();

    StateStoreException e = assertThrows(StateStoreException.class, () -> v1.get("k1"));
    assertEquals("Version 1 of " + ID + " can no longer be read: a later version was committed",
        e.getMessage());
    assertThrows(StateStoreException.class, v1::numKeys);
    assertThrows(StateStoreException.class, () -> v1.entries().iterator());
    assertEquals(-1, provider.getReadStore(2).get("k1"));
  }

  @Test void shouldThrowNamingStoreWhenClosed() {
    MVStoreStateStoreProvider<String, Integer> provider = open(spec(dir.resolve("s"), 10));
    commitFirstVersion(provider);
    ReadStateStore<String, Integer> read = provider.getReadStore(1);
    provider.close();

    for (Runnable call : List.<Runnable>of(() -> provider.getStore(1),
        () -> provider.getReadStore(1), () -> read.get("k1"))) {
      StateStoreException e = assertThrows(StateStoreException.class, call::run);
      assertEquals(ID + " is closed", e.getMessage());
    }
  }

  private static <K, V> Map<K, V> toMap(Iterable<Map.Entry<K, V>> entries) {
    Map<K, V> map = new HashMap<>();
    for (Map.Entry<K, V> e : entries) {
      assertNull(map.put(e.getKey(), e.getValue()), "entries() repeats key " + e.getKey());
    }
    return map;
  }
}

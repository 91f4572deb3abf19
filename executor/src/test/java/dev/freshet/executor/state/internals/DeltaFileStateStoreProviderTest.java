package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link DeltaFileStateStoreProvider}: the update protocol, files, loading, version cache and
 * maintenance of SEMANTICS.md §10.
 */
class DeltaFileStateStoreProviderTest {
  private static final StateStoreId ID = new StateStoreId("query-1", 2, 5);

  @TempDir Path dir;

  private final List<DeltaFileStateStoreProvider> providers = new ArrayList<>();

  @AfterEach void closeProviders() {
    providers.forEach(DeltaFileStateStoreProvider::close);
  }

  private DeltaFileStateStoreProvider provider() {
    return provider(StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT,
        StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
  }

  private DeltaFileStateStoreProvider provider(int minDeltasForSnapshot, int minVersionsToRetain) {
    DeltaFileStateStoreProvider provider = new DeltaFileStateStoreProvider(
        new StateStoreSpec(ID, dir, minDeltasForSnapshot, minVersionsToRetain));
    providers.add(provider);
    return provider;
  }

  // ---- Update protocol ----------------------------------------------------------------------

  @Test void shouldBeEmptyWhenVersionIsZero() {
    DeltaFileStateStoreProvider provider = provider();
    StateStore<Object, Object[]> store = provider.getStore(0);

    assertEquals(ID, store.id());
    assertEquals(ID, provider.id());
    assertEquals(0, store.version());
    assertEquals(0, store.numKeys());
    assertEquals(Map.of(), contents(store));
    assertNull(store.get("a"));
    assertFalse(store.hasCommitted());
    assertEquals(Set.of(), files());
  }

  @Test void shouldWriteDeltaFileAndProduceNextVersionWhenCommitted() {
    DeltaFileStateStoreProvider provider = provider();
    StateStore<Object, Object[]> v0 = provider.getStore(0);
    v0.put("a", row(1L));
    v0.put("b", row(2L));
    v0.put("c", row(3L));
    v0.remove("b");
    assertArrayEquals(row(1L), v0.get("a"));
    assertNull(v0.get("b"));
    assertEquals(Set.of(), files());
    assertEquals(1, temporaryFiles(), "the delta is written as the store goes");

    assertEquals(1, v0.commit());
    assertTrue(v0.hasCommitted());
    assertEquals(Set.of("1.delta"), files());
    assertEquals(Map.of("a", List.of(1L), "c", List.of(3L)), contents(v0));

    StateStore<Object, Object[]> v1 = provider.getStore(1);
    assertEquals(1, v1.version());
    assertEquals(Map.of("a", List.of(1L), "c", List.of(3L)), contents(v1));
    v1.put("a", row(10L));
    v1.remove("c");
    v1.put("d", row(4L));
    assertEquals(2, v1.commit());
    assertEquals(Set.of("1.delta", "2.delta"), files());

    assertEquals(Map.of("a", List.of(10L), "d", List.of(4L)), contents(provider.getStore(2)));
    assertEquals(Map.of("a", List.of(1L), "c", List.of(3L)), contents(provider.getReadStore(1)));
  }

  @Test void shouldWriteEmptyDeltaWhenCommittingWithoutChanges() {
    provider().getStore(0).commit();

    assertEquals(Set.of("1.delta"), files());
    assertEquals(0, provider().getStore(1).numKeys());
  }

  @Test void shouldLeaveEverythingAsItWasWhenAborted() throws IOException {
    DeltaFileStateStoreProvider provider = provider();
    commit(provider, 0, Map.of("a", row(1L), "b", row(2L)));
    byte[] delta = Files.readAllBytes(dir.resolve("1.delta"));

    StateStore<Object, Object[]> aborted = provider.getStore(1);
    aborted.put("a", row(100L));
    aborted.remove("b");
    aborted.put("c", row(3L));
    aborted.abort();
    aborted.abort();

    assertFalse(aborted.hasCommitted());
    assertEquals(Set.of("1.delta"), files(), "no 2.delta");
    assertEquals(0, temporaryFiles());
    assertArrayEquals(delta, Files.readAllBytes(dir.resolve("1.delta")));
    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L)), contents(aborted));
    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L)), contents(provider.getStore(1)));
    StateStoreException e = assertThrows(StateStoreException.class, () -> provider().getStore(2));
    assertEquals("Cannot load version 2 of " + ID + ": delta file " + dir.resolve("2.delta")
        + " does not exist", e.getMessage());
  }

  @Test void shouldOverwriteVersionWhenRecommitted() {
    DeltaFileStateStoreProvider provider = provider();
    commit(provider, 0, Map.of("a", row(1L)));
    commit(provider, 1, Map.of("b", row(2L)));

    // The batch that produced version 2 runs again (after a crash before its commit log entry).
    StateStore<Object, Object[]> retry = provider.getStore(1);
    retry.put("b", row(20L));
    retry.put("c", row(30L));
    assertEquals(2, retry.commit());

    Map<Object, List<Object>> expected =
        Map.of("a", List.of(1L), "b", List.of(20L), "c", List.of(30L));
    assertEquals(expected, contents(provider.getStore(2)));
    assertEquals(Set.of("1.delta", "2.delta"), files());
    assertEquals(expected, contents(provider().getStore(2)), "a new provider reads the new file");
  }

  @Test void shouldRewriteSnapshotWhenRecommittingSnapshottedVersion() {
    DeltaFileStateStoreProvider provider = provider(1, 10);
    commit(provider, 0, Map.of("a", row(1L)));
    commit(provider, 1, Map.of("b", row(2L)));
    provider.doMaintenance();
    assertEquals(Set.of("1.delta", "2.delta", "2.snapshot"), files());

    StateStore<Object, Object[]> retry = provider.getStore(1);
    retry.put("b", row(20L));
    retry.commit();

    assertEquals(Set.of("1.delta", "2.delta", "2.snapshot"), files());
    assertEquals(Map.of("a", List.of(1L), "b", List.of(20L)), contents(provider().getStore(2)),
        "the snapshot, which wins over the delta, holds the new contents too");
  }

  @Test void shouldRebuildLaterVersionsOnReplacedVersionWhenRecommitting() {
    DeltaFileStateStoreProvider provider = provider();
    commit(provider, 0, Map.of("a", row(1L)));
    commit(provider, 1, Map.of("b", row(2L)));
    commit(provider, 2, Map.of("c", row(3L)));

    StateStore<Object, Object[]> retry = provider.getStore(1);
    retry.put("a", row(100L));
    retry.commit();

    // Version 3 is 3.delta replayed on the new version 2, in memory as on disk.
    Map<Object, List<Object>> expected = Map.of("a", List.of(100L), "c", List.of(3L));
    assertEquals(expected, contents(provider.getStore(3)));
    assertEquals(expected, contents(provider().getStore(3)));
  }

  @Test void shouldSeeOnlyItsVersionWhenReadStoreOutlivesCommit() {
    DeltaFileStateStoreProvider provider = provider();
    commit(provider, 0, Map.of("a", row(1L), "b", row(2L)));
    ReadStateStore<Object, Object[]> read = provider.getReadStore(1);

    StateStore<Object, Object[]> store = provider.getStore(1);
    store.put("a", row(10L));
    store.remove("b");
    store.put("c", row(3L));
    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L)), contents(read));
    store.commit();
    commit(provider, 2, Map.of("d", row(4L)));

    assertEquals(1, read.version());
    assertEquals(2, read.numKeys());
    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L)), contents(read));
    read.abort();
    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L)), contents(read));
  }

  @Test void shouldIterateOverEntriesAsTheyWereWhenUpdatingWhileIterating() {
    DeltaFileStateStoreProvider provider = provider();
    commit(provider, 0, Map.of("a", row(1L), "b", row(2L), "c", row(3L)));
    StateStore<Object, Object[]> store = provider.getStore(1);
    store.put("d", row(4L));

    Map<Object, List<Object>> seen = new HashMap<>();
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      seen.put(e.getKey(), List.of(e.getValue()));
      long v = (Long) e.getValue()[0];
      store.put(e.getKey(), row(v * 10));
      store.put("new" + v, row(v));
      store.remove("b");
    }

    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L), "c", List.of(3L), "d", List.of(4L)),
        seen);
    assertEquals(2, store.commit());
    Map<Object, List<Object>> committed = contents(provider().getStore(2));
    assertEquals(contents(provider.getStore(2)), committed);
    assertEquals(List.of(10L), committed.get("a"));
    assertFalse(committed.containsKey("b"));
    assertTrue(committed.containsKey("new4"));
  }

  @Test void shouldLeaveStoreUnchangedWhenValueCannotBeEncoded() {
    DeltaFileStateStoreProvider provider = provider();
    StateStore<Object, Object[]> store = provider.getStore(0);
    store.put("a", row(1L));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> store.put("b", row(1L, new StringBuilder("x"))));
    assertTrue(e.getMessage().startsWith("Cannot encode a java.lang.StringBuilder"),
        e.getMessage());
    assertNull(store.get("b"));
    store.commit();

    assertEquals(Map.of("a", List.of(1L)), contents(provider().getStore(1)));
  }

  // ---- Errors -------------------------------------------------------------------------------

  @Test void shouldThrowNamingStoreVersionAndFileWhenVersionCannotBeLoaded() {
    DeltaFileStateStoreProvider provider = provider();
    StateStoreException negative =
        assertThrows(StateStoreException.class, () -> provider.getStore(-1));
    assertEquals("Cannot load version -1 of " + ID + ": versions start at 0",
        negative.getMessage());

    StateStoreException ahead = assertThrows(StateStoreException.class, () -> provider.getStore(3));
    assertEquals("Cannot load version 3 of " + ID + ": delta file " + dir.resolve("1.delta")
        + " does not exist", ahead.getMessage());

    commit(provider, 0, Map.of("a", row(1L)));
    StateStoreException read =
        assertThrows(StateStoreException.class, () -> provider.getReadStore(3));
    assertEquals("Cannot load version 3 of " + ID + ": delta file " + dir.resolve("2.delta")
        + " does not exist", read.getMessage());
  }

  @Test void shouldThrowNamingStoreAndVersionWhenWritingAfterCommitOrAbort() {
    DeltaFileStateStoreProvider provider = provider();
    StateStore<Object, Object[]> committed = provider.getStore(0);
    committed.commit();
    committed.abort();
    StateStore<Object, Object[]> aborted = provider.getStore(1);
    aborted.abort();

    for (Runnable write : List.<Runnable>of(() -> committed.put("b", row(2L)),
        () -> committed.remove("a"), committed::commit)) {
      StateStoreException e = assertThrows(StateStoreException.class, write::run);
      assertEquals("Version 0 of " + ID + " was already committed", e.getMessage());
    }
    for (Runnable write : List.<Runnable>of(() -> aborted.put("b", row(2L)),
        () -> aborted.remove("a"), aborted::commit)) {
      StateStoreException e = assertThrows(StateStoreException.class, write::run);
      assertEquals("Version 1 of " + ID + " was already aborted", e.getMessage());
    }
    assertTrue(committed.hasCommitted());
    assertEquals(Set.of("1.delta"), files());
  }

  @Test void shouldThrowWhenOpeningWhileAnotherStoreIsOpenForUpdate() {
    DeltaFileStateStoreProvider provider = provider();
    StateStore<Object, Object[]> open = provider.getStore(0);
    open.put("a", row(1L));

    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(0));
    assertEquals("Version 0 of " + ID + " is already open for update; commit or abort it first",
        e.getMessage());
    assertEquals(0, provider.getReadStore(0).numKeys(), "read stores may open beside it");
    assertEquals(1, open.commit());
  }

  @Test void shouldThrowNamingFileAndAbortWhenCommitFails() throws IOException {
    DeltaFileStateStoreProvider provider = provider();
    StateStore<Object, Object[]> store = provider.getStore(0);
    store.put("a", row(1L));
    // The directory disappears under the open store, so the rename cannot happen.
    for (String name : names(dir)) {
      Files.delete(dir.resolve(name));
    }
    Files.delete(dir);

    StateStoreException e = assertThrows(StateStoreException.class, store::commit);
    assertEquals("Cannot commit version 1 of " + ID + " to " + dir.resolve("1.delta"),
        e.getMessage());
    assertFalse(store.hasCommitted());
    assertEquals("Version 0 of " + ID + " was already aborted",
        assertThrows(StateStoreException.class, () -> store.put("b", row(2L))).getMessage());
    assertEquals(0, provider.getStore(0).numKeys(), "the failed store is closed");
  }

  @Test void shouldThrowNamingFileAndAbortWhenWriteFails() throws IOException {
    Path file = dir.resolve("not-a-directory");
    Files.write(file, new byte[] {1});
    DeltaFileStateStoreProvider provider =
        new DeltaFileStateStoreProvider(new StateStoreSpec(ID, file, 1, 1));
    providers.add(provider);
    StateStore<Object, Object[]> store = provider.getStore(0);

    StateStoreException e =
        assertThrows(StateStoreException.class, () -> store.put("a", row(1L)));
    assertEquals("Cannot write " + file.resolve("1.delta") + " for version 1 of " + ID,
        e.getMessage());
    assertNotNull(e.getCause());
    assertNull(store.get("a"));
    assertEquals(0, store.numKeys());
    assertFalse(store.hasCommitted());
    assertEquals("Version 0 of " + ID + " was already aborted",
        assertThrows(StateStoreException.class, store::commit).getMessage());
  }

  @Test void shouldRejectNullValueWhenPutting() {
    StateStore<Object, Object[]> store = provider().getStore(0);

    NullPointerException e = assertThrows(NullPointerException.class, () -> store.put("a", null));
    assertEquals("value", e.getMessage());
    assertEquals(0, store.numKeys());
  }

  @Test void shouldThrowAndDeleteTemporaryFileWhenUsedAfterClose() {
    DeltaFileStateStoreProvider provider = provider();
    StateStore<Object, Object[]> open = provider.getStore(0);
    open.put("a", row(1L));

    provider.close();
    provider.close();

    assertEquals(Set.of(), files());
    assertEquals(0, temporaryFiles(), "the open store was aborted");
    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(0));
    assertEquals(ID + " is closed", e.getMessage());
    provider.doMaintenance();
  }

  // ---- Loading ------------------------------------------------------------------------------

  @Test void shouldReloadEveryVersionFromDeltasWhenRestarted() {
    DeltaFileStateStoreProvider provider = provider();
    List<Map<Object, List<Object>>> versions = commitFive(provider);
    provider.close();

    DeltaFileStateStoreProvider restarted = provider();
    for (int v = 5; v >= 0; v--) {
      StateStore<Object, Object[]> store = restarted.getStore(v);
      assertEquals(versions.get(v), contents(store), "version " + v);
      store.abort();
    }
    assertEquals(Set.of("1.delta", "2.delta", "3.delta", "4.delta", "5.delta"), files());
  }

  @Test void shouldReloadFromSnapshotAndLaterDeltasWhenRestarted() throws IOException {
    DeltaFileStateStoreProvider provider = provider(2, 100);
    List<Map<Object, List<Object>>> versions = commitFive(provider);
    assertEquals(Set.of("1.delta", "2.delta", "3.delta", "4.delta", "5.delta", "5.snapshot"),
        files());
    commit(provider, 5, Map.of("f", row(6L)));
    provider.close();
    // Without the earlier deltas, only the snapshot can give the versions from 5.
    for (int v = 1; v <= 5; v++) {
      Files.delete(dir.resolve(v + ".delta"));
    }

    DeltaFileStateStoreProvider restarted = provider(2, 100);
    Map<Object, List<Object>> six = new HashMap<>(versions.get(5));
    six.put("f", List.of(6L));
    assertEquals(six, contents(restarted.getReadStore(6)));
    assertEquals(versions.get(5), contents(restarted.getReadStore(5)));
    StateStoreException e =
        assertThrows(StateStoreException.class, () -> restarted.getReadStore(4));
    assertEquals("Cannot load version 4 of " + ID + ": delta file " + dir.resolve("1.delta")
        + " does not exist", e.getMessage());
  }

  @Test void shouldKeepTwoNewestVersionsWhenCaching() {
    DeltaFileStateStoreProvider provider = provider();
    commitFive(provider);
    DeltaFileStateStoreProvider.Metrics metrics = provider.metrics();
    assertEquals(2, metrics.loadedVersions());
    assertEquals(0, metrics.loadedMapCacheMissCount());
    assertEquals(4, metrics.loadedMapCacheHitCount(), "opening versions 1 to 4");

    provider.getReadStore(5);
    provider.getReadStore(4);
    assertEquals(6, provider.metrics().loadedMapCacheHitCount());
    assertEquals(0, provider.metrics().loadedMapCacheMissCount());
    provider.getReadStore(2);
    provider.getReadStore(2);
    assertEquals(2, provider.metrics().loadedMapCacheMissCount(),
        "a version older than every cached one is not cached");
    assertEquals(2, provider.metrics().loadedVersions());

    DeltaFileStateStoreProvider restarted = provider();
    restarted.getReadStore(3);
    restarted.getReadStore(5);
    restarted.getReadStore(3);
    restarted.getReadStore(5);
    assertEquals(2, restarted.metrics().loadedMapCacheMissCount());
    assertEquals(2, restarted.metrics().loadedMapCacheHitCount());
    restarted.getReadStore(4);
    restarted.getReadStore(3);
    assertEquals(4, restarted.metrics().loadedMapCacheMissCount(), "3 was dropped for 4");
  }

  @Test void shouldReportKeysAndEstimatedMemoryOfCachedVersions() {
    DeltaFileStateStoreProvider provider = provider();
    assertEquals(new DeltaFileStateStoreProvider.Metrics(0, 0, 0, 0, 0), provider.metrics());
    StateStore<Object, Object[]> store = provider.getStore(0);
    for (long i = 0; i < 1000; i++) {
      store.put(GroupKey.of("key", i), row(i, "value " + i));
    }
    store.commit();
    DeltaFileStateStoreProvider.Metrics one = provider.metrics();
    assertEquals(1000, one.numKeys());
    // A GroupKey of two values and a row of two values: about 300 bytes an entry.
    assertTrue(one.memoryUsedBytes() > 150_000 && one.memoryUsedBytes() < 600_000,
        "memoryUsedBytes " + one.memoryUsedBytes());

    StateStore<Object, Object[]> next = provider.getStore(1);
    next.put(GroupKey.of("key", -1L), row(-1L, "value"));
    next.commit();
    DeltaFileStateStoreProvider.Metrics two = provider.metrics();
    assertEquals(1001, two.numKeys());
    assertEquals(2, two.loadedVersions());
    assertTrue(two.memoryUsedBytes() - one.memoryUsedBytes() < 10_000,
        "versions share their base map: " + one + " then " + two);
  }

  @Test void shouldRoundTripKeysAndValuesOfEveryKindWhenReloaded() {
    String long1 = "é€𝄞x".repeat(20_000);
    String long2 = "ascii".repeat(15_000);
    Map<Object, Object[]> rows = new HashMap<>();
    rows.put(null, row(1L, null));
    rows.put(GroupKey.of("a", 1L, null), row(new HashSet<>(Set.of(1L, 2L, 3L)), 2L));
    rows.put(GroupKey.of(new BigDecimal("1.50"), true, (short) 3, (byte) 4),
        row(new BigDecimal("123456789012345678901234567890.123"), new BigDecimal("-0.001")));
    rows.put(GroupKey.EMPTY, row(Set.of(), 0L, 1.5d, 2.5f, 7));
    rows.put(long1, row(long2, new HashSet<>(Set.of("x", long1))));
    rows.put(42L, row(Integer.MIN_VALUE, Long.MAX_VALUE, Double.NaN, "", Boolean.FALSE));
    rows.put(GroupKey.of((Object) null), row(new HashSet<>(Arrays.asList(null, "n"))));

    DeltaFileStateStoreProvider provider = provider(1, 100);
    StateStore<Object, Object[]> store = provider.getStore(0);
    rows.forEach(store::put);
    store.commit();
    StateStore<Object, Object[]> second = provider.getStore(1);
    second.put(GroupKey.of("a", 1L, null), row(new HashSet<>(Set.of(1L, 2L, 3L, 4L)), 3L));
    second.remove(null);
    second.commit();
    rows.put(GroupKey.of("a", 1L, null), row(new HashSet<>(Set.of(1L, 2L, 3L, 4L)), 3L));
    rows.remove(null);
    Map<Object, List<Object>> expected = new HashMap<>();
    rows.forEach((k, v) -> expected.put(k, List.of(v)));

    assertEquals(expected, contents(provider().getStore(2)), "from deltas");
    provider.doMaintenance();
    assertEquals(Set.of("1.delta", "2.delta", "2.snapshot"), files());
    deleteQuietly(dir.resolve("1.delta"));
    deleteQuietly(dir.resolve("2.delta"));
    StateStore<Object, Object[]> fromSnapshot = provider().getStore(2);
    assertEquals(expected, contents(fromSnapshot), "from the snapshot");
    assertEquals(long2, fromSnapshot.get(long1)[0]);
  }

  // ---- Maintenance --------------------------------------------------------------------------

  @Test void shouldWriteSnapshotWhenMoreThanMinDeltasFollowTheLastOne() {
    DeltaFileStateStoreProvider provider = provider(3, 100);
    for (long v = 0; v < 3; v++) {
      commit(provider, v, Map.of("k" + v, row(v)));
    }
    provider.doMaintenance();
    assertEquals(Set.of("1.delta", "2.delta", "3.delta"), files(), "3 deltas are not more than 3");

    commit(provider, 3, Map.of("k3", row(3L)));
    provider.doMaintenance();
    assertEquals(Set.of("1.delta", "2.delta", "3.delta", "4.delta", "4.snapshot"), files());
    provider.doMaintenance();
    assertEquals(Set.of("1.delta", "2.delta", "3.delta", "4.delta", "4.snapshot"), files());

    for (long v = 4; v < 8; v++) {
      commit(provider, v, Map.of("k" + v, row(v)));
    }
    provider.doMaintenance();
    assertEquals(Set.of("1.delta", "2.delta", "3.delta", "4.delta", "4.snapshot", "5.delta",
        "6.delta", "7.delta", "8.delta", "8.snapshot"), files());
    Map<Object, List<Object>> expected = new HashMap<>();
    for (long v = 0; v < 8; v++) {
      expected.put("k" + v, List.of(v));
    }
    assertEquals(expected, contents(provider(3, 100).getStore(8)));
  }

  @Test void shouldNotWriteSnapshotWhenNewestVersionIsNotInMemory() {
    commitFive(provider());
    DeltaFileStateStoreProvider restarted = provider(1, 100);

    restarted.doMaintenance();
    assertFalse(files().contains("5.snapshot"));

    restarted.getReadStore(5);
    restarted.doMaintenance();
    assertTrue(files().contains("5.snapshot"));
  }

  @Test void shouldDeleteOnlyFilesThatRetainedVersionsDoNotNeed() {
    DeltaFileStateStoreProvider provider = provider(3, 2);
    List<Map<Object, List<Object>>> versions = new ArrayList<>();
    versions.add(Map.of());
    for (long v = 0; v < 4; v++) {
      versions.add(commitNext(provider, v, versions.get((int) v)));
    }
    provider.doMaintenance();
    // Version 4 - 2 needs every delta from 1: there is no snapshot before it.
    assertEquals(Set.of("1.delta", "2.delta", "3.delta", "4.delta", "4.snapshot"), files());

    for (long v = 4; v < 8; v++) {
      versions.add(commitNext(provider, v, versions.get((int) v)));
    }
    provider.doMaintenance();
    // Version 8 - 2 = 6 needs 4.snapshot, 5.delta and 6.delta.
    assertEquals(Set.of("4.delta", "4.snapshot", "5.delta", "6.delta", "7.delta", "8.delta",
        "8.snapshot"), files());

    for (long v = 8; v < 12; v++) {
      versions.add(commitNext(provider, v, versions.get((int) v)));
    }
    provider.doMaintenance();
    assertEquals(Set.of("8.delta", "8.snapshot", "9.delta", "10.delta", "11.delta", "12.delta",
        "12.snapshot"), files());

    for (int v = 10; v <= 12; v++) {
      assertEquals(versions.get(v), contents(provider(3, 2).getReadStore(v)), "version " + v);
    }
    for (int v = 1; v <= 7; v++) {
      long version = v;
      StateStoreException e = assertThrows(StateStoreException.class,
          () -> provider(3, 2).getReadStore(version), "version " + v);
      assertEquals("Cannot load version " + v + " of " + ID + ": delta file "
          + dir.resolve("1.delta") + " does not exist", e.getMessage());
    }
  }

  @Test void shouldDeleteNothingWhenNoSnapshotPrecedesTheOldestRetainedVersion() {
    DeltaFileStateStoreProvider provider = provider(100, 2);
    commitFive(provider);

    provider.doMaintenance();

    assertEquals(Set.of("1.delta", "2.delta", "3.delta", "4.delta", "5.delta"), files());
  }

  @Test void shouldDeleteLeftoverTemporaryFilesButNotThoseBeingWritten() throws IOException {
    DeltaFileStateStoreProvider provider = provider();
    commit(provider, 0, Map.of("a", row(1L)));
    Path leftover = dir.resolve(".2.delta.1234abcd.tmp");
    Files.write(leftover, new byte[] {1, 2, 3});
    StateStore<Object, Object[]> open = provider.getStore(1);
    open.put("b", row(2L));
    assertEquals(2, temporaryFiles());

    provider.doMaintenance();

    assertFalse(Files.exists(leftover));
    assertEquals(1, temporaryFiles(), "the open store's");
    assertEquals(2, open.commit());
    assertEquals(Set.of("1.delta", "2.delta"), files());
    assertEquals(0, temporaryFiles());
    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L)), contents(provider().getStore(2)));
  }

  @Test void shouldLogAndCarryOnWhenMaintenanceFails() throws IOException {
    Path file = dir.resolve("not-a-directory");
    Files.write(file, new byte[] {1});
    DeltaFileStateStoreProvider provider = new DeltaFileStateStoreProvider(
        new StateStoreSpec(ID, file, 1, 1));
    providers.add(provider);

    provider.doMaintenance();

    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(1));
    assertEquals("Cannot load version 1 of " + ID + ": cannot list " + file, e.getMessage());
  }

  // ---- Corrupt and missing files ------------------------------------------------------------

  @Test void shouldNameFileWhenSizeIsNegative() throws IOException {
    commitFive(provider());
    writeDelta(2, out -> out.writeInt(-5));
    assertLoadFails(3, "state file " + dir.resolve("2.delta")
        + " is corrupt: negative key size -5 in the record at byte 8");

    writeDelta(2, out -> {
      writeRecord(out, "k", row(1L));
      writeKey(out, 7);
      out.writeInt(-2);
    });
    assertLoadFails(3, "state file " + dir.resolve("2.delta")
        + " is corrupt: negative value size -2 in the record at byte " + recordEnd("k", row(1L)));
  }

  @Test void shouldNameFileWhenTagIsUnknown() throws IOException {
    commitFive(provider());
    writeDelta(2, out -> {
      out.writeInt(1);
      out.writeByte(99);
      out.writeInt(-1);
      out.writeInt(-1);
    });

    StateStoreException e = assertLoadFails(3, "state file " + dir.resolve("2.delta")
        + " is corrupt: cannot decode the key of the record at byte 8");
    assertTrue(e.getCause().getCause().getMessage().startsWith("Unknown state value tag 99"),
        e.getCause().getCause().getMessage());
  }

  @Test void shouldNameFileWhenLengthInsideValueExceedsValue() throws IOException {
    commitFive(provider());
    writeDelta(2, out -> {
      writeRecord(out, "k", row(1L));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream value = new DataOutputStream(bytes);
      value.writeByte(14);
      value.writeInt(Integer.MAX_VALUE);
      value.writeByte(0);
      writeKey(out, 7);
      out.writeInt(bytes.size());
      out.write(bytes.toByteArray());
      out.writeInt(-1);
    });

    StateStoreException e = assertLoadFails(3, "state file " + dir.resolve("2.delta")
        + " is corrupt: cannot decode the value of the record at byte " + recordEnd("k", row(1L)));
    assertEquals("Length 2147483647 exceeds the 1 bytes left in the value: the file is corrupt",
        e.getCause().getCause().getMessage());
  }

  @Test void shouldNameFileWhenTruncated() throws IOException {
    commitFive(provider());
    Path delta = dir.resolve("2.delta");
    byte[] whole = Files.readAllBytes(delta);

    Files.write(delta, Arrays.copyOf(whole, whole.length - 2));
    assertLoadFails(3, "state file " + delta + " is truncated: it ends at byte "
        + (whole.length - 2) + ", in the record at byte " + (whole.length - 4)
        + ", before its end marker");

    Files.write(delta, Arrays.copyOf(whole, whole.length - 4));
    assertLoadFails(3, "state file " + delta + " is truncated: it ends at byte "
        + (whole.length - 4) + ", before its end marker");

    Files.write(delta, Arrays.copyOf(whole, 14));
    assertLoadFails(3, "state file " + delta + " is truncated: the key of the record at byte 8"
        + " has " + keyBytes("b") + " bytes, but only 2 follow");

    Files.write(delta, Arrays.copyOf(whole, 5));
    assertLoadFails(3, "state file " + delta + " is truncated: it has 5 bytes, fewer than its"
        + " header");

    Files.write(delta, new byte[0]);
    assertLoadFails(3, "state file " + delta + " is truncated: it has 0 bytes, fewer than its"
        + " header");
  }

  @Test void shouldNameFileWhenValueIsNotRow() throws IOException {
    commitFive(provider());
    writeDelta(2, out -> {
      writeKey(out, "k");
      writeKey(out, 7L);
      out.writeInt(-1);
    });

    assertLoadFails(3, "state file " + dir.resolve("2.delta") + " is corrupt: the value of the"
        + " record at byte 8 is not a row");
  }

  @Test void shouldNameFileWhenBytesFollowEndMarker() throws IOException {
    commitFive(provider());
    Path delta = dir.resolve("2.delta");
    byte[] whole = Files.readAllBytes(delta);
    Files.write(delta, Arrays.copyOf(whole, whole.length + 3));

    assertLoadFails(3, "state file " + delta + " is corrupt: 3 bytes follow its end marker at"
        + " byte " + (whole.length - 4));
  }

  @Test void shouldNameFileWhenHeaderIsWrong() throws IOException {
    commitFive(provider());
    Path delta = dir.resolve("2.delta");
    byte[] whole = Files.readAllBytes(delta);

    byte[] otherVersion = whole.clone();
    otherVersion[7] = 9;
    Files.write(delta, otherVersion);
    assertLoadFails(3, "state file " + delta + " has state format version 9, but this Freshet"
        + " reads only version 1");

    byte[] otherMagic = whole.clone();
    otherMagic[0] = 'X';
    Files.write(delta, otherMagic);
    assertLoadFails(3, "state file " + delta + " is not a Freshet state file: it starts with"
        + " 0x58525354, not 0x46525354");
  }

  @Test void shouldNameFileWhenSnapshotHoldsDeletion() throws IOException {
    DeltaFileStateStoreProvider provider = provider(1, 100);
    commitFive(provider);
    provider.doMaintenance();
    Path snapshot = dir.resolve("5.snapshot");
    assertTrue(Files.exists(snapshot));
    writeFile(snapshot, out -> {
      writeKey(out, 7);
      out.writeInt(-1);
      out.writeInt(-1);
    });

    assertLoadFails(5, "state file " + snapshot + " is corrupt: the record at byte 8 deletes a"
        + " key, which a snapshot cannot hold");
  }

  @Test void shouldNameFileWhenDeltaIsMissing() throws IOException {
    commitFive(provider());
    Files.delete(dir.resolve("3.delta"));

    assertLoadFails(5, "delta file " + dir.resolve("3.delta") + " does not exist");
    assertEquals(Map.of("a", List.of(1L), "b", List.of(2L)), contents(provider().getStore(2)));
  }

  // ---- Model test ---------------------------------------------------------------------------

  /**
   * Model test: random put, remove, commit, abort, retry of the last batch, restart in a new
   * provider, maintenance and reads of older versions, against a {@link TreeMap} per committed
   * version (keyed by the index of the key in a pool, since keys of several types do not sort).
   */
  @Test void shouldMatchTreeMapModelWhenOperatingRandomly() throws IOException {
    long rootSeed = Long.getLong("freshet.test.seed", System.nanoTime());
    System.out.println("DeltaFileStateStoreProviderTest model rootSeed=" + rootSeed
        + " (rerun with -Dfreshet.test.seed=" + rootSeed + ")");
    Random seeds = new Random(rootSeed);
    for (int run = 0; run < 10; run++) {
      long seed = seeds.nextLong();
      Path runDir = dir.resolve("run" + run);
      new ModelRun(runDir, seed, "rootSeed=" + rootSeed + " (set -Dfreshet.test.seed), seed="
          + seed).run(200);
    }
  }

  /** One run of the model test. */
  private final class ModelRun {
    private final Path runDir;
    private final Random random;
    private final String where;
    private final Object[] keys;
    private final int minDeltas;
    private final int retain;
    /** Committed versions; the highest is the newest on disk. */
    private final TreeMap<Long, TreeMap<Integer, Object[]>> history = new TreeMap<>();
    private final List<String> log = new ArrayList<>();
    private DeltaFileStateStoreProvider provider;
    private StateStore<Object, Object[]> store;
    private TreeMap<Integer, Object[]> working = new TreeMap<>();

    ModelRun(Path runDir, long seed, String where) {
      this.runDir = runDir;
      this.random = new Random(seed);
      this.where = where;
      this.minDeltas = 1 + random.nextInt(4);
      this.retain = 1 + random.nextInt(5);
      List<Object> pool = new ArrayList<>();
      pool.add(null);
      pool.add(GroupKey.EMPTY);
      for (int i = random.nextInt(14); i >= 0; i--) {
        pool.add(random.nextBoolean() ? (Object) (long) i : random.nextBoolean() ? "k" + i
            : GroupKey.of("g", (long) i, random.nextBoolean() ? null : (Object) i));
      }
      this.keys = pool.toArray();
      history.put(0L, new TreeMap<>());
    }

    private DeltaFileStateStoreProvider newProvider() {
      DeltaFileStateStoreProvider p = new DeltaFileStateStoreProvider(
          new StateStoreSpec(ID, runDir, minDeltas, retain));
      providers.add(p);
      return p;
    }

    void run(int steps) throws IOException {
      provider = newProvider();
      store = provider.getStore(0);
      for (int step = 0; step < steps; step++) {
        String at = where + ", minDeltas=" + minDeltas + ", retain=" + retain + ", step=" + step
            + ", ops=" + log.subList(Math.max(0, log.size() - 10), log.size());
        int keyIndex = random.nextInt(keys.length);
        Object key = keys[keyIndex];
        int op = random.nextInt(100);
        if (op < 35) {
          Object[] value = randomRow();
          log.add("put(" + key + ")");
          store.put(key, value);
          working.put(keyIndex, value);
        } else if (op < 55) {
          log.add("remove(" + key + ")");
          store.remove(key);
          working.remove(keyIndex);
        } else if (op < 70) {
          log.add("commit@" + store.version());
          long next = store.commit();
          assertEquals(store.version() + 1, next, at);
          assertTrue(store.hasCommitted(), at);
          assertModel(store, working, at + " after commit");
          history.tailMap(next, true).clear();
          history.put(next, working);
          working = new TreeMap<>(working);
          store = provider.getStore(next);
        } else if (op < 77) {
          log.add("abort@" + store.version());
          store.abort();
          reopen(store.version());
        } else if (op < 82) {
          log.add("retryLastBatch");
          store.abort();
          reopen(Math.max(0, history.lastKey() - 1));
        } else if (op < 87) {
          log.add("restart@" + store.version());
          provider.close();
          provider = newProvider();
          reopen(store.version());
        } else if (op < 94) {
          log.add("maintenance");
          provider.doMaintenance();
          assertNoTemporaryFileButTheStores(at);
        } else {
          long latest = history.lastKey();
          long v = Math.max(0, latest - retain - 2) + random.nextInt((int) Math.min(latest,
              retain + 2) + 1);
          log.add("read@" + v);
          readOldVersion(v, latest, at);
        }
        assertModel(store, working, at);
      }
      store.abort();
      provider.close();
      // Every retained version loads in a new provider.
      DeltaFileStateStoreProvider last = newProvider();
      long latest = history.lastKey();
      for (long v = Math.max(0, latest - retain); v <= latest; v++) {
        assertModel(last.getReadStore(v), history.get(v), where + ", final read of version " + v);
      }
    }

    private void reopen(long version) {
      working = new TreeMap<>(history.get(version));
      store = provider.getStore(version);
    }

    private void readOldVersion(long v, long latest, String at) {
      if (v >= latest - retain) {
        assertModel(provider.getReadStore(v), history.get(v), at + ", read of version " + v);
        return;
      }
      // Maintenance may have deleted what an older version needs; if it loads, it is right.
      try {
        assertModel(provider.getReadStore(v), history.get(v), at + ", read of version " + v);
      } catch (StateStoreException e) {
        assertTrue(e.getMessage().startsWith("Cannot load version " + v + " of " + ID
            + ": delta file ") && e.getMessage().endsWith(" does not exist"), at + ": " + e);
      }
    }

    private void assertNoTemporaryFileButTheStores(String at) {
      long temps = names(runDir).stream().filter(name -> name.endsWith(".tmp")).count();
      assertTrue(temps <= 1, at + ": " + temps + " temporary files");
    }

    private Object[] randomRow() {
      switch (random.nextInt(5)) {
      case 0:
        return row((long) random.nextInt(5), random.nextDouble());
      case 1: {
        Set<Object> set = new HashSet<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          set.add((long) random.nextInt(10));
        }
        return row(set, (long) set.size());
      }
      case 2:
        return row(BigDecimal.valueOf(random.nextInt(1000), random.nextInt(4)), "s"
            + random.nextInt(3));
      case 3:
        return row(random.nextInt(50) == 0 ? "x".repeat(70_000) : "short", null);
      default:
        return row();
      }
    }

    private void assertModel(ReadStateStore<Object, Object[]> actual,
        TreeMap<Integer, Object[]> model, String at) {
      Map<Object, List<Object>> expected = new HashMap<>();
      model.forEach((k, v) -> expected.put(keys[k], Arrays.asList(v)));
      assertEquals(expected.size(), actual.numKeys(), at);
      assertEquals(expected, contents(actual), at);
      for (int i = 0; i < keys.length; i++) {
        Object[] value = actual.get(keys[i]);
        assertEquals(expected.get(keys[i]), value == null ? null : Arrays.asList(value),
            "get(" + keys[i] + "); " + at);
      }
    }
  }

  // ---- Helpers ------------------------------------------------------------------------------

  private static Object[] row(Object... values) {
    return values;
  }

  /** Names of the store's files, without the temporary ones. */
  private Set<String> files() {
    return names(dir).stream().filter(name -> !name.startsWith("."))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private long temporaryFiles() {
    return names(dir).stream().filter(name -> name.startsWith(".") && name.endsWith(".tmp"))
        .count();
  }

  private static List<String> names(Path directory) {
    try (Stream<Path> files = Files.exists(directory) ? Files.list(directory) : Stream.empty()) {
      return files.map(f -> f.getFileName().toString())
          .filter(name -> !name.startsWith("run") && !name.equals("not-a-directory"))
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Contents with rows as lists, which compare by value; fails if a key repeats. */
  private static Map<Object, List<Object>> contents(ReadStateStore<Object, Object[]> store) {
    Map<Object, List<Object>> map = new HashMap<>();
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      assertFalse(map.containsKey(e.getKey()), "entries() repeats key " + e.getKey());
      map.put(e.getKey(), Arrays.asList(e.getValue()));
    }
    return map;
  }

  private static void commit(DeltaFileStateStoreProvider provider, long version,
      Map<Object, Object[]> puts) {
    StateStore<Object, Object[]> store = provider.getStore(version);
    puts.forEach(store::put);
    assertEquals(version + 1, store.commit());
  }

  /** Commits a version that changes, adds and removes keys; returns its contents. */
  private static Map<Object, List<Object>> commitNext(DeltaFileStateStoreProvider provider,
      long version, Map<Object, List<Object>> previous) {
    StateStore<Object, Object[]> store = provider.getStore(version);
    store.put("k" + version, row(version));
    store.put("counter", row(version * 10));
    store.remove("k" + (version - 2));
    assertEquals(version + 1, store.commit());
    Map<Object, List<Object>> next = new HashMap<>(previous);
    next.put("k" + version, List.of(version));
    next.put("counter", List.of(version * 10));
    next.remove("k" + (version - 2));
    assertEquals(next, contents(store));
    return next;
  }

  /** Versions 1 to 5: a=1, b=2, c=3, then a removed, then e=5; index 0 is version 0. */
  private static List<Map<Object, List<Object>>> commitFive(DeltaFileStateStoreProvider provider) {
    commit(provider, 0, Map.of("a", row(1L)));
    commit(provider, 1, Map.of("b", row(2L)));
    commit(provider, 2, Map.of("c", row(3L)));
    StateStore<Object, Object[]> store = provider.getStore(3);
    store.remove("a");
    store.commit();
    commit(provider, 4, Map.of("e", row(5L)));
    provider.doMaintenance();
    List<Map<Object, List<Object>>> versions = new ArrayList<>();
    versions.add(Map.of());
    versions.add(Map.of("a", List.of(1L)));
    versions.add(Map.of("a", List.of(1L), "b", List.of(2L)));
    versions.add(Map.of("a", List.of(1L), "b", List.of(2L), "c", List.of(3L)));
    versions.add(Map.of("b", List.of(2L), "c", List.of(3L)));
    versions.add(Map.of("b", List.of(2L), "c", List.of(3L), "e", List.of(5L)));
    return versions;
  }

  private StateStoreException assertLoadFails(long version, String why) {
    StateStoreException e =
        assertThrows(StateStoreException.class, () -> provider().getStore(version));
    assertEquals("Cannot load version " + version + " of " + ID + ": " + why, e.getMessage());
    return e;
  }

  /** Something that writes the records of a file. */
  private interface Records {
    void write(DataOutputStream out) throws IOException;
  }

  private void writeDelta(long version, Records records) throws IOException {
    writeFile(dir.resolve(version + ".delta"), records);
  }

  private static void writeFile(Path file, Records records) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(0x46525354);
    out.writeInt(StateCodec.FORMAT_VERSION);
    records.write(out);
    Files.write(file, bytes.toByteArray());
  }

  private static void writeRecord(DataOutputStream out, Object key, Object[] value)
      throws IOException {
    writeKey(out, key);
    byte[] v = encode(value);
    out.writeInt(v.length);
    out.write(v);
  }

  private static void writeKey(DataOutputStream out, Object key) throws IOException {
    byte[] k = encode(key);
    out.writeInt(k.length);
    out.write(k);
  }

  /** Byte offset after a header and one record. */
  private static long recordEnd(Object key, Object[] value) throws IOException {
    return 8 + 4 + encode(key).length + 4 + encode(value).length;
  }

  private static int keyBytes(Object key) throws IOException {
    return encode(key).length;
  }

  private static byte[] encode(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StateCodec.write(new DataOutputStream(bytes), value);
    return bytes.toByteArray();
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}

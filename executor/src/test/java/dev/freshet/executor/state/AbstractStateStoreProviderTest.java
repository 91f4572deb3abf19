package dev.freshet.executor.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contract every {@link StateStoreProvider} fulfils: the version protocol of SEMANTICS.md §1 and
 * §10.2 and the store lifecycle of {@link StateStore}. One subclass per provider supplies
 * {@link #newProvider} and declares what the provider cannot do ({@link #persistsAcrossInstances()},
 * {@link #olderVersionsRetained()}); the tests that need it are then skipped, saying why.
 *
 * <p>A provider that persists is re-created on the same {@link StateStoreSpec} by {@link #reopen}
 * and must see the last committed version.
 */
public abstract class AbstractStateStoreProviderTest {
  protected static final StateStoreId ID = new StateStoreId("query-1", 3, 7);

  /** Version 1: a, b, c, d; version 2 changes a, removes b, adds e and leaves c and d. */
  private static final Map<String, Integer> V1 = Map.of("a", 1, "b", 2, "c", 3, "d", 4);
  private static final Map<String, Integer> V2 = Map.of("a", 10, "c", 3, "d", 4, "e", 5);

  @TempDir protected Path checkpoint;

  private final List<StateStoreProvider<?, ?>> opened = new ArrayList<>();

  /** Creates a provider for {@code spec}; for a provider that persists, on its files. */
  protected abstract <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec);

  /**
   * Whether a provider re-created on the same spec sees what an earlier one committed. Those that
   * do not skip the reopen tests.
   */
  protected boolean persistsAcrossInstances() {
    return true;
  }

  /**
   * How many versions before the latest committed one can be opened, to re-run a batch: by
   * default {@link Integer#MAX_VALUE}, which means as many as {@code minVersionsToRetain} says.
   * Tests that re-run a batch further back are skipped; with 0, all tests that re-run batches.
   */
  protected int olderVersionsRetained() {
    return Integer.MAX_VALUE;
  }

  /**
   * Whether the provider can {@link StateStoreProvider#pin pin} a version and read its changes;
   * those that cannot skip the pin tests and must say so with an
   * {@link UnsupportedOperationException}.
   */
  protected boolean pinsVersions() {
    return true;
  }

  /**
   * How many versions back from the latest committed one {@link StateStoreProvider#readChanges}
   * reaches: by default {@link Integer#MAX_VALUE}, which means as many as
   * {@code minVersionsToRetain} says. Tests that read changes further back read only the last
   * ones.
   */
  protected int changesRetained() {
    return Integer.MAX_VALUE;
  }

  /** The spec of the store under test, keeping {@code minVersionsToRetain} versions. */
  protected StateStoreSpec spec(int minVersionsToRetain) {
    return new StateStoreSpec(ID, checkpoint.resolve("state/3/7"),
        StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, minVersionsToRetain);
  }

  /** A new provider for {@link #spec(int)} with Spark's default retention, closed after the test. */
  protected <K, V> StateStoreProvider<K, V> provider() {
    return provider(spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN));
  }

  /** A new provider for {@code spec}, closed after the test. */
  protected <K, V> StateStoreProvider<K, V> provider(StateStoreSpec spec) {
    StateStoreProvider<K, V> provider = newProvider(spec);
    opened.add(provider);
    return provider;
  }

  /** Closes {@code provider} and creates another on the same spec, as a restarted query does. */
  protected <K, V> StateStoreProvider<K, V> reopen(StateStoreProvider<K, V> provider,
      StateStoreSpec spec) {
    provider.close();
    return provider(spec);
  }

  @AfterEach void closeProviders() {
    for (StateStoreProvider<?, ?> p : opened) {
      p.close();
    }
  }

  private void assumePersists() {
    assumeTrue(persistsAcrossInstances(),
        "this provider keeps state in memory only: a new instance starts empty");
  }

  private void assumeOlderVersions(int needed) {
    assumeTrue(olderVersionsRetained() >= needed, olderVersionsRetained() == 0
        ? "this provider holds only the latest version: it cannot re-run an older batch"
        : "this provider holds only " + olderVersionsRetained() + " version(s) before the latest;"
            + " the test re-runs a batch " + needed + " versions back");
  }

  @Test void shouldBeEmptyWhenVersionIsZero() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> store = provider.getStore(0);

    assertEquals(ID, store.id());
    assertEquals(ID, provider.id());
    assertEquals(0, store.version());
    assertEquals(0, store.numKeys());
    assertEquals(Map.of(), toMap(store.entries()));
    assertNull(store.get("a"));
    assertFalse(store.hasCommitted());
    assertEquals(0, provider.getReadStore(0).numKeys());
  }

  @Test void shouldProduceNextVersionWhenCommitted() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.put("b", 2);
    v0.put("c", 3);
    v0.remove("b");
    assertEquals(1, v0.get("a"));
    assertNull(v0.get("b"));

    assertEquals(1, v0.commit());
    assertTrue(v0.hasCommitted());
    assertEquals(2, v0.numKeys());
    assertEquals(1, v0.get("a"));

    StateStore<String, Integer> v1 = provider.getStore(1);
    assertEquals(1, v1.version());
    assertEquals(Map.of("a", 1, "c", 3), toMap(v1.entries()));
    assertEquals(2, v1.numKeys());
    v1.put("a", 10);
    v1.remove("c");
    v1.put("d", 4);
    assertEquals(2, v1.commit());

    StateStore<String, Integer> v2 = provider.getStore(2);
    assertEquals(Map.of("a", 10, "d", 4), toMap(v2.entries()));
    assertEquals(10, v2.get("a"));
    assertNull(v2.get("c"));
  }

  @Test void shouldProduceNextVersionWhenCommittingWithoutChanges() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.commit();
    StateStore<String, Integer> v1 = provider.getStore(1);

    assertEquals(2, v1.commit());
    assertEquals(Map.of("a", 1), toMap(provider.getStore(2).entries()));
  }

  @Test void shouldKeepCommittedVersionWhenAborted() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.put("b", 2);
    v0.commit();

    StateStore<String, Integer> aborted = provider.getStore(1);
    aborted.put("a", 100);
    aborted.remove("b");
    aborted.put("c", 3);
    aborted.abort();
    assertFalse(aborted.hasCommitted());

    StateStore<String, Integer> reopened = provider.getStore(1);
    assertEquals(1, reopened.version());
    assertEquals(Map.of("a", 1, "b", 2), toMap(reopened.entries()));
    assertEquals(2, reopened.numKeys());
    reopened.put("c", 3);
    assertEquals(2, reopened.commit());
    assertEquals(Map.of("a", 1, "b", 2, "c", 3), toMap(provider.getStore(2).entries()));
  }

  @Test void shouldKeepVersionZeroWhenFirstStoreIsAborted() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.abort();

    StateStore<String, Integer> reopened = provider.getStore(0);
    assertEquals(0, reopened.numKeys());
    assertNull(reopened.get("a"));
    reopened.abort();
    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(1));
    assertTrue(e.getMessage().startsWith("Cannot load version 1 of " + ID + ": "), e.getMessage());
  }

  @Test void shouldBeHarmlessWhenAbortingAfterCommitOrTwice() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.commit();
    v0.abort();
    v0.abort();

    assertTrue(v0.hasCommitted());
    StateStore<String, Integer> v1 = provider.getStore(1);
    assertEquals(1, v1.get("a"));
    v1.abort();
    v1.abort();
    assertEquals(1, provider.getStore(1).get("a"));
  }

  @Test void shouldThrowNamingStoreAndVersionWhenWritingAfterCommit() {
    StateStoreProvider<String, Integer> provider = provider();
    provider.getStore(0).commit();
    StateStore<String, Integer> v1 = provider.getStore(1);
    v1.put("a", 1);
    v1.commit();

    for (Runnable write : List.<Runnable>of(
        () -> v1.put("b", 2), () -> v1.remove("a"), v1::commit)) {
      StateStoreException e = assertThrows(StateStoreException.class, write::run);
      assertEquals("Version 1 of " + ID + " was already committed", e.getMessage());
    }
    assertEquals(Map.of("a", 1), toMap(provider.getStore(2).entries()));
  }

  @Test void shouldThrowNamingStoreAndVersionWhenWritingAfterAbort() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.abort();

    for (Runnable write : List.<Runnable>of(
        () -> v0.put("b", 2), () -> v0.remove("a"), v0::commit)) {
      StateStoreException e = assertThrows(StateStoreException.class, write::run);
      assertEquals("Version 0 of " + ID + " was already aborted", e.getMessage());
    }
    assertEquals(0, provider.getStore(0).numKeys());
  }

  @Test void shouldThrowNamingVersionWhenOpeningNegativeOrUncommittedVersion() {
    StateStoreProvider<String, Integer> provider = provider();
    for (long version : new long[] {-1, 1}) {
      StateStoreException write =
          assertThrows(StateStoreException.class, () -> provider.getStore(version));
      assertTrue(write.getMessage().startsWith("Cannot load version " + version + " of " + ID
          + ": "), write.getMessage());
      StateStoreException read =
          assertThrows(StateStoreException.class, () -> provider.getReadStore(version));
      assertTrue(read.getMessage().startsWith("Cannot load version " + version + " of " + ID
          + ": "), read.getMessage());
    }

    provider.getStore(0).commit();
    provider.getStore(1).commit();
    StateStoreException ahead = assertThrows(StateStoreException.class, () -> provider.getStore(3));
    assertTrue(ahead.getMessage().startsWith("Cannot load version 3 of " + ID + ": "),
        ahead.getMessage());
    assertEquals(2, provider.getStore(2).version());
  }

  @Test void shouldThrowNamingVersionWhenOpeningWhileAnotherStoreIsOpen() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> open = provider.getStore(0);
    open.put("a", 1);

    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(0));
    assertEquals("Version 0 of " + ID + " is already open for update; commit or abort it first",
        e.getMessage());
    assertEquals(1, open.commit());
    assertEquals(1, provider.getStore(1).get("a"));
  }

  @Test void shouldRejectNullValueWhenPutting() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> store = provider.getStore(0);

    NullPointerException e = assertThrows(NullPointerException.class, () -> store.put("a", null));
    assertEquals("value", e.getMessage());
    assertEquals(0, store.numKeys());
  }

  @Test void shouldReflectUncommittedChangesWhenCountingAndIterating() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.put("b", 2);
    v0.commit();

    StateStore<String, Integer> store = provider.getStore(1);
    assertEquals(2, store.numKeys());
    store.put("c", 3);              // new key
    assertState(store, Map.of("a", 1, "b", 2, "c", 3));
    store.put("a", 11);             // overwrite a committed key
    assertState(store, Map.of("a", 11, "b", 2, "c", 3));
    store.put("c", 33);             // overwrite an uncommitted key
    assertState(store, Map.of("a", 11, "b", 2, "c", 33));
    store.remove("b");              // remove a committed key
    assertState(store, Map.of("a", 11, "c", 33));
    store.remove("b");              // remove it again
    store.remove("zzz");            // remove a key that never existed
    assertState(store, Map.of("a", 11, "c", 33));
    store.remove("c");              // remove an uncommitted key
    assertState(store, Map.of("a", 11));
    store.put("b", 22);             // put back a removed committed key
    assertState(store, Map.of("a", 11, "b", 22));
    store.remove("a");
    store.remove("b");
    assertState(store, Map.of());

    store.abort();
    assertState(provider.getStore(1), Map.of("a", 1, "b", 2));
  }

  @Test void shouldAllowWritesWhileIteratingWhenStoreIsOpen() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> store = provider.getStore(0);
    for (int i = 0; i < 100; i++) {
      store.put("k" + i, i);
    }

    // The operator evicts this way: it iterates, and removes what it iterated over.
    for (Map.Entry<String, Integer> e : store.entries()) {
      if (e.getValue() % 2 == 0) {
        store.remove(e.getKey());
      }
    }
    assertEquals(50, store.numKeys());
    store.commit();
    assertEquals(50, toMap(provider.getStore(1).entries()).size());
  }

  @Test void shouldTreatNullAsKeyWhenPuttingAndRemoving() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put(null, 1);
    assertEquals(1, v0.get(null));
    assertEquals(1, v0.numKeys());
    v0.commit();

    StateStore<String, Integer> v1 = provider.getStore(1);
    assertEquals(1, v1.get(null));
    v1.remove(null);
    assertNull(v1.get(null));
    assertEquals(0, v1.numKeys());
    v1.commit();
    assertEquals(0, provider.getStore(2).numKeys());
  }

  @Test void shouldBeIdempotentWhenClosed() {
    StateStoreProvider<String, Integer> provider = provider();
    provider.getStore(0).commit();

    provider.close();
    provider.close();
  }

  @Test void shouldReadCommittedVersionWhenReadStoreIsOpenBesideWritableStore() {
    StateStoreProvider<String, Integer> provider = provider();
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.put("b", 2);
    v0.commit();

    // Spark's Restore reads version N while Save writes it: the reader must not see the writes.
    StateStore<String, Integer> writer = provider.getStore(1);
    ReadStateStore<String, Integer> reader = provider.getReadStore(1);
    writer.put("a", 10);
    writer.remove("b");
    writer.put("c", 3);

    assertEquals(ID, reader.id());
    assertEquals(1, reader.version());
    assertEquals(1, reader.get("a"));
    assertEquals(2, reader.get("b"));
    assertNull(reader.get("c"));
    assertEquals(2, reader.numKeys());
    assertEquals(Map.of("a", 1, "b", 2), toMap(reader.entries()));
    reader.abort();
    reader.abort();
    assertEquals(Map.of("a", 10, "c", 3), toMap(writer.entries()));
    writer.commit();
    assertEquals(Map.of("a", 10, "c", 3), toMap(provider.getReadStore(2).entries()));
  }

  @Test void shouldRoundTripStateValuesWhenCommittedAndReopened() {
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<Object, Object[]> provider = provider(spec);
    Map<Object, Object[]> expected = new HashMap<>();
    expected.put(GroupKey.of("eu", 3, null), new Object[] {7L, new BigDecimal("123.4500"), null});
    expected.put(GroupKey.of(), new Object[] {1L, 2.5, Boolean.TRUE});
    expected.put(GroupKey.of(null, null), new Object[] {new HashSet<>(Set.of("x", "y")), 0L});
    expected.put(42L, new Object[] {new HashSet<>(Arrays.asList(1L, null, 3L)), -1, "s"});
    expected.put(new BigDecimal("1.0"), new Object[] {"scale 1"});
    expected.put(new BigDecimal("1.00"), new Object[] {"scale 2"});
    expected.put("k", new Object[] {"x".repeat(40_000), (short) 3, (byte) 4, 1.5f});
    expected.put(null, new Object[0]);
    StateStore<Object, Object[]> v0 = provider.getStore(0);
    for (Map.Entry<Object, Object[]> e : expected.entrySet()) {
      v0.put(e.getKey(), e.getValue());
    }
    assertStateRows(expected, v0);
    v0.commit();
    assertStateRows(expected, provider.getReadStore(1));

    if (persistsAcrossInstances()) {
      provider = reopen(provider, spec);
      assertStateRows(expected, provider.getReadStore(1));
      assertStateRows(expected, provider.getStore(1));
    }
  }

  @Test void shouldSeeLastCommittedVersionWhenReopened() {
    assumePersists();
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.put("b", 2);
    v0.commit();
    StateStore<String, Integer> v1 = provider.getStore(1);
    v1.remove("a");
    v1.put("c", 3);
    v1.commit();

    StateStoreProvider<String, Integer> reopened = reopen(provider, spec);

    StateStore<String, Integer> v2 = reopened.getStore(2);
    assertState(v2, Map.of("b", 2, "c", 3));
    assertEquals(Map.of("b", 2, "c", 3), toMap(reopened.getReadStore(2).entries()));
    StateStoreException ahead =
        assertThrows(StateStoreException.class, () -> reopened.getReadStore(3));
    assertTrue(ahead.getMessage().startsWith("Cannot load version 3 of " + ID), ahead.getMessage());
    v2.put("d", 4);
    assertEquals(3, v2.commit());
    assertState(reopen(reopened, spec).getStore(3), Map.of("b", 2, "c", 3, "d", 4));
  }

  @Test void shouldDropUncommittedChangesWhenClosedWithStoreOpen() {
    assumePersists();
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.commit();
    StateStore<String, Integer> v1 = provider.getStore(1);
    for (int i = 0; i < 2_000; i++) {
      v1.put("k" + i, i);
    }
    v1.remove("a");

    provider = reopen(provider, spec);

    assertState(provider.getStore(1), Map.of("a", 1));
    assertThrows(StateStoreException.class, () -> v1.put("x", 1));
  }

  /** Commits {@link #V1} and {@link #V2}. */
  private static void commitV1AndV2(StateStoreProvider<String, Integer> provider) {
    StateStore<String, Integer> v0 = provider.getStore(0);
    V1.forEach(v0::put);
    assertEquals(1, v0.commit());
    StateStore<String, Integer> v1 = provider.getStore(1);
    v1.put("a", 10);
    v1.remove("b");
    v1.put("e", 5);
    v1.remove("never");
    assertEquals(2, v1.commit());
  }

  /**
   * Exactly-once restart: batch 1 committed state version 2, then died before the checkpoint
   * recorded the batch, so the batch re-runs from version 1 and commits version 2 again.
   */
  @Test void shouldReplaceLatestVersionWhenPreviousBatchIsRerun() {
    assumeOlderVersions(1);
    StateStoreProvider<String, Integer> provider = provider();
    commitV1AndV2(provider);

    StateStore<String, Integer> rerun = provider.getStore(1);
    assertEquals(1, rerun.version());
    assertState(rerun, V1);
    assertEquals(V1, toMap(provider.getReadStore(1).entries()));
    rerun.put("a", 11);
    rerun.remove("c");
    rerun.put("f", 6);
    assertEquals(2, rerun.commit());

    Map<String, Integer> rerunV2 = Map.of("a", 11, "b", 2, "d", 4, "f", 6);
    assertState(provider.getReadStore(2), rerunV2);
    assertStateAndAbort(provider.getStore(1), V1);
    StateStore<String, Integer> v2 = provider.getStore(2);
    assertState(v2, rerunV2);
    v2.put("g", 7);
    assertEquals(3, v2.commit());
    assertStateAndAbort(provider.getStore(2), rerunV2);
  }

  @Test void shouldReplaceLatestVersionWhenPreviousBatchIsRerunAfterReopen() {
    assumeOlderVersions(1);
    assumePersists();
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    commitV1AndV2(provider);

    provider = reopen(provider, spec);
    assertState(provider.getReadStore(1), V1);
    assertState(provider.getReadStore(2), V2);
    StateStore<String, Integer> rerun = provider.getStore(1);
    assertState(rerun, V1);
    rerun.remove("a");
    rerun.put("b", 20);
    assertEquals(2, rerun.commit());

    provider = reopen(provider, spec);
    Map<String, Integer> rerunV2 = Map.of("b", 20, "c", 3, "d", 4);
    assertStateAndAbort(provider.getStore(2), rerunV2);
    assertState(provider.getReadStore(1), V1);
    assertStateAndAbort(provider.getStore(1), V1);
  }

  @Test void shouldKeepLatestVersionWhenRerunOfPreviousBatchIsAborted() {
    assumeOlderVersions(1);
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    commitV1AndV2(provider);

    StateStore<String, Integer> rerun = provider.getStore(1);
    rerun.put("a", 100);
    rerun.remove("d");
    rerun.abort();
    assertFalse(rerun.hasCommitted());

    assertState(provider.getReadStore(2), V2);
    StateStore<String, Integer> again = provider.getStore(1);
    assertState(again, V1);
    again.put("z", 26);
    again.abort();
    assertStateAndAbort(provider.getStore(2), V2);
    if (persistsAcrossInstances()) {
      provider = reopen(provider, spec);
      assertStateAndAbort(provider.getStore(2), V2);
    }
    assertStateAndAbort(provider.getStore(1), V1);
  }

  /** Spark's Restore reads version N while Save re-runs it, whichever opens first. */
  @Test void shouldReadPreviousVersionWhenStoreRerunningItIsOpen() {
    assumeOlderVersions(1);
    StateStoreProvider<String, Integer> provider = provider();
    commitV1AndV2(provider);

    ReadStateStore<String, Integer> readFirst = provider.getReadStore(1);
    StateStore<String, Integer> writer = provider.getStore(1);
    ReadStateStore<String, Integer> readAfter = provider.getReadStore(1);
    writer.put("b", 200);
    writer.remove("a");
    writer.put("x", 9);
    assertState(readFirst, V1);
    assertState(readAfter, V1);
    assertState(provider.getReadStore(2), V2);
    assertState(writer, Map.of("b", 200, "c", 3, "d", 4, "x", 9));
    assertEquals(2, writer.commit());
    assertState(provider.getReadStore(2), Map.of("b", 200, "c", 3, "d", 4, "x", 9));
  }

  @Test void shouldReplaceLaterVersionsWhenOlderBatchIsRerun() {
    assumeOlderVersions(2);
    StateStoreProvider<String, Integer> provider = provider();
    List<Map<String, Integer>> states = commitVersions(provider, 4);

    StateStore<String, Integer> rerun = provider.getStore(2);
    assertState(rerun, states.get(2));
    rerun.put("rerun", 1);
    assertEquals(3, rerun.commit());

    Map<String, Integer> expected = new HashMap<>(states.get(2));
    expected.put("rerun", 1);
    assertState(provider.getStore(3), expected);
  }

  @Test void shouldOpenRetainedVersionsWhenReopenedAfterRerunAndAbort() {
    assumeOlderVersions(4);
    assumePersists();
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    List<Map<String, Integer>> states = commitVersions(provider, 5);

    provider = reopen(provider, spec);
    StateStore<String, Integer> v3 = provider.getStore(3);
    assertState(v3, states.get(3));
    v3.put("gone", 1);
    v3.abort();
    StateStore<String, Integer> v1 = provider.getStore(1);
    assertState(v1, states.get(1));
    v1.put("rerun", 1);
    assertEquals(2, v1.commit());

    provider = reopen(provider, spec);
    Map<String, Integer> expected = new HashMap<>(states.get(1));
    expected.put("rerun", 1);
    assertState(provider.getStore(2), expected);
    assertEquals(expected, toMap(provider.getReadStore(2).entries()));
  }

  @Test void shouldKeepRetainedVersionsLoadableWhenMaintained() {
    assumeOlderVersions(3);
    int retain = 3;
    StateStoreProvider<String, Integer> provider = provider(spec(retain));
    List<Map<String, Integer>> states = commitVersions(provider, 12);

    provider.doMaintenance();

    // Newest first: opening an older version for update may discard the newer ones.
    for (int v = 12; v >= 12 - retain; v--) {
      StateStore<String, Integer> store = provider.getStore(v);
      assertState(store, states.get(v));
      store.abort();
    }
  }

  /**
   * Model test: seeded random put, remove, get, commit, abort, re-run of an older version and
   * reopen against a {@link TreeMap} per committed version. Keys include null. Set
   * {@code -Dfreshet.test.seed} to replay a run.
   */
  @Test void shouldMatchTreeMapModelWhenOperatingRandomly() {
    long rootSeed = Long.getLong("freshet.test.seed", System.nanoTime());
    Random seeds = new Random(rootSeed);
    for (int run = 0; run < 40; run++) {
      long seed = seeds.nextLong();
      System.out.println("model run " + run + ": rootSeed=" + rootSeed + ", seed=" + seed);
      runModel(seed, run, "rootSeed=" + rootSeed + " (set -Dfreshet.test.seed), seed=" + seed);
    }
  }

  private void runModel(long seed, int run, String where) {
    Random random = new Random(seed);
    int retain = 1 + random.nextInt(4);
    StateStoreSpec spec = new StateStoreSpec(ID, checkpoint.resolve("model/" + run),
        StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, retain);
    StateStoreProvider<String, Integer> provider = provider(spec);
    String[] keys = new String[1 + random.nextInt(40)];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i == 0 ? null : "k" + i;
    }
    // committed.get(v) is version v; versions after a re-run's version are dropped from it.
    List<TreeMap<String, Integer>> committed = new ArrayList<>();
    committed.add(newModel());
    TreeMap<String, Integer> working = newModel();
    long version = 0;
    // The provider's latest committed version: a re-run replaces it only when it commits.
    long latest = 0;
    // No version before this one need be loadable any more.
    long floor = 0;
    StateStore<String, Integer> store = provider.getStore(version);
    List<String> log = new ArrayList<>();
    for (int step = 0; step < 300; step++) {
      String at = where + ", step=" + step + ", ops=" + tail(log);
      try {
        String key = keys[random.nextInt(keys.length)];
        int op = random.nextInt(100);
        if (op < 50) {
          int value = random.nextInt(1000);
          log.add("put(" + key + "," + value + ")");
          store.put(key, value);
          working.put(key, value);
        } else if (op < 72) {
          log.add("remove(" + key + ")");
          store.remove(key);
          working.remove(key);
        } else if (op < 84) {
          log.add("commit@" + version);
          long next = store.commit();
          assertEquals(version + 1, next, at);
          assertTrue(store.hasCommitted(), at);
          version = next;
          latest = next;
          floor = Math.max(floor, next - Math.min(retain, olderVersionsRetained()));
          committed.add(copy(working));
          store = provider.getStore(version);
        } else if (op < 91) {
          log.add("abort@" + version);
          store.abort();
          assertFalse(store.hasCommitted(), at);
          working = copy(committed.get((int) version));
          store = provider.getStore(version);
        } else if (op < 95 && olderVersionsRetained() > 0) {
          // minVersionsToRetain counts back from the latest committed version, and a re-run does
          // not bring back versions dropped before it.
          long oldest = Math.max(floor, latest - Math.min(retain, olderVersionsRetained()));
          long rerun = oldest + random.nextInt((int) (version - oldest + 1));
          log.add("rerun(" + rerun + ")@" + version);
          store.abort();
          store = provider.getStore(rerun);
          version = rerun;
          committed.subList((int) version + 1, committed.size()).clear();
          working = copy(committed.get((int) version));
        } else if (op < 98 && persistsAcrossInstances()) {
          log.add("reopen@" + version);
          provider = reopen(provider, spec);
          working = copy(committed.get((int) version));
          store = provider.getStore(version);
        } else {
          log.add("read@" + version);
          ReadStateStore<String, Integer> read = provider.getReadStore(version);
          assertEquals(committed.get((int) version), toMap(read.entries()), at);
          assertEquals(committed.get((int) version).size(), read.numKeys(), at);
        }
        assertEquals(version, store.version(), at);
        assertEquals(working.size(), store.numKeys(), at);
        assertEquals(working, toMap(store.entries()), at);
        for (String k : keys) {
          assertEquals(working.get(k), store.get(k), "get(" + k + "); " + at);
        }
      } catch (RuntimeException e) {
        throw new AssertionError(at, e);
      }
    }
    store.abort();
  }

  private static TreeMap<String, Integer> newModel() {
    return new TreeMap<>(Comparator.nullsFirst(Comparator.<String>naturalOrder()));
  }

  private static TreeMap<String, Integer> copy(TreeMap<String, Integer> model) {
    TreeMap<String, Integer> copy = newModel();
    copy.putAll(model);
    return copy;
  }

  /** Commits versions 1 to {@code count}, each adding one key and changing or removing another. */
  private static List<Map<String, Integer>> commitVersions(
      StateStoreProvider<String, Integer> provider, int count) {
    List<Map<String, Integer>> states = new ArrayList<>();
    Map<String, Integer> state = new HashMap<>();
    states.add(new HashMap<>(state));
    for (int v = 0; v < count; v++) {
      StateStore<String, Integer> store = provider.getStore(v);
      store.put("k" + v, v);
      state.put("k" + v, v);
      if (v % 2 == 1) {
        store.remove("k" + (v - 1));
        state.remove("k" + (v - 1));
      } else {
        store.put("k0", 100 + v);
        state.put("k0", 100 + v);
      }
      assertEquals(v + 1, store.commit());
      states.add(new HashMap<>(state));
    }
    return states;
  }

  private static String tail(List<String> log) {
    return log.subList(Math.max(0, log.size() - 12), log.size()).toString();
  }

  private static void assertState(ReadStateStore<String, Integer> store,
      Map<String, Integer> expected) {
    assertEquals(expected, toMap(store.entries()));
    assertEquals(expected.size(), store.numKeys(), "numKeys of " + expected);
    for (String k : Arrays.asList("a", "b", "c", "d", "zzz")) {
      assertEquals(expected.get(k), store.get(k), "get(" + k + ") of " + expected);
    }
    for (Map.Entry<String, Integer> e : expected.entrySet()) {
      assertEquals(e.getValue(), store.get(e.getKey()), "get(" + e.getKey() + ")");
    }
  }

  private static void assertStateAndAbort(StateStore<String, Integer> store,
      Map<String, Integer> expected) {
    assertState(store, expected);
    store.abort();
  }

  private static void assertStateRows(Map<Object, Object[]> expected,
      ReadStateStore<Object, Object[]> store) {
    assertEquals(expected.size(), store.numKeys());
    int count = 0;
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      assertTrue(expected.containsKey(e.getKey()), "unexpected key " + e.getKey());
      assertArrayEquals(expected.get(e.getKey()), e.getValue(), "value of " + e.getKey());
      count++;
    }
    assertEquals(expected.size(), count);
    for (Map.Entry<Object, Object[]> e : expected.entrySet()) {
      assertArrayEquals(e.getValue(), store.get(e.getKey()), "get(" + e.getKey() + ")");
    }
  }

  // ---- Pinned versions and changes (docs/design/views-from-state.md §2.3) --------------------

  private void assumePins() {
    assumeTrue(pinsVersions(), "this provider cannot pin a version while later ones commit");
  }

  /** Commits {@code puts} (key, value; a null value removes the key) over {@code version}. */
  protected static long commit(StateStoreProvider<String, Integer> provider, long version,
      Object... puts) {
    StateStore<String, Integer> store = provider.getStore(version);
    for (int i = 0; i < puts.length; i += 2) {
      if (puts[i + 1] == null) {
        store.remove((String) puts[i]);
      } else {
        store.put((String) puts[i], (Integer) puts[i + 1]);
      }
    }
    return store.commit();
  }

  @Test void shouldReportTheLatestCommittedVersion() {
    StateStoreSpec spec = spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN);
    StateStoreProvider<String, Integer> provider = provider(spec);
    assertEquals(0, provider.latestCommittedVersion());
    commitV1AndV2(provider);
    assertEquals(2, provider.latestCommittedVersion());
    StateStore<String, Integer> aborted = provider.getStore(2);
    aborted.put("z", 26);
    assertEquals(2, provider.latestCommittedVersion(), "with a store open");
    aborted.abort();
    assertEquals(2, provider.latestCommittedVersion(), "after an abort");
    if (olderVersionsRetained() >= 1) {
      commit(provider, 1, "a", 99);
      assertEquals(2, provider.latestCommittedVersion(), "after a re-run of version 2");
    }
    if (persistsAcrossInstances()) {
      assertEquals(2, reopen(provider, spec).latestCommittedVersion(), "after a restart");
    }
  }

  @Test void shouldKeepAPinnedVersionThroughLaterCommitsAndARerunOfIt() {
    assumePins();
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
  private static final long COMMITS_DEADLINE_S = 120;

  @Test void shouldScanAPinOnAnotherThreadWhileTheBatchThreadCommits() throws Exception {
    assumePins();
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

  @Test void shouldReadTheOldAndNewValueOfEachKeyEachVersionChanged() {
    assumePins();
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

  @Test void shouldSayWhichChangesItNoLongerRetains() {
    assumePins();
    StateStoreProvider<String, Integer> provider = provider(spec(2));
    for (long v = 0; v < 5; v++) {
      commit(provider, v, "k", (int) v + 1, "k" + v, (int) v);
    }
    provider.doMaintenance();
    long oldest = provider.oldestChangesVersion();
    assumeTrue(oldest > 0, "this provider keeps the changes of versions minVersionsToRetain does"
        + " not need until maintenance has a snapshot to drop them for");

    assertEquals(Math.max(3, 5 - changesRetained()), oldest);
    StateStoreException e = assertThrows(StateStoreException.class,
        () -> provider.readChanges(oldest - 1, 5, (v, k, o, n) -> { }));
    assertEquals("The changes after version " + (oldest - 1) + " of " + ID + " are no longer"
        + " retained: the oldest version whose later changes are kept is " + oldest,
        e.getMessage());
    List<String> expected = new ArrayList<>();
    for (long v = oldest + 1; v <= 5; v++) {
      expected.add(v + " k " + (v - 1) + "->" + v);
      expected.add(v + " k" + (v - 1) + " null->" + (v - 1));
    }
    assertEquals(expected, changes(provider, oldest, 5));
  }

  /** Each change as "version key old->new", sorted by key within a version. */
  private static List<String> changes(StateStoreProvider<String, Integer> provider, long from,
      long to) {
    List<String> changes = new ArrayList<>();
    long[] last = {from};
    provider.readChanges(from, to, (version, key, oldValue, newValue) -> {
      assertTrue(version >= last[0] && version > from && version <= to, "version " + version);
      last[0] = version;
      changes.add(version + " " + key + " " + oldValue + "->" + newValue);
    });
    changes.sort(Comparator.comparing((String c) -> Long.parseLong(c.substring(0,
        c.indexOf(' ')))).thenComparing(Comparator.naturalOrder()));
    return changes;
  }

  @Test void shouldRefuseToPinOrReadChangesOfAVersionNotCommittedYet() {
    assumePins();
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

  @Test void shouldSayWhenItCannotPinAVersion() {
    assumeTrue(!pinsVersions(), "this provider pins versions");
    StateStoreProvider<String, Integer> provider = provider();
    commitV1AndV2(provider);
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> provider.pin(2));
    assertEquals(provider.getClass().getSimpleName() + " of " + ID + " cannot pin a version;"
        + " use the memory (DeltaFile) state store provider", e.getMessage());
    assertThrows(UnsupportedOperationException.class,
        () -> provider.readChanges(1, 2, (v, k, o, n) -> { }));
  }

  /** Collects entries, failing if a key repeats. */
  protected static <K, V> Map<K, V> toMap(Iterable<Map.Entry<K, V>> entries) {
    Map<K, V> map = new HashMap<>();
    for (Map.Entry<K, V> e : entries) {
      assertFalse(map.containsKey(e.getKey()), "entries() repeats key " + e.getKey());
      map.put(e.getKey(), e.getValue());
    }
    return map;
  }
}

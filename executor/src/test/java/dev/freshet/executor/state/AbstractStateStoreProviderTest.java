package dev.freshet.executor.state;

import static dev.freshet.executor.state.StateStoreContractChecks.assertState;
import static dev.freshet.executor.state.StateStoreContractChecks.commit;
import static dev.freshet.executor.state.StateStoreContractChecks.commitV1AndV2;
import static dev.freshet.executor.state.StateStoreContractChecks.toMap;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contract every {@link StateStoreProvider} fulfils: the version protocol of SEMANTICS.md §1 and
 * §10.2 and the store lifecycle of {@link StateStore}. One subclass per provider supplies
 * {@link #newProvider} and implements the capability contracts its provider fulfils (see
 * {@link StateStoreContract}); the tests of a capability it lacks are not run, and the tests here
 * check the capabilities it has along the way ({@link #persistsAcrossInstances()},
 * {@link #olderVersionsRetained()}).
 *
 * <p>A provider that persists is re-created on the same {@link StateStoreSpec} by {@link #reopen}
 * and must see the last committed version.
 */
public abstract class AbstractStateStoreProviderTest implements StateStoreContract {
  protected static final StateStoreId ID = StateStoreContractChecks.ID;

  @TempDir protected Path checkpoint;

  private final List<StateStoreProvider<?, ?>> opened = new ArrayList<>();

  /** Creates a provider for {@code spec}; for a provider that persists, on its files. */
  protected abstract <K, V> StateStoreProvider<K, V> newProvider(StateStoreSpec spec);

  /** The spec of the store under test, keeping {@code minVersionsToRetain} versions. */
  @Override public StateStoreSpec spec(int minVersionsToRetain) {
    return new StateStoreSpec(ID, checkpoint.resolve("state/3/7"),
        StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, minVersionsToRetain);
  }

  /** A new provider for {@link #spec(int)} with Spark's default retention, closed after the test. */
  @Override public <K, V> StateStoreProvider<K, V> provider() {
    return provider(spec(StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN));
  }

  /** A new provider for {@code spec}, closed after the test. */
  @Override public <K, V> StateStoreProvider<K, V> provider(StateStoreSpec spec) {
    StateStoreProvider<K, V> provider = newProvider(spec);
    opened.add(provider);
    return provider;
  }

  /** Closes {@code provider} and creates another on the same spec, as a restarted query does. */
  @Override public <K, V> StateStoreProvider<K, V> reopen(StateStoreProvider<K, V> provider,
      StateStoreSpec spec) {
    provider.close();
    return provider(spec);
  }

  @AfterEach void closeProviders() {
    for (StateStoreProvider<?, ?> p : opened) {
      p.close();
    }
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

  private static String tail(List<String> log) {
    return log.subList(Math.max(0, log.size() - 12), log.size()).toString();
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
}

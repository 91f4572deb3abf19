package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Tests {@link InMemoryStateStoreProvider}: the version protocol of SEMANTICS.md §1 and §10.2 and the
 * store lifecycle of {@link StateStore}.
 */
class InMemoryStateStoreProviderTest {
  private static final StateStoreId ID = new StateStoreId("query-1", 3, 7);

  private final InMemoryStateStoreProvider<String, Integer> provider =
      new InMemoryStateStoreProvider<>(ID);

  @Test void shouldBeEmptyWhenVersionIsZero() {
    StateStore<String, Integer> store = provider.getStore(0);

    assertEquals(ID, store.id());
    assertEquals(ID, provider.id());
    assertEquals(0, store.version());
    assertEquals(0, store.numKeys());
    assertEquals(Map.of(), toMap(store.entries()));
    assertNull(store.get("a"));
    assertFalse(store.hasCommitted());
  }

  @Test void shouldProduceNextVersionWhenCommitted() {
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.put("b", 2);
    v0.put("c", 3);
    v0.remove("b");
    assertEquals(1, v0.get("a"));
    assertNull(v0.get("b"));

    assertEquals(1, v0.commit());
    assertTrue(v0.hasCommitted());

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
    provider.getStore(0).commit();
    StateStore<String, Integer> v1 = provider.getStore(1);

    assertEquals(2, v1.commit());
    assertEquals(0, provider.getStore(2).numKeys());
  }

  @Test void shouldKeepCommittedVersionWhenAborted() {
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
    StateStore<String, Integer> v0 = provider.getStore(0);
    v0.put("a", 1);
    v0.abort();

    StateStore<String, Integer> reopened = provider.getStore(0);
    assertEquals(0, reopened.numKeys());
    assertNull(reopened.get("a"));
    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(1));
    assertTrue(e.getMessage().contains("version 1"), e.getMessage());
  }

  @Test void shouldBeHarmlessWhenAbortingAfterCommitOrTwice() {
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

  @Test void shouldThrowNamingVersionWhenOpeningOtherThanLatest() {
    StateStoreException ahead = assertThrows(StateStoreException.class, () -> provider.getStore(1));
    assertEquals("Cannot load version 1 of " + ID
        + ": this in-memory provider holds only the latest version, 0", ahead.getMessage());

    StateStoreException negative =
        assertThrows(StateStoreException.class, () -> provider.getStore(-1));
    assertTrue(negative.getMessage().startsWith("Cannot load version -1 of " + ID),
        negative.getMessage());

    provider.getStore(0).commit();
    provider.getStore(1).commit();
    StateStoreException behind = assertThrows(StateStoreException.class, () -> provider.getStore(1));
    assertEquals("Cannot load version 1 of " + ID
        + ": this in-memory provider holds only the latest version, 2", behind.getMessage());
    assertEquals(2, provider.getStore(2).version());
  }

  @Test void shouldThrowNamingVersionWhenOpeningWhileAnotherStoreIsOpen() {
    StateStore<String, Integer> open = provider.getStore(0);
    open.put("a", 1);

    StateStoreException e = assertThrows(StateStoreException.class, () -> provider.getStore(0));
    assertEquals("Version 0 of " + ID + " is already open for update; commit or abort it first",
        e.getMessage());
    assertEquals(1, open.commit());
  }

  @Test void shouldRejectNullValueWhenPutting() {
    StateStore<String, Integer> store = provider.getStore(0);

    NullPointerException e = assertThrows(NullPointerException.class, () -> store.put("a", null));
    assertEquals("value", e.getMessage());
    assertEquals(0, store.numKeys());
  }

  @Test void shouldReflectUncommittedChangesWhenCountingAndIterating() {
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

  @Test void shouldTreatNullAsKeyWhenPuttingAndRemoving() {
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
    provider.getStore(0).commit();

    provider.close();
    provider.close();
  }

  /**
   * Model test: random put, remove, get, commit and abort against two {@link HashMap}s, one for the
   * latest committed version and one for the open store's view. Keys include null.
   */
  @Test void shouldMatchHashMapModelWhenOperatingRandomly() {
    long rootSeed = Long.getLong("freshet.test.seed", System.nanoTime());
    Random seeds = new Random(rootSeed);
    for (int run = 0; run < 50; run++) {
      long seed = seeds.nextLong();
      runModel(seed, "rootSeed=" + rootSeed + " (set -Dfreshet.test.seed), seed=" + seed);
    }
  }

  private static void runModel(long seed, String where) {
    Random random = new Random(seed);
    InMemoryStateStoreProvider<String, Integer> provider = new InMemoryStateStoreProvider<>(ID);
    String[] keys = new String[1 + random.nextInt(12)];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i == 0 ? null : "k" + i;
    }
    HashMap<String, Integer> committed = new HashMap<>();
    HashMap<String, Integer> working = new HashMap<>();
    long version = 0;
    StateStore<String, Integer> store = provider.getStore(version);
    List<String> log = new ArrayList<>();
    for (int step = 0; step < 400; step++) {
      String at = where + ", step=" + step + ", ops=" + tail(log);
      String key = keys[random.nextInt(keys.length)];
      int op = random.nextInt(100);
      if (op < 45) {
        int value = random.nextInt(5);
        log.add("put(" + key + "," + value + ")");
        store.put(key, value);
        working.put(key, value);
      } else if (op < 75) {
        log.add("remove(" + key + ")");
        store.remove(key);
        working.remove(key);
      } else if (op < 88) {
        log.add("commit@" + version);
        long next = store.commit();
        assertEquals(version + 1, next, at);
        assertTrue(store.hasCommitted(), at);
        version = next;
        committed = new HashMap<>(working);
        store = provider.getStore(version);
      } else if (op < 97) {
        log.add("abort@" + version);
        store.abort();
        assertFalse(store.hasCommitted(), at);
        working = new HashMap<>(committed);
        store = provider.getStore(version);
      } else {
        log.add("abortAndTryNext@" + version);
        store.abort();
        working = new HashMap<>(committed);
        long wrong = version + 1;
        assertThrows(StateStoreException.class, () -> provider.getStore(wrong), at);
        store = provider.getStore(version);
      }
      assertEquals(version, store.version(), at);
      assertEquals(working.size(), store.numKeys(), at);
      Map<String, Integer> entries = new HashMap<>();
      int count = 0;
      for (Map.Entry<String, Integer> e : store.entries()) {
        entries.put(e.getKey(), e.getValue());
        count++;
      }
      assertEquals(working.size(), count, "entries() repeats a key; " + at);
      assertEquals(working, entries, at);
      for (String k : keys) {
        assertEquals(working.get(k), store.get(k), "get(" + k + "); " + at);
      }
    }
  }

  private static String tail(List<String> log) {
    return log.subList(Math.max(0, log.size() - 8), log.size()).toString();
  }

  private static void assertState(StateStore<String, Integer> store, Map<String, Integer> expected) {
    assertEquals(expected, toMap(store.entries()));
    assertEquals(expected.size(), store.numKeys(), "numKeys of " + expected);
    for (String k : Arrays.asList("a", "b", "c", "zzz")) {
      assertEquals(expected.get(k), store.get(k), "get(" + k + ") of " + expected);
    }
  }

  private static <K, V> Map<K, V> toMap(Iterable<Map.Entry<K, V>> entries) {
    Map<K, V> map = new HashMap<>();
    for (Map.Entry<K, V> e : entries) {
      V previous = map.put(e.getKey(), e.getValue());
      assertNull(previous, "entries() repeats key " + e.getKey());
    }
    return map;
  }
}

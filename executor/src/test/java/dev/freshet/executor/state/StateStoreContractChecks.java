package dev.freshet.executor.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The data and assertions the state store contracts share. */
public final class StateStoreContractChecks {
  /** The id of the store under test. */
  public static final StateStoreId ID = new StateStoreId("query-1", 3, 7);

  /** Version 1: a, b, c, d; version 2 changes a, removes b, adds e and leaves c and d. */
  public static final Map<String, Integer> V1 = Map.of("a", 1, "b", 2, "c", 3, "d", 4);
  /** Version 2 of {@link #commitV1AndV2}. */
  public static final Map<String, Integer> V2 = Map.of("a", 10, "c", 3, "d", 4, "e", 5);

  private StateStoreContractChecks() {
  }

  /** Commits {@link #V1} and {@link #V2}. */
  public static void commitV1AndV2(StateStoreProvider<String, Integer> provider) {
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

  /** Commits versions 1 to {@code count}, each adding one key and changing or removing another. */
  public static List<Map<String, Integer>> commitVersions(
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

  public static void assertState(ReadStateStore<String, Integer> store,
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

  public static void assertStateAndAbort(StateStore<String, Integer> store,
      Map<String, Integer> expected) {
    assertState(store, expected);
    store.abort();
  }

  /** Commits {@code puts} (key, value; a null value removes the key) over {@code version}. */
  public static long commit(StateStoreProvider<String, Integer> provider, long version,
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

  /** Each change as "version key old->new", sorted by key within a version. */
  public static List<String> changes(StateStoreProvider<String, Integer> provider, long from,
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

  /** Collects entries, failing if a key repeats. */
  public static <K, V> Map<K, V> toMap(Iterable<Map.Entry<K, V>> entries) {
    Map<K, V> map = new HashMap<>();
    for (Map.Entry<K, V> e : entries) {
      assertFalse(map.containsKey(e.getKey()), "entries() repeats key " + e.getKey());
      map.put(e.getKey(), e.getValue());
    }
    return map;
  }
}

package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CommittedMapTest {
  /**
   * Seeded random puts and removes over many versions, some changing few keys (deltas merged)
   * and some most (folds), against a {@link HashMap} per version. Every earlier version is checked
   * again at the end: versions share maps and must not see their successors' changes.
   */
  @Test void shouldMatchHashMapModelOfEveryVersionWhenEditedRandomly() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    List<CommittedMap> versions = new ArrayList<>();
    List<Map<Object, Object[]>> models = new ArrayList<>();
    CommittedMap map = CommittedMap.EMPTY;
    Map<Object, Object[]> model = new HashMap<>();
    for (int version = 1; version <= 60; version++) {
      String where = "seed " + seed + ", version " + version;
      int keys = 1 + random.nextInt(version % 10 == 0 ? 3_000 : 300);
      int changes = random.nextInt(version % 7 == 0 ? 2_000 : 50);
      CommittedMap.Edits edits = new CommittedMap.Edits(map);
      for (int i = 0; i < changes; i++) {
        Object key = random.nextInt(100) == 0 ? null : (Object) random.nextInt(keys);
        if (random.nextInt(3) == 0) {
          assertEquals(model.remove(key) != null, edits.remove(key), where);
        } else {
          // Packed rows, and rows that stay arrays.
          Object[] row = random.nextBoolean() ? new Object[] {null, (long) i, random.nextDouble()}
              : new Object[] {"s" + i};
          edits.put(key, row);
          model.put(key, row);
        }
        assertEquals(model.size(), edits.size(), where);
        assertEquals(model.containsKey(key), edits.containsKey(key), where);
      }
      map = edits.commit();
      check(model, map, where);
      versions.add(map);
      models.add(model);
      model = new HashMap<>(model);
    }
    for (int v = 0; v < versions.size(); v++) {
      check(models.get(v), versions.get(v), "seed " + seed + ", again version " + (v + 1));
    }
  }

  private static void check(Map<Object, Object[]> model, CommittedMap map, String where) {
    assertEquals(model.size(), map.size(), where);
    Map<Object, Object[]> seen = new HashMap<>();
    for (Iterator<Map.Entry<Object, Object[]>> it = map.iterator(); it.hasNext(); ) {
      Map.Entry<Object, Object[]> e = it.next();
      assertFalse(seen.containsKey(e.getKey()), where + ": key " + e.getKey() + " twice");
      seen.put(e.getKey(), e.getValue());
    }
    assertEquals(model.keySet(), seen.keySet(), where);
    for (Map.Entry<Object, Object[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), seen.get(e.getKey()), where);
      assertArrayEquals(e.getValue(), map.get(e.getKey()), where);
    }
    assertTrue(map.get(-1) == null, where);
  }

  /** Iterating edits sees the changes made before the iterator, not those made during it. */
  @Test void shouldIterateChangesMadeBeforeIteratorWhenChangedWhileIterating() {
    CommittedMap.Edits first = new CommittedMap.Edits(CommittedMap.EMPTY);
    first.put(1, new Object[] {1L});
    first.put(2, new Object[] {2L});
    CommittedMap.Edits edits = new CommittedMap.Edits(first.commit());
    edits.remove(1);
    edits.put(3, new Object[] {3L});
    Map<Object, Object[]> seen = new HashMap<>();
    for (Iterator<Map.Entry<Object, Object[]>> it = edits.iterator(); it.hasNext(); ) {
      Map.Entry<Object, Object[]> e = it.next();
      seen.put(e.getKey(), e.getValue());
      edits.put(4, new Object[] {4L});
      edits.remove(2);
    }
    assertEquals(Map.of(2, 0, 3, 0).keySet(), seen.keySet());
    assertArrayEquals(new Object[] {3L}, seen.get(3));
    assertEquals(2, edits.size());
  }
}

package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ProbingMapTest {
  /** A key whose hash is chosen, so that tests can make long probe runs and wrap-arounds. */
  private record Colliding(int id, int hash) {
    @Override public int hashCode() {
      return hash;
    }

    @Override public boolean equals(Object o) {
      return o instanceof Colliding c && c.id == id;
    }
  }

  @Test void shouldMatchHashMapModelWhenOperatingRandomly() {
    long seed = new Random().nextLong();
    for (int round = 0; round < 20; round++) {
      runModel(seed + round, 3_000, 40);
      runModel(seed + round, 3_000, 2_000);
    }
  }

  /** Few distinct hashes: every run is long and wraps around the table's end. */
  @Test void shouldMatchHashMapModelWhenHashesCollide() {
    long seed = new Random().nextLong();
    for (int round = 0; round < 20; round++) {
      runModel(seed + round, 2_000, -1);
    }
  }

  /**
   * Random puts, putIfAbsent, removes, removeIf, putAll, copies and trims against a
   * {@link HashMap}; {@code keys < 0} draws colliding keys.
   */
  private static void runModel(long seed, int steps, int keys) {
    Random random = new Random(seed);
    ProbingMap map = new ProbingMap(random.nextInt(10));
    Map<Object, Object> model = new HashMap<>();
    for (int step = 0; step < steps; step++) {
      String where = "seed " + seed + ", step " + step;
      Object key = key(random, keys);
      int op = random.nextInt(100);
      if (op < 40) {
        Object value = "v" + random.nextInt(5);
        assertEquals(model.put(key, value), map.put(key, value), where);
      } else if (op < 50) {
        Object value = "w" + random.nextInt(5);
        assertEquals(model.putIfAbsent(key, value), map.putIfAbsent(key, value), where);
      } else if (op < 80) {
        assertEquals(model.remove(key), map.remove(key), where);
      } else if (op < 82) {
        String drop = "v" + random.nextInt(5);
        model.values().removeIf(drop::equals);
        map.removeIf((k, v) -> v.equals(drop));
      } else if (op < 84) {
        ProbingMap other = new ProbingMap();
        for (int i = random.nextInt(20); i > 0; i--) {
          Object k = key(random, keys);
          other.put(k, "x");
          model.put(k, "x");
        }
        map.putAll(other);
      } else if (op < 86) {
        ProbingMap copy = new ProbingMap(map);
        // The copy must not share the table: change the original and check the copy.
        map.put(key, "changed");
        assertEquals(model.containsKey(key) ? model.get(key) : null, copy.get(key), where);
        map = copy;
      } else if (op < 88) {
        map.trim();
      } else {
        assertEquals(model.get(key), map.get(key), where);
        assertEquals(model.containsKey(key), map.containsKey(key), where);
      }
      assertEquals(model.size(), map.size(), where);
      if (step % 100 == 0 || step == steps - 1) {
        assertEquals(model, contents(map), where);
      }
    }
  }

  private static Object key(Random random, int keys) {
    if (random.nextInt(50) == 0) {
      return null;
    }
    if (keys < 0) {
      int id = random.nextInt(200);
      return new Colliding(id, id % 3 == 0 ? -1 : id % 3);
    }
    return random.nextInt(keys);
  }

  private static Map<Object, Object> contents(ProbingMap map) {
    Map<Object, Object> contents = new HashMap<>();
    int entries = 0;
    for (int slot = 0; slot < map.capacity(); slot++) {
      if (map.valueAt(slot) != null) {
        contents.put(map.keyAt(slot), map.valueAt(slot));
        entries++;
      }
    }
    assertEquals(map.size(), entries, "entries found by walking the slots");
    return contents;
  }

  @Test void shouldShrinkToTrimmedLoadWhenTrimmedAfterRemovals() {
    ProbingMap map = new ProbingMap();
    for (int i = 0; i < 100_000; i++) {
      map.put(i, i);
    }
    for (int i = 0; i < 100_000; i += 2) {
      map.remove(i);
    }
    map.trim();
    assertEquals(50_000, map.size());
    double load = (double) map.size() / map.capacity();
    assertTrue(load > 0.65 && load <= ProbingMap.TRIMMED_LOAD, "load " + load);
    for (int i = 0; i < 100_000; i++) {
      assertEquals(i % 2 == 0 ? null : i, map.get(i));
    }
  }

  @Test void shouldKeepLoadBelowMaximumWhenGrowing() {
    ProbingMap map = new ProbingMap();
    for (int i = 0; i < 10_000; i++) {
      map.put("k" + i, i);
      assertTrue(map.size() <= map.capacity() * ProbingMap.MAX_LOAD + 1, "size " + map.size());
    }
  }

  /**
   * Regression: with one hash function for all maps, copying a map in slot order (as a snapshot
   * file is written and read back) into a map that grows as it fills made runs of about a
   * hundred thousand slots, and each insertion cost as much.
   */
  @Test void shouldKeepRunsShortWhenFilledInAnotherMapsSlotOrder() {
    ProbingMap source = new ProbingMap();
    for (int i = 0; i < 200_000; i++) {
      source.put(i, i);
    }
    source.trim();
    // A random layout at 0.75 entries per slot or less has runs of a few hundred slots at most.
    assertTrue(source.longestRun() < 2_000, "source run " + source.longestRun());
    ProbingMap copy = new ProbingMap();
    for (int slot = 0; slot < source.capacity(); slot++) {
      if (source.valueAt(slot) != null) {
        copy.put(source.keyAt(slot), source.valueAt(slot));
        // Between two growths is where the runs formed.
        if (copy.size() % 5_000 == 0) {
          assertTrue(copy.longestRun() < 2_000, "copy run " + copy.longestRun());
        }
      }
    }
  }

  @Test void shouldRejectNullValueWhenPutting() {
    ProbingMap map = new ProbingMap();
    assertThrows(NullPointerException.class, () -> map.put(1, null));
    assertNull(map.get(1));
  }
}

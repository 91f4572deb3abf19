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
        map.removeIf((m, s) -> m.valueAt(s).equals(drop));
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

  /**
   * Keys kept as their hashes (Integer, and Long within the int range, of both signs) among
   * other keys, values given as words among other values, copies between maps of other seeds:
   * against a {@link HashMap}, which must see the keys boxed back with their own types.
   */
  @Test void shouldMatchHashMapModelWhenKeysAreSmallNumbersAndValuesWords() {
    long seed = new Random().nextLong();
    for (int round = 0; round < 20; round++) {
      runMixedModel(seed + round, 3_000);
    }
  }

  /** A word in the model of a map. */
  private record Word(long bits) {
  }

  private static void runMixedModel(long seed, int steps) {
    Random random = new Random(seed);
    ProbingMap map = new ProbingMap(random.nextInt(10));
    Map<Object, Object> model = new HashMap<>();
    for (int step = 0; step < steps; step++) {
      String where = "seed " + seed + ", step " + step;
      Object key = mixedKey(random);
      int op = random.nextInt(100);
      if (op < 25) {
        Object value = "v" + random.nextInt(5);
        assertEquals(inMap(model.put(key, value)), map.put(key, value), where);
      } else if (op < 50) {
        long word = random.nextLong();
        Object previous = model.put(key, new Word(word));
        assertEquals(inMap(previous),
            map.putWord(key, word), where);
      } else if (op < 70) {
        Object previous = model.remove(key);
        assertEquals(inMap(previous), map.remove(key),
            where);
      } else if (op < 72) {
        model.values().removeIf(Word.class::isInstance);
        map.removeIf((m, s) -> m.valueAt(s) == ProbingMap.WORD);
      } else if (op < 76) {
        // Another seed: keys kept as hashes must be rehashed, not copied.
        ProbingMap other = new ProbingMap();
        ProbingMap removals = new ProbingMap();
        for (int i = random.nextInt(20); i > 0; i--) {
          Object k = mixedKey(random);
          long word = random.nextLong();
          other.putWord(k, word);
          removals.put(mixedKey(random), "x");
        }
        for (int slot = 0; slot < other.capacity(); slot++) {
          if (other.valueAt(slot) != null) {
            boolean replace = random.nextBoolean();
            Object k = other.keyAt(slot);
            Object expected = replace || !model.containsKey(k)
                ? model.put(k, new Word(other.wordAt(slot))) : model.get(k);
            Object previous = map.putEntryOf(other, slot, replace);
            assertEquals(inMap(expected), previous, where);
          }
        }
        for (int slot = 0; slot < removals.capacity(); slot++) {
          if (removals.valueAt(slot) != null) {
            Object k = removals.keyAt(slot);
            assertEquals(model.containsKey(k), map.containsKeyOf(removals, slot), where);
            Object previous = model.remove(k);
            assertEquals(inMap(previous),
                map.removeKeyOf(removals, slot), where);
          }
        }
      } else if (op < 78) {
        ProbingMap copy = new ProbingMap(map);
        map.putWord(key, 1);
        assertEquals(model.get(key), valueOf(copy, key), where);
        map = copy;
      } else if (op < 80) {
        map.trim();
      } else {
        assertEquals(model.get(key), valueOf(map, key), where);
        assertEquals(model.containsKey(key), map.containsKey(key), where);
      }
      assertEquals(model.size(), map.size(), where);
      if (step % 100 == 0 || step == steps - 1) {
        Map<Object, Object> contents = new HashMap<>();
        for (int slot = 0; slot < map.capacity(); slot++) {
          if (map.valueAt(slot) != null) {
            Object k = map.keyAt(slot);
            assertEquals(k instanceof Integer || k instanceof Long && (Long) k == (int) (long) k,
                map.isSmallKeyAt(slot), where + ": " + k);
            contents.put(k, map.valueAt(slot) == ProbingMap.WORD
                ? new Word(map.wordAt(slot)) : map.valueAt(slot));
          }
        }
        // HashMap.equals compares keys with equals: an Integer is not a Long of the same value.
        assertEquals(model, contents, where);
      }
    }
  }

  /** What the map answers where the model answers {@code value}. */
  private static Object inMap(Object value) {
    return value instanceof Word ? ProbingMap.WORD : value;
  }

  private static Object valueOf(ProbingMap map, Object key) {
    int slot = map.slotOf(key);
    Object value = map.valueAt(slot);
    return value == ProbingMap.WORD ? new Word(map.wordAt(slot)) : value;
  }

  private static Object mixedKey(Random random) {
    int small = random.nextInt(60) - 30;
    switch (random.nextInt(7)) {
      case 0:
        return random.nextInt(20) == 0 ? null : "s" + small;
      case 1:
        return (long) small;
      case 2:
        return small + (random.nextBoolean() ? 1L << 32 : Long.MIN_VALUE);
      case 3:
        return random.nextBoolean() ? Integer.MIN_VALUE + small + 30
            : Integer.MAX_VALUE - small - 30;
      case 4:
        return random.nextBoolean() ? (long) Integer.MIN_VALUE : (long) Integer.MAX_VALUE;
      default:
        return small;
    }
  }
}

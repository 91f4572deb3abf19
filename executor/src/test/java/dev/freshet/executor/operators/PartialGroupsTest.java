package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link PartialGroups}, against a {@code HashMap} where the behaviour is the same. */
class PartialGroupsTest {
  /** Rows of one column, the key. */
  private static final KeyExtractor KEY = new KeyExtractor(new int[] {0});

  private static Object[] get(PartialGroups groups, Object key) {
    Object[] row = {key};
    return groups.get(row, KEY, KEY.hashOf(row));
  }

  @Test void shouldFindEachGroupWhenHashCodesCollide() {
    PartialGroups groups = new PartialGroups();
    // Every key has hash code 7: the table must tell them apart with equals.
    for (int i = 0; i < 100; i++) {
      groups.add(new Colliding(i), 7, new Object[] {i});
    }
    for (int i = 0; i < 100; i++) {
      assertEquals(i, get(groups, new Colliding(i))[0]);
    }
    assertNull(get(groups, new Colliding(100)));
  }

  @Test void shouldMatchHashMapWhenKeysAreRandom() {
    PartialGroups groups = new PartialGroups();
    Map<Object, Object[]> model = new HashMap<>();
    Random random = new Random(42);
    for (int i = 0; i < 200_000; i++) {
      Object key = random.nextInt(5) == 0 ? null : (Object) (long) random.nextInt(50_000);
      int hash = key == null ? 0 : key.hashCode();
      Object[] buffer = get(groups, key);
      assertSame(model.get(key), buffer);
      if (buffer == null) {
        buffer = new Object[1];
        groups.add(key, hash, buffer);
        model.put(key, buffer);
      }
    }
    assertEquals(model.size(), groups.size());
    for (int i = 0; i < groups.size(); i++) {
      assertSame(model.get(groups.key(i)), groups.buffer(i));
    }
  }

  @Test void shouldIterateInOrderOfFirstAppearance() {
    PartialGroups groups = new PartialGroups();
    for (String key : new String[] {"c", "a", "b"}) {
      groups.add(key, key.hashCode(), new Object[] {key});
    }
    assertEquals("c", groups.key(0));
    assertEquals("a", groups.key(1));
    assertEquals("b", groups.buffer(2)[0]);
  }

  @Test void shouldHashAndMatchRowsAsTheKeysTheyMake() {
    KeyExtractor two = new KeyExtractor(new int[] {2, 0});
    Object[][] rows = {
        {1L, "x", "a"}, {null, "x", "a"}, {-0.0d, "y", null}, {0.0d, "z", null},
        {1L, "x", 7}, {Double.NaN, null, 7}};
    for (Object[] row : rows) {
      Object key = two.keyOf(row);
      assertEquals(key.hashCode(), two.hashOf(row));
      for (Object[] other : rows) {
        assertEquals(key.equals(two.keyOf(other)), two.matches(key, other));
      }
    }
    // -0.0 and 0.0 are one group, for one key column as for several.
    assertEquals(KEY.keyOf(new Object[] {0.0d}).hashCode(), KEY.hashOf(new Object[] {-0.0d}));
    assertTrue(KEY.matches(KEY.keyOf(new Object[] {0.0d}), new Object[] {-0.0d}));
    assertTrue(two.matches(two.keyOf(rows[3]), rows[2]));
  }

  /** A key whose hash code is the same for every value. */
  private record Colliding(int value) {
    @Override public int hashCode() {
      return 7;
    }
  }
}

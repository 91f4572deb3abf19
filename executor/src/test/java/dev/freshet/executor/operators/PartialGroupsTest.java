package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.KeyHash;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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

  @Test void shouldHashRowsInATableAsTheKeysTheyMake() {
    KeyExtractor none = new KeyExtractor(new int[0]);
    KeyExtractor two = new KeyExtractor(new int[] {2, 0});
    Object[][] rows = {
        {1L, "x", "a"}, {null, "x", "a"}, {-0.0d, "y", null}, {0.0d, "z", null},
        {-0.0f, "x", 7}, {Double.NaN, null, 7}, {(short) 3, "x", true}, {new BigDecimal("1.50"),
        "x", (byte) 1}, {1, "x", "Aa"}};
    for (long seed : new long[] {0, 1, -5, KeyHash.newSeed()}) {
      assertEquals(KeyHash.of(GroupKey.EMPTY, seed), none.hashOf(rows[0], seed));
      for (Object[] row : rows) {
        assertEquals(KeyHash.of(two.keyOf(row), seed), two.hashOf(row, seed));
        assertEquals(KeyHash.of(KEY.keyOf(row), seed), KEY.hashOf(row, seed));
      }
      // -0.0 and 0.0 are one group, so they hash alike.
      assertEquals(KEY.hashOf(new Object[] {0.0d}, seed), KEY.hashOf(new Object[] {-0.0d}, seed));
      assertEquals(two.hashOf(rows[3], seed), two.hashOf(new Object[] {0.0d, "y", null}, seed));
    }
  }

  @Test void shouldHashStringsWithOneHashCodeApartInATable() {
    // "Aa" and "BB" share a String.hashCode, and so does every string of such blocks.
    long seed = KeyHash.newSeed();
    Set<Integer> hashes = new HashSet<>();
    for (int i = 0; i < 1 << 10; i++) {
      StringBuilder key = new StringBuilder();
      for (int bit = 0; bit < 10; bit++) {
        key.append((i >>> bit & 1) == 0 ? "Aa" : "BB");
      }
      hashes.add(KeyHash.of(key.toString(), seed));
    }
    // Two of 1024 random 32-bit hashes are equal with a chance of about 1 in 8,000; two such
    // pairs, hardly ever.
    assertTrue(hashes.size() >= (1 << 10) - 1, hashes.size() + " distinct hashes");
  }

  /** A key whose hash code is the same for every value. */
  private record Colliding(int value) {
    @Override public int hashCode() {
      return 7;
    }
  }
}

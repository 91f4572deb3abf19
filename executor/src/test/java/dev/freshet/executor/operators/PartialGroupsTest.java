package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link PartialGroups}, against a {@code HashMap} where the behaviour is the same. */
class PartialGroupsTest {
  @Test void shouldFindEachGroupWhenHashCodesCollide() {
    PartialGroups groups = new PartialGroups();
    // Every key has hash code 7: the table must tell them apart with equals.
    for (int i = 0; i < 100; i++) {
      groups.add(new Colliding(i), 7, new Object[] {i});
    }
    for (int i = 0; i < 100; i++) {
      assertEquals(i, groups.get(new Colliding(i), 7)[0]);
    }
    assertNull(groups.get(new Colliding(100), 7));
  }

  @Test void shouldMatchHashMapWhenKeysAreRandom() {
    PartialGroups groups = new PartialGroups();
    Map<Object, Object[]> model = new HashMap<>();
    Random random = new Random(42);
    for (int i = 0; i < 200_000; i++) {
      Object key = random.nextInt(5) == 0 ? null : (Object) (long) random.nextInt(50_000);
      int hash = key == null ? 0 : key.hashCode();
      Object[] buffer = groups.get(key, hash);
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

  @Test void shouldForgetGroupsAndShrinkWhenCleared() {
    PartialGroups groups = new PartialGroups();
    for (long k = 0; k < 100_000; k++) {
      groups.add(k, Long.hashCode(k), new Object[0]);
    }
    groups.clear();
    assertEquals(0, groups.size());
    // A big batch's arrays are not kept until the next batch.
    assertEquals(16, groups.capacity());
    assertNull(groups.get(5L, Long.hashCode(5L)));
    groups.add(5L, Long.hashCode(5L), new Object[] {"again"});
    assertEquals("again", groups.get(5L, Long.hashCode(5L))[0]);
  }

  /** A key whose hash code is the same for every value. */
  private record Colliding(int value) {
    @Override public int hashCode() {
      return 7;
    }
  }
}

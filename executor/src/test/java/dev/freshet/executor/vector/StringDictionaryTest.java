package dev.freshet.executor.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Codes of {@link StringDictionary}: by equality, dense, in order of first encoding. */
class StringDictionaryTest {
  @Test void shouldGiveEqualStringsOneCodeInOrderOfFirstEncoding() {
    for (StringDictionary d : List.of(new StringDictionary(), StringDictionary.seeded())) {
      String a = "a";
      assertEquals(0, d.encode(a));
      assertEquals(1, d.encode(""));
      assertEquals(2, d.encode("a "));
      assertEquals(3, d.encode("\ud83d\ude00"));
      assertEquals(0, d.encode(new String("a")));
      assertSame(a, d.get(0));
      // Growing past the initial 64 entries keeps the codes.
      for (int i = 0; i < 1000; i++) {
        assertEquals(4 + i, d.encode("k" + i));
      }
      assertEquals(3, d.encode("\ud83d\ude00"));
      assertEquals(1004, d.size());
      d.clear();
      assertEquals(0, d.size());
      assertEquals(0, d.encode("k5"));
    }
  }

  /**
   * 65,536 distinct strings that share {@code String.hashCode} ("Aa" and "BB" hash alike): a
   * seeded dictionary spreads them, where one keyed by that hash would compare each with all
   * before it (two billion comparisons).
   */
  @Test void shouldNotLetStringsOfOneHashCodeCollideWhenSeeded() {
    List<String> colliding = new ArrayList<>();
    for (int bits = 0; bits < 1 << 16; bits++) {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < 16; i++) {
        s.append((bits & (1 << i)) != 0 ? "Aa" : "BB");
      }
      colliding.add(s.toString());
    }
    assertEquals(colliding.get(0).hashCode(), colliding.get(12345).hashCode());
    StringDictionary d = StringDictionary.seeded();
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      for (int i = 0; i < colliding.size(); i++) {
        assertEquals(i, d.encode(colliding.get(i)));
      }
    });
    assertEquals(colliding.size(), d.size());
    assertEquals(777, d.encode(new String(colliding.get(777))));
  }
}

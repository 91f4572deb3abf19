package dev.freshet.executor.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyHashTest {
  /** A table keeps such keys as their hashes and XORs the mask out to get them back. */
  @Test void shouldHashIntegersAndIntRangeLongsAsValueXorMaskOfTheirSign() {
    long seed0 = new Random().nextLong();
    Random random = new Random(seed0);
    int[] edges = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE};
    for (int round = 0; round < 10_000; round++) {
      long seed = random.nextLong();
      int v = round < edges.length ? edges[round] : random.nextInt() >> random.nextInt(32);
      int expected = v ^ KeyHash.smallIntegerMask(seed, v < 0);
      assertEquals(expected, KeyHash.ofValue(v, seed), "seed " + seed0 + ", " + v);
      assertEquals(expected, KeyHash.of((long) v, seed), "seed " + seed0 + ", " + v + "L");
    }
  }
}

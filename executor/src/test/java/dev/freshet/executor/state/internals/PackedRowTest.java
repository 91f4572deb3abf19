package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PackedRowTest {
  private static final Object[] EDGES = {null, 0L, 1L, -1L, 63L, -64L, 64L, 127L, 128L,
      Long.MAX_VALUE, Long.MIN_VALUE, 0.0, -0.0, Double.NaN, Double.NEGATIVE_INFINITY,
      Double.MIN_VALUE, 1.5};

  @Test void shouldUnpackEqualRowWhenRowHoldsLongsDoublesAndNulls() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int round = 0; round < 20_000; round++) {
      Object[] row = new Object[1 + random.nextInt(round < 100 ? PackedRow.MAX_SLOTS : 9)];
      for (int i = 0; i < row.length; i++) {
        row[i] = random.nextBoolean() ? EDGES[random.nextInt(EDGES.length)]
            : random.nextBoolean() ? (Object) (random.nextLong() >> random.nextInt(64))
            : (Object) random.nextDouble();
      }
      Object packed = PackedRow.pack(row);
      assertTrue(packed instanceof byte[], "seed " + seed);
      Object[] unpacked = PackedRow.unpack(packed);
      // Double.equals tells -0.0 from 0.0 and NaN bit patterns apart from other values.
      assertArrayEquals(row, unpacked, "seed " + seed + ", round " + round);
      for (int i = 0; i < row.length; i++) {
        assertEquals(row[i] == null ? null : row[i].getClass(),
            unpacked[i] == null ? null : unpacked[i].getClass());
      }
    }
  }

  @Test void shouldTakeSixBytesWhenRowIsCountAndSum() {
    assertEquals(6, ((byte[]) PackedRow.pack(new Object[] {null, 1L, 523_417L})).length);
  }

  @Test void shouldKeepRowWhenSlotHoldsOtherType() {
    for (Object other : new Object[] {1, "a", new BigDecimal("1.5"), Set.of(1L), 1.5f, true}) {
      Object[] row = {null, 2L, other};
      assertSame(row, PackedRow.pack(row));
      assertSame(row, PackedRow.unpack(row));
    }
  }

  @Test void shouldKeepRowWhenEmptyOrLongerThanMaximum() {
    Object[] empty = {};
    assertSame(empty, PackedRow.pack(empty));
    Object[] wide = new Object[PackedRow.MAX_SLOTS + 1];
    assertSame(wide, PackedRow.pack(wide));
  }
}

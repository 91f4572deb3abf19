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

  @Test void shouldPackIntoWordTheBytesOfPackWhenTheyFitInEight() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    int words = 0;
    for (int round = 0; round < 50_000; round++) {
      Object[] row = new Object[1 + random.nextInt(round < 100 ? 40 : 5)];
      for (int i = 0; i < row.length; i++) {
        int kind = random.nextInt(10);
        row[i] = kind == 0 ? null : kind == 1 ? EDGES[random.nextInt(EDGES.length)]
            : kind == 2 ? (Object) random.nextDouble()
            : (Object) (random.nextLong() >> (20 + random.nextInt(44)));
      }
      long word = PackedRow.packWord(row);
      Object packed = PackedRow.pack(row);
      String where = "seed " + seed + ", round " + round + ": " + java.util.Arrays.toString(row);
      if (packed instanceof byte[] bytes && bytes.length <= Long.BYTES) {
        assertTrue(word != 0, where);
        for (int b = 0; b < Long.BYTES; b++) {
          assertEquals(b < bytes.length ? bytes[b] : 0, (byte) (word >>> (8 * b)), where);
        }
        Object[] unpacked = PackedRow.unpackWord(word);
        assertArrayEquals(row, unpacked, where);
        for (int i = 0; i < row.length; i++) {
          assertEquals(row[i] == null ? null : Long.class,
              unpacked[i] == null ? null : unpacked[i].getClass(), where);
        }
        words++;
      } else {
        assertEquals(0, word, where);
      }
    }
    assertTrue(words > 10_000, "rows that fit a word: " + words);
  }

  @Test void shouldFitCountAndSumInWordWhileCountBelow64AndSumBelow2To34() {
    long word = PackedRow.packWord(new Object[] {null, 1L, 523_417L});
    assertEquals(0x0000_3FF2_B202_1403L, word);
    assertArrayEquals(new Object[] {null, 1L, 523_417L}, PackedRow.unpackWord(word));
    assertTrue(PackedRow.packWord(new Object[] {null, 63L, (1L << 34) - 1}) != 0);
    assertTrue(PackedRow.packWord(new Object[] {null, 63L, -(1L << 34)}) != 0);
    assertEquals(0, PackedRow.packWord(new Object[] {null, 64L, (1L << 34) - 1}));
    assertEquals(0, PackedRow.packWord(new Object[] {null, 63L, 1L << 34}));
    assertEquals(0, PackedRow.packWord(new Object[] {null, 1L, 2.0}));
    assertEquals(0, PackedRow.packWord(new Object[] {"k", 1L, 2L}));
    assertEquals(0, PackedRow.packWord(new Object[0]));
  }
}

package dev.freshet.engine.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Which format a view's group key is kept in, and the order a batch's rows are written in. */
class ResultKeyTest {
  private static final JavaTypeFactoryImpl TYPES = new JavaTypeFactoryImpl();

  private static RelDataType type(SqlTypeName name, boolean nullable) {
    return TYPES.createTypeWithNullability(TYPES.createSqlType(name), nullable);
  }

  @Test void shouldKeepOnlyAnIntegralKeyColumnThatCannotBeNullAsALong() {
    for (SqlTypeName name : List.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT,
        SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DATE, SqlTypeName.TIMESTAMP)) {
      assertEquals(ResultKey.Format.LONG,
          ResultKey.of(new int[] {0}, List.of(type(name, false)), -1).format(), name::toString);
      assertEquals(ResultKey.Format.ENCODED,
          ResultKey.of(new int[] {0}, List.of(type(name, true)), -1).format(), name::toString);
    }
    assertEquals(ResultKey.Format.ENCODED, ResultKey.of(new int[] {0, 1},
        List.of(type(SqlTypeName.BIGINT, false), type(SqlTypeName.BIGINT, false)), -1).format());
    assertEquals(ResultKey.Format.ENCODED, ResultKey.of(new int[] {0},
        List.of(type(SqlTypeName.VARCHAR, false)), -1).format());
    assertEquals(ResultKey.Format.ENCODED, ResultKey.of(new int[] {0},
        List.of(type(SqlTypeName.DOUBLE, false)), -1).format());
  }

  @Test void shouldOrderLongKeysAsSignedNumbers() {
    ResultKey key = ResultKey.of(new int[] {0}, List.of(type(SqlTypeName.BIGINT, false)), -1);
    long[] values = {-5, 3, Long.MIN_VALUE, Long.MAX_VALUE, 0};
    byte[][] keys = new byte[values.length][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = key.encode(new Object[] {values[i]});
    }
    assertArrayEquals(new int[] {2, 0, 4, 1, 3}, key.tableOrder(keys));
  }

  /** H2 orders BINARY VARYING keys by unsigned bytes: 0x80 after 0x7F, a prefix first. */
  @Test void shouldOrderEncodedKeysAsH2OrdersBinary() {
    ResultKey key = ResultKey.of(new int[] {0}, List.of(type(SqlTypeName.VARCHAR, true)), -1);
    byte[][] keys = {{(byte) 0x80}, {0x7F}, {0x7F, 0}, {}};
    assertArrayEquals(new int[] {3, 1, 2, 0}, key.tableOrder(keys));
  }

  @Test void shouldOrderAnyBatchLikeASortOfItsKeys() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    ResultKey key = ResultKey.of(new int[] {0}, List.of(type(SqlTypeName.BIGINT, false)), -1);
    for (int round = 0; round < 50; round++) {
      int n = random.nextInt(3000);
      long[] values = new long[n];
      byte[][] keys = new byte[n][];
      for (int i = 0; i < n; i++) {
        // Runs of sorted keys among random ones, as an aggregation's partitions emit them.
        values[i] = random.nextInt(4) == 0 ? random.nextLong() : i;
        keys[i] = key.encode(new Object[] {values[i]});
      }
      int[] expected = IntStream.range(0, n).boxed()
          .sorted(Comparator.comparingLong(i -> values[i])).mapToInt(Integer::intValue).toArray();
      int[] order = key.tableOrder(keys);
      long[] sorted = Arrays.stream(order).mapToLong(i -> values[i]).toArray();
      assertArrayEquals(Arrays.stream(expected).mapToLong(i -> values[i]).toArray(), sorted,
          "seed " + seed + ", round " + round);
      assertArrayEquals(IntStream.range(0, n).toArray(), Arrays.stream(order).sorted().toArray(),
          "seed " + seed + ", round " + round + ": each position once");
    }
  }
}

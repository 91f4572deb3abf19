package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.common.types.SqlType;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each descriptor's value kind, written out. */
class ValueKindTest {
  @Test void shouldGiveEachTypeTheKindOfTheClassARowHoldsItIn() {
    Map<SqlType, ValueKind> expected = new EnumMap<>(SqlType.class);
    expected.put(SqlType.BOOLEAN, ValueKind.BOOLEAN);
    expected.put(SqlType.TINYINT, ValueKind.INT);
    expected.put(SqlType.SMALLINT, ValueKind.INT);
    expected.put(SqlType.INTEGER, ValueKind.INT);
    expected.put(SqlType.BIGINT, ValueKind.LONG);
    expected.put(SqlType.REAL, ValueKind.DOUBLE);
    expected.put(SqlType.DOUBLE, ValueKind.DOUBLE);
    expected.put(SqlType.DECIMAL, ValueKind.DECIMAL);
    expected.put(SqlType.CHAR, ValueKind.STRING);
    expected.put(SqlType.VARCHAR, ValueKind.STRING);
    expected.put(SqlType.BINARY, ValueKind.OTHER);
    expected.put(SqlType.VARBINARY, ValueKind.OTHER);
    expected.put(SqlType.DATE, ValueKind.DATE);
    expected.put(SqlType.TIME, ValueKind.DATE);
    expected.put(SqlType.TIMESTAMP, ValueKind.TIMESTAMP);
    expected.put(SqlType.TIME_WITH_LOCAL_TIME_ZONE, ValueKind.OTHER);
    expected.put(SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE, ValueKind.OTHER);
    expected.put(SqlType.INTERVAL_YEAR_MONTH, ValueKind.OTHER);
    expected.put(SqlType.INTERVAL_DAY_SECOND, ValueKind.OTHER);
    for (SqlType type : SqlType.values()) {
      assertEquals(expected.get(type), ValueKind.of(type), type.name());
    }
    assertEquals(ValueKind.OTHER, ValueKind.of(null));
  }
}

package dev.freshet.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.planner.FreshetTypeSystem;
import dev.freshet.sql.FreshetSqlParser;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class DynamicParametersTest {
  private final RelDataTypeFactory types = new JavaTypeFactoryImpl(FreshetTypeSystem.INSTANCE);

  @Test void shouldTakeMarkersOnlyAsOperandsOfAComparisonWithSomethingElse() throws Exception {
    assertTrue(compared("SELECT c FROM v WHERE k = ?"));
    assertTrue(compared("SELECT c FROM v WHERE ? < k AND s <> ?"));
    assertTrue(compared("SELECT a.c FROM v a JOIN w b ON a.k = b.k AND b.n >= ?"));
    assertFalse(compared("SELECT c FROM v"));
    assertFalse(compared("SELECT c FROM v WHERE ? = ?"));
    assertFalse(compared("SELECT ? FROM v"));
    assertFalse(compared("SELECT c FROM v WHERE k = ? + 1"));
    assertFalse(compared("SELECT c FROM v WHERE k IN (?, ?)"));
    assertFalse(compared("SELECT c FROM v WHERE k BETWEEN ? AND 3"));
    assertFalse(compared("SELECT c FROM v WHERE k = ? LIMIT ?"));
  }

  @Test void shouldConvertValuesThatFitTheirMarkersToCalcitesRepresentation() {
    assertEquals(Map.of("?0", (byte) -4, "?1", (short) 300, "?2", 70000, "?3", 5L),
        values(List.of(type(SqlTypeName.TINYINT), type(SqlTypeName.SMALLINT),
            type(SqlTypeName.INTEGER), type(SqlTypeName.BIGINT)), -4L, 300L, 70000L, 5L));
    assertEquals(Map.of("?0", 1.5, "?1", 3.0, "?2", new BigDecimal("12.20"), "?3", "ann",
        "?4", true),
        values(List.of(type(SqlTypeName.DOUBLE), type(SqlTypeName.DOUBLE),
            types.createSqlType(SqlTypeName.DECIMAL, 10, 2), type(SqlTypeName.VARCHAR),
            type(SqlTypeName.BOOLEAN)), 1.5, 3L, new BigDecimal("12.20"), "ann", true));
    assertEquals(Map.of("?0", 20455, "?1", 36672345, "?2", -1L),
        values(List.of(type(SqlTypeName.DATE), types.createSqlType(SqlTypeName.TIME, 3),
            types.createSqlType(SqlTypeName.TIMESTAMP, 3)), LocalDate.of(2026, 1, 2),
            LocalTime.of(10, 11, 12, 345_000_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000)));
  }

  @Test void shouldLeaveToTheLiteralPathEveryValueThatDoesNotFitExactly() {
    assertNull(values(List.of(type(SqlTypeName.TINYINT)), 300L));
    assertNull(values(List.of(type(SqlTypeName.INTEGER)), 5_000_000_000L));
    assertNull(values(List.of(type(SqlTypeName.INTEGER)), "5"));
    assertNull(values(List.of(type(SqlTypeName.BIGINT)), new BigDecimal("2.5")));
    assertNull(values(List.of(type(SqlTypeName.DOUBLE)), new BigDecimal("2.5")));
    assertNull(values(List.of(type(SqlTypeName.DOUBLE)), (1L << 53) + 1));
    assertNull(values(List.of(types.createSqlType(SqlTypeName.DECIMAL, 4, 2)),
        new BigDecimal("12.251")));
    assertNull(values(List.of(types.createSqlType(SqlTypeName.DECIMAL, 4, 2)), 100L));
    assertNull(values(List.of(type(SqlTypeName.VARCHAR)), 5L));
    assertNull(values(List.of(type(SqlTypeName.CHAR)), "a"));
    assertNull(values(List.of(type(SqlTypeName.BIGINT)), (Object) null));
    assertNull(values(List.of(type(SqlTypeName.BIGINT), type(SqlTypeName.BIGINT)), 1L));
  }

  private static boolean compared(String sql) throws Exception {
    return DynamicParameters.comparedOnly(FreshetSqlParser.parse(sql));
  }

  private RelDataType type(SqlTypeName name) {
    return types.createSqlType(name);
  }

  private static Map<String, Object> values(List<RelDataType> types, Object... values) {
    return DynamicParameters.values(types, Arrays.asList(values));
  }
}

package dev.freshet.planner.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.operators.ValueKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * {@link ExecPlanBuilder#valueKind}: every Calcite type Freshet plans gets the value kind it had
 * when the planner switched over {@link SqlTypeName} (written out here); the others OTHER.
 */
class ValueKindOfCalciteTypeTest {
  @Test void shouldGiveEachCalciteTypeTheKindOfItsValues() {
    Map<SqlTypeName, ValueKind> expected = new EnumMap<>(SqlTypeName.class);
    expected.put(SqlTypeName.BOOLEAN, ValueKind.BOOLEAN);
    expected.put(SqlTypeName.TINYINT, ValueKind.INT);
    expected.put(SqlTypeName.SMALLINT, ValueKind.INT);
    expected.put(SqlTypeName.INTEGER, ValueKind.INT);
    expected.put(SqlTypeName.BIGINT, ValueKind.LONG);
    expected.put(SqlTypeName.REAL, ValueKind.DOUBLE);
    expected.put(SqlTypeName.FLOAT, ValueKind.DOUBLE);
    expected.put(SqlTypeName.DOUBLE, ValueKind.DOUBLE);
    expected.put(SqlTypeName.DECIMAL, ValueKind.DECIMAL);
    expected.put(SqlTypeName.CHAR, ValueKind.STRING);
    expected.put(SqlTypeName.VARCHAR, ValueKind.STRING);
    expected.put(SqlTypeName.TIMESTAMP, ValueKind.TIMESTAMP);
    expected.put(SqlTypeName.DATE, ValueKind.DATE);
    expected.put(SqlTypeName.TIME, ValueKind.DATE);
    RelDataTypeFactory types = new JavaTypeFactoryImpl();
    List<SqlTypeName> others = List.of(SqlTypeName.BINARY, SqlTypeName.VARBINARY,
        SqlTypeName.TIME_WITH_LOCAL_TIME_ZONE, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
        SqlTypeName.ANY, SqlTypeName.NULL, SqlTypeName.GEOMETRY);
    for (SqlTypeName name : expected.keySet()) {
      assertEquals(expected.get(name), ExecPlanBuilder.valueKind(types.createSqlType(name)),
          name.name());
    }
    for (SqlTypeName name : others) {
      assertEquals(ValueKind.OTHER, ExecPlanBuilder.valueKind(types.createSqlType(name)),
          name.name());
    }
    assertEquals(ValueKind.OTHER, ExecPlanBuilder.valueKind(types.createSqlIntervalType(
        new SqlIntervalQualifier(TimeUnit.DAY, null, SqlParserPos.ZERO))));
  }
}

package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.planner.logical.conversion.LogicalTypes;
import dev.freshet.testkit.SparkTest;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Freshet's types on Spark: the approximate numerics keep their precision. */
@SparkTest
class SparkTypesTest {
  private final RelDataTypeFactory types = new JavaTypeFactoryImpl();

  @Test void shouldGiveFloatDoublePrecisionAsCalciteDoesAndRealSinglePrecision() throws Exception {
    assertEquals(DataTypes.DoubleType,
        SparkTypes.of(LogicalTypes.of(types.createSqlType(SqlTypeName.FLOAT))));
    assertEquals(DataTypes.DoubleType,
        SparkTypes.of(LogicalTypes.of(types.createSqlType(SqlTypeName.DOUBLE))));
    assertEquals(DataTypes.FloatType,
        SparkTypes.of(LogicalTypes.of(types.createSqlType(SqlTypeName.REAL))));
  }
}

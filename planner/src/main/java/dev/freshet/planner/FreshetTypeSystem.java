package dev.freshet.planner;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite type system with Spark's aggregate result types.
 *
 * <p>{@code SUM} of a TINYINT, SMALLINT, INTEGER or BIGINT column is a BIGINT (Calcite would keep
 * the argument's type and overflow early), {@code AVG} of an exact integer column is a DOUBLE
 * (Calcite would truncate to an integer), and {@code AVG} of a {@code DECIMAL(p, s)} column is a
 * {@code DECIMAL(p + 4, s + 4)}, within the maximum precision and scale (Calcite would cut the
 * average to the argument's scale). Strings of different lengths unify to VARCHAR, not to a
 * blank-padded CHAR.
 */
public final class FreshetTypeSystem extends RelDataTypeSystemImpl {
  /** The single instance. */
  public static final FreshetTypeSystem INSTANCE = new FreshetTypeSystem();

  private FreshetTypeSystem() {
  }

  @Override public RelDataType deriveSumType(RelDataTypeFactory typeFactory,
      RelDataType argumentType) {
    if (SqlTypeUtil.isExactNumeric(argumentType) && !SqlTypeUtil.isDecimal(argumentType)) {
      return typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
    }
    return super.deriveSumType(typeFactory, argumentType);
  }

  @Override public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory,
      RelDataType argumentType) {
    if (SqlTypeUtil.isExactNumeric(argumentType) && !SqlTypeUtil.isDecimal(argumentType)) {
      return typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
    }
    if (SqlTypeUtil.isDecimal(argumentType)) {
      return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DECIMAL,
          Math.min(argumentType.getPrecision() + 4, getMaxPrecision(SqlTypeName.DECIMAL)),
          Math.min(argumentType.getScale() + 4, getMaxScale(SqlTypeName.DECIMAL))),
          argumentType.isNullable());
    }
    return super.deriveAvgAggType(typeFactory, argumentType);
  }

  /**
   * String literals of different lengths ({@code CASE ... THEN 'big' ELSE 'small' END},
   * {@code UNION}) unify to VARCHAR, as Spark's strings: standard SQL's CHAR(5) would pad
   * {@code 'big'} to {@code 'big  '}.
   */
  @Override public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }
}

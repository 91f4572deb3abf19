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
 * average to the argument's scale).
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
}

package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.SqlTypes;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * One column of a statement's result, described for JDBC.
 *
 * @param name column label
 * @param jdbcType a {@link java.sql.Types} constant
 * @param typeName SQL type name, e.g. {@code VARCHAR}
 * @param precision precision or length, or -1 if not applicable
 * @param scale scale, or -1 if not applicable
 * @param nullable whether values may be null
 * @param displaySize characters needed to show a value
 * @param valueClass Java class of values in result rows (Calcite's internal representation:
 *     TIMESTAMP as {@code Long} milliseconds, DATE as {@code Integer} days)
 */
public record ResultColumn(String name, int jdbcType, String typeName, int precision, int scale,
    boolean nullable, int displaySize, Class<?> valueClass) {
  public ResultColumn {
    requireNonNull(name, "name");
    requireNonNull(typeName, "typeName");
    requireNonNull(valueClass, "valueClass");
  }

  /** A VARCHAR column, for results that the engine makes itself (EXPLAIN, SHOW). */
  public static ResultColumn varchar(String name, int displaySize) {
    return new ResultColumn(name, java.sql.Types.VARCHAR, "VARCHAR", displaySize, -1, true,
        displaySize, String.class);
  }

  /** A nullable BIGINT column, for results that the engine makes itself (SHOW). */
  public static ResultColumn bigint(String name) {
    return new ResultColumn(name, java.sql.Types.BIGINT, "BIGINT", 19, 0, true, 20, Long.class);
  }

  /** This column, its values possibly null. */
  public ResultColumn asNullable() {
    return new ResultColumn(name, jdbcType, typeName, precision, scale, true, displaySize,
        valueClass);
  }

  /** This column, its values never null. */
  public ResultColumn asNotNull() {
    return new ResultColumn(name, jdbcType, typeName, precision, scale, false, displaySize,
        valueClass);
  }

  /** Describes a field of a Calcite row type. */
  public static ResultColumn of(RelDataTypeField field) {
    RelDataType type = field.getType();
    int precision = type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
        ? -1 : type.getPrecision();
    int scale = type.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? -1 : type.getScale();
    // The class of the values in a row, as the type's descriptor says; a type JDBC describes
    // only generically (binaries, intervals, zoned times) has Object values of 40 characters.
    SqlType sqlType = SqlTypes.of(type);
    int displaySize = sqlType == null ? 0 : sqlType.displaySize(precision);
    Class<?> valueClass = displaySize > 0 ? sqlType.javaClass() : Object.class;
    if (displaySize == 0) {
      displaySize = 40;
    }
    return new ResultColumn(field.getName(), type.getSqlTypeName().getJdbcOrdinal(),
        type.getSqlTypeName().getName(), precision, scale, type.isNullable(), displaySize,
        valueClass);
  }
}

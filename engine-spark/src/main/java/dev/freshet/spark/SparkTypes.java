package dev.freshet.spark;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.SqlTypes;
import dev.freshet.spark.types.SparkDataTypes;
import java.sql.SQLException;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's types for Freshet's Calcite types, as {@link SparkDataTypes} maps each type's
 * descriptor. TIMESTAMP is Spark's {@code TimestampType}, an instant, which reads back as the
 * wall-clock time written because the session's time zone is UTC ({@link SparkSessions}).
 *
 * <pre>{@code
 * StructType schema = SparkTypes.schemaOf(stream.getRowType(typeFactory));
 * }</pre>
 */
public final class SparkTypes {
  private SparkTypes() {
  }

  /** The Spark type of a Freshet column or expression type ({@link SparkDataTypes}). */
  public static DataType of(RelDataType type) throws SQLException {
    SqlType sqlType = SqlTypes.of(type);
    DataType dataType = sqlType == null ? null
        : SparkDataTypes.of(sqlType, type.getPrecision(), type.getScale());
    if (dataType == null) {
      throw SparkErrors.notYetOnSpark("A column or expression of type " + type);
    }
    return dataType;
  }

  /** The Spark schema of a row type, with the same column names and nullability. */
  public static StructType schemaOf(RelDataType rowType) throws SQLException {
    StructField[] fields = new StructField[rowType.getFieldCount()];
    for (RelDataTypeField field : rowType.getFieldList()) {
      fields[field.getIndex()] = DataTypes.createStructField(field.getName(),
          of(field.getType()), field.getType().isNullable());
    }
    return DataTypes.createStructType(fields);
  }
}

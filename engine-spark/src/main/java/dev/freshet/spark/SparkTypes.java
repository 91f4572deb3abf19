package dev.freshet.spark;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.logical.LogicalField;
import dev.freshet.planner.logical.LogicalType;
import dev.freshet.spark.types.SparkDataTypes;
import java.sql.SQLException;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's types for Freshet's column and expression types, as {@link SparkDataTypes} maps each
 * type's descriptor. TIMESTAMP is Spark's {@code TimestampType}, an instant, which reads back as
 * the wall-clock time written because the session's time zone is UTC ({@link SparkSessions}).
 *
 * <pre>{@code
 * StructType schema = SparkTypes.schemaOf(stream.columns());
 * }</pre>
 */
public final class SparkTypes {
  private SparkTypes() {
  }

  /** The Spark type of a Freshet column or expression type ({@link SparkDataTypes}). */
  public static DataType of(LogicalType type) throws SQLException {
    SqlType sqlType = type.sqlType();
    DataType dataType = sqlType == null ? null
        : SparkDataTypes.of(sqlType, type.precision(), type.scale());
    if (dataType == null) {
      throw SparkErrors.notYetOnSpark("A column or expression of type " + type.name());
    }
    return dataType;
  }

  /** The Spark schema of {@code columns}, with the same column names and nullability. */
  public static StructType schemaOf(List<LogicalField> columns) throws SQLException {
    StructField[] fields = new StructField[columns.size()];
    for (int i = 0; i < fields.length; i++) {
      LogicalField field = columns.get(i);
      fields[i] = DataTypes.createStructField(field.name(), of(field.type()),
          field.type().nullable());
    }
    return DataTypes.createStructType(fields);
  }
}

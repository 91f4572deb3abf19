package dev.freshet.spark.types;

import dev.freshet.common.types.SqlType;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;

/**
 * The one place where a Freshet type becomes Spark's: the descriptor names its Spark type
 * ({@link SqlType#sparkTypeName}), and this maps the name to Spark's {@link DataType}. Both the
 * translation of queries ({@code SparkTypes}) and the schema of a stream read by Spark
 * ({@code StreamSchema}) ask here.
 *
 * <pre>{@code
 * SparkDataTypes.of(SqlType.BIGINT, 19, 0);     // LongType
 * SparkDataTypes.of(SqlType.DECIMAL, 10, 2);    // DecimalType(10, 2)
 * SparkDataTypes.of(SqlType.TIME, 0, 0);        // null: Spark has no TIME
 * }</pre>
 *
 * <p>TIMESTAMP is Spark's {@code TimestampType}, an instant, which reads back as the wall-clock
 * time written because the session's time zone is UTC.
 */
public final class SparkDataTypes {
  private static final Map<String, DataType> BY_NAME = Map.of(
      "boolean", DataTypes.BooleanType,
      "tinyint", DataTypes.ByteType,
      "smallint", DataTypes.ShortType,
      "int", DataTypes.IntegerType,
      "bigint", DataTypes.LongType,
      "float", DataTypes.FloatType,
      "double", DataTypes.DoubleType,
      "string", DataTypes.StringType,
      "date", DataTypes.DateType,
      "timestamp", DataTypes.TimestampType);

  private SparkDataTypes() {
  }

  /**
   * Spark's type for {@code type} of {@code precision} and {@code scale} (for DECIMAL), or null
   * if Freshet does not run the type on Spark, or a DECIMAL's precision and scale are beyond
   * Spark's 38 digits or not given (precision below 1).
   */
  public static DataType of(SqlType type, int precision, int scale) {
    String name = type.sparkTypeName();
    if (name == null) {
      return null;
    }
    if (type == SqlType.DECIMAL) {
      if (precision < 1 || precision > DecimalType.MAX_PRECISION() || scale < 0
          || scale > precision) {
        return null;
      }
      return DataTypes.createDecimalType(precision, scale);
    }
    return BY_NAME.get(name);
  }
}

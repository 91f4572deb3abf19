package dev.freshet.spark;

import java.sql.SQLException;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's types for Freshet's SQL types. TIMESTAMP is Spark's {@code TimestampType}, an instant,
 * which reads back as the wall-clock time written because the session's time zone is UTC
 * ({@link SparkSessions}).
 *
 * <pre>{@code
 * StructType schema = SparkTypes.schemaOf(stream.getRowType(typeFactory));
 * }</pre>
 */
public final class SparkTypes {
  private SparkTypes() {
  }

  /** The Spark type of a Freshet column or expression type. */
  public static DataType of(RelDataType type) throws SQLException {
    switch (type.getSqlTypeName()) {
      case BOOLEAN: return DataTypes.BooleanType;
      case TINYINT: return DataTypes.ByteType;
      case SMALLINT: return DataTypes.ShortType;
      case INTEGER: return DataTypes.IntegerType;
      case BIGINT: return DataTypes.LongType;
      case REAL: return DataTypes.FloatType;
      // Calcite's FLOAT has double precision, as the executor's rows and the Freshet source have.
      case FLOAT:
      case DOUBLE: return DataTypes.DoubleType;
      case DECIMAL: return DataTypes.createDecimalType(type.getPrecision(), type.getScale());
      case CHAR:
      case VARCHAR: return DataTypes.StringType;
      case DATE: return DataTypes.DateType;
      case TIMESTAMP: return DataTypes.TimestampType;
      default:
        throw SparkErrors.notYetOnSpark("A column or expression of type " + type);
    }
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

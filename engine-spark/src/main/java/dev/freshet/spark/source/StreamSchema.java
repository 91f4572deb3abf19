package dev.freshet.spark.source;

import dev.freshet.common.types.SqlType;
import dev.freshet.executor.source.StreamColumn;
import dev.freshet.spark.types.SparkDataTypes;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark schema of a Freshet stream, from the SQL types its {@link StreamColumn}s record.
 *
 * <pre>{@code
 * StreamSchema.of("CLICKS", List.of(new StreamColumn("TS", "TIMESTAMP(3) NOT NULL")));
 * // struct<TS: timestamp not null>
 * }</pre>
 *
 * <p>Types map by their name: CHAR and VARCHAR to string, TINYINT, SMALLINT, INTEGER and
 * BIGINT to byte, short, int and long, REAL to float, FLOAT and DOUBLE to double (Calcite's
 * FLOAT has double precision), DECIMAL(p, s) to decimal(p, s), BOOLEAN to boolean, TIMESTAMP(n)
 * (with or without local time zone) to timestamp and DATE to date. A column is nullable unless
 * its type ends in {@code NOT NULL}.
 */
final class StreamSchema {
  private static final String NOT_NULL = " NOT NULL";

  private StreamSchema() {
  }

  /**
   * The schema of stream {@code stream}'s columns.
   *
   * @throws SQLException (0A000) naming the first column whose type Spark cannot read here
   */
  static StructType of(String stream, List<StreamColumn> columns) throws SQLException {
    StructField[] fields = new StructField[columns.size()];
    for (int i = 0; i < fields.length; i++) {
      StreamColumn column = columns.get(i);
      String type = column.type().strip();
      boolean nullable = !type.toUpperCase(Locale.ROOT).endsWith(NOT_NULL);
      String base = nullable ? type : type.substring(0, type.length() - NOT_NULL.length()).strip();
      DataType dataType = dataType(base);
      if (dataType == null) {
        throw SourceErrors.unsupportedType(stream, column.name(), column.type());
      }
      fields[i] = DataTypes.createStructField(column.name(), dataType, nullable);
    }
    return DataTypes.createStructType(fields);
  }

  /**
   * Spark's type for SQL type {@code type} without NOT NULL ({@link SparkDataTypes}), or null
   * if it has none here.
   */
  private static DataType dataType(String type) {
    int paren = type.indexOf('(');
    String name = (paren < 0 ? type : type.substring(0, paren)).strip();
    SqlType sqlType = SqlType.forName(name);
    if (sqlType == null) {
      return null;
    }
    if (sqlType != SqlType.DECIMAL) {
      return SparkDataTypes.of(sqlType, 0, 0);
    }
    // DECIMAL(p, s): null if unparsable, or without its precision.
    if (paren < 0 || !type.endsWith(")")) {
      return null;
    }
    String[] parts = type.substring(paren + 1, type.length() - 1).split(",");
    try {
      int precision = Integer.parseInt(parts[0].strip());
      int scale = parts.length > 1 ? Integer.parseInt(parts[1].strip()) : 0;
      return parts.length > 2 ? null : SparkDataTypes.of(sqlType, precision, scale);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}

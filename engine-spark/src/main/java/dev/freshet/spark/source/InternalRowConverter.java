package dev.freshet.spark.source;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Turns a Freshet row ({@code Object[]}, values as the executor keeps them) into Spark's
 * {@link InternalRow} of a {@link StreamSchema}.
 *
 * <pre>{@code
 * InternalRowConverter converter = new InternalRowConverter(schema);
 * InternalRow row = converter.convert(new Object[] {"a", 1_700_000_000_000L});
 * }</pre>
 *
 * <p>Freshet keeps a TIMESTAMP as epoch milliseconds (a {@code Long}) and a DATE as epoch days;
 * Spark wants microseconds and days. Strings become {@link UTF8String}s and decimals Spark's
 * {@link Decimal} of the column's precision and scale. Numbers are read through {@link Number},
 * so a narrower boxed type than the column's (an Integer in a BIGINT column) converts too. A
 * null stays null. The conversion of each column is chosen once, here.
 */
final class InternalRowConverter {
  /** The conversion of one column's non-null values. */
  private interface ColumnConverter {
    Object toSpark(Object value);
  }

  private final ColumnConverter[] columns;

  InternalRowConverter(StructType schema) {
    columns = new ColumnConverter[schema.fields().length];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = converter(schema.fields()[i].dataType());
    }
  }

  /** The row as Spark's internal row; {@code row} is not changed nor kept. */
  InternalRow convert(Object[] row) {
    Object[] values = new Object[columns.length];
    for (int i = 0; i < values.length; i++) {
      Object value = row[i];
      values[i] = value == null ? null : columns[i].toSpark(value);
    }
    return new GenericInternalRow(values);
  }

  private static ColumnConverter converter(DataType type) {
    if (type instanceof DecimalType decimal) {
      int precision = decimal.precision();
      int scale = decimal.scale();
      return value -> Decimal.apply(decimal(value).setScale(scale, RoundingMode.HALF_UP),
          precision, scale);
    }
    if (type.equals(DataTypes.StringType)) {
      return value -> UTF8String.fromString(value.toString());
    }
    if (type.equals(DataTypes.TimestampType)) {
      return value -> Math.multiplyExact(((Number) value).longValue(), 1000L);
    }
    if (type.equals(DataTypes.DateType) || type.equals(DataTypes.IntegerType)) {
      return value -> ((Number) value).intValue();
    }
    if (type.equals(DataTypes.LongType)) {
      return value -> ((Number) value).longValue();
    }
    if (type.equals(DataTypes.DoubleType)) {
      return value -> ((Number) value).doubleValue();
    }
    if (type.equals(DataTypes.FloatType)) {
      return value -> ((Number) value).floatValue();
    }
    if (type.equals(DataTypes.ShortType)) {
      return value -> ((Number) value).shortValue();
    }
    if (type.equals(DataTypes.ByteType)) {
      return value -> ((Number) value).byteValue();
    }
    if (type.equals(DataTypes.BooleanType)) {
      return value -> value;
    }
    throw new IllegalArgumentException("no conversion to " + type);
  }

  private static BigDecimal decimal(Object value) {
    return value instanceof BigDecimal big ? big : new BigDecimal(value.toString());
  }
}

package dev.freshet.spark.source;

import dev.freshet.spark.types.SparkValues;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
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
 * null stays null. The conversion of each column ({@link SparkValues}) is chosen once, here.
 */
final class InternalRowConverter {
  private final SparkValues[] columns;

  InternalRowConverter(StructType schema) {
    columns = new SparkValues[schema.fields().length];
    for (int i = 0; i < columns.length; i++) {
      DataType type = schema.fields()[i].dataType();
      columns[i] = SparkValues.of(type);
      if (columns[i] == null) {
        throw new IllegalArgumentException("no conversion to " + type);
      }
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
}

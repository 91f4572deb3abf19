package dev.freshet.spark;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Converts the rows of a translated query's result, as {@code foreachBatch} collects them, into
 * Freshet's values, as its own executor's rows hold them (Calcite's internal representation):
 * TIMESTAMP as a {@code Long} of epoch milliseconds, DATE as an {@code Integer} of days since
 * 1970-01-01, DECIMAL as {@code BigDecimal}, TINYINT to BIGINT as {@code Byte} to {@code Long},
 * REAL as {@code Float}, FLOAT and DOUBLE as {@code Double}, BOOLEAN and character types as
 * {@code Boolean} and {@code String}, NULL as null.
 *
 * <pre>{@code
 * SparkRows toFreshet = SparkRows.of(query);          // once per query
 * List<Object[]> rows = toFreshet.convert(batchRows); // each batch, in foreachBatch
 * }</pre>
 *
 * <p>Dates and timestamps go back through Spark's own inverse of how it made them
 * ({@code DateTimeUtils.fromJavaDate}/{@code fromJavaTimestamp}): Spark makes a
 * {@code java.sql.Date} at midnight in the JVM's default time zone (and rebases dates before
 * 1582 to the Julian calendar), so dividing its milliseconds by a day's is off by one day east
 * of UTC. With {@code spark.sql.datetime.java8API.enabled} the values are {@code Instant} and
 * {@code LocalDate}, which are converted as such.
 */
public final class SparkRows {
  /** How a column's Spark value becomes Freshet's. */
  private enum Conversion {
    /** The same Java class and value in both (numbers, strings, booleans, BigDecimal). */
    SAME,
    TIMESTAMP,
    DATE
  }

  private final Conversion[] conversions;

  private SparkRows(Conversion[] conversions) {
    this.conversions = conversions;
  }

  /** The conversion of {@code query}'s result rows, key and admitted columns included. */
  public static SparkRows of(SparkQuery query) {
    return of(query.result().schema());
  }

  /**
   * The conversion of rows of {@code schema}, whose types are those {@link SparkTypes} gives
   * (the translation refuses other types, with SQLSTATE 0A000).
   *
   * @throws IllegalArgumentException for a column of another type
   */
  public static SparkRows of(StructType schema) {
    StructField[] fields = schema.fields();
    Conversion[] conversions = new Conversion[fields.length];
    for (int i = 0; i < fields.length; i++) {
      conversions[i] = conversion(fields[i]);
    }
    return new SparkRows(conversions);
  }

  private static Conversion conversion(StructField field) {
    DataType type = field.dataType();
    if (type instanceof TimestampType) {
      return Conversion.TIMESTAMP;
    }
    if (type instanceof DateType) {
      return Conversion.DATE;
    }
    if (type instanceof BooleanType || type instanceof ByteType || type instanceof ShortType
        || type instanceof IntegerType || type instanceof LongType || type instanceof FloatType
        || type instanceof DoubleType || type instanceof DecimalType
        || type instanceof StringType) {
      return Conversion.SAME;
    }
    throw new IllegalArgumentException("Column " + field.name() + " is of Spark's type "
        + type.simpleString() + ", which no Freshet type translates to");
  }

  /** {@code row}'s values as Freshet's, in a new array. */
  public Object[] convert(Row row) {
    if (row.length() != conversions.length) {
      throw new IllegalArgumentException("A row of " + row.length() + " columns; the result has "
          + conversions.length);
    }
    Object[] values = new Object[conversions.length];
    for (int i = 0; i < values.length; i++) {
      Object v = row.get(i);
      values[i] = v == null ? null : convert(conversions[i], v);
    }
    return values;
  }

  /** Each of {@code rows} as {@link #convert(Row)} makes it, in order. */
  public List<Object[]> convert(List<Row> rows) {
    List<Object[]> result = new ArrayList<>(rows.size());
    for (Row row : rows) {
      result.add(convert(row));
    }
    return result;
  }

  private static Object convert(Conversion conversion, Object v) {
    switch (conversion) {
      case TIMESTAMP:
        // Microseconds; Freshet's TIMESTAMP(3) has milliseconds (floor, as before 1970 too).
        long micros = v instanceof Timestamp t ? DateTimeUtils.fromJavaTimestamp(t)
            : DateTimeUtils.instantToMicros((Instant) v);
        return Math.floorDiv(micros, 1000L);
      case DATE:
        return v instanceof Date d ? DateTimeUtils.fromJavaDate(d)
            : Math.toIntExact(((LocalDate) v).toEpochDay());
      default:
        return v;
    }
  }
}

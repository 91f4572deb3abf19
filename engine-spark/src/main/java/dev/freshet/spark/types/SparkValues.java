package dev.freshet.spark.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * How the values of one column of a Spark type cross between Freshet and Spark, both ways, in
 * one place: into Spark's internal rows (a Freshet stream read by Spark) and out of the rows a
 * Spark query returns (its result, back in Freshet). Chosen once per column; each conversion is
 * of a non-null value.
 *
 * <pre>{@code
 * SparkValues ts = SparkValues.of(DataTypes.TimestampType);
 * ts.toSpark(1_700_000_000_000L);                          // 1_700_000_000_000_000L micros
 * ts.toFreshet(java.sql.Timestamp.from(Instant.EPOCH));   // 0L millis
 * }</pre>
 *
 * <p>Freshet keeps a TIMESTAMP as epoch milliseconds (a {@code Long}) and a DATE as epoch days
 * (an {@code Integer}); Spark's internal rows hold microseconds and days, strings as
 * {@link UTF8String} and decimals as Spark's {@link Decimal} of the column's precision and scale.
 * Into Spark, numbers are read through {@link Number}, so a narrower boxed type than the
 * column's (an Integer in a BIGINT column) converts too.
 *
 * <p>Out of Spark, dates and timestamps go back through Spark's own inverse of how it made them
 * ({@code DateTimeUtils.fromJavaDate}/{@code fromJavaTimestamp}): Spark makes a
 * {@code java.sql.Date} at midnight in the JVM's default time zone (and rebases dates before
 * 1582 to the Julian calendar), so dividing its milliseconds by a day's is off by one day east
 * of UTC. With {@code spark.sql.datetime.java8API.enabled} the values are {@code Instant} and
 * {@code LocalDate}, which are converted as such. Other values are the same in both.
 */
public abstract class SparkValues {
  private SparkValues() {
  }

  /** Non-null {@code value}, as a Freshet row holds it, as Spark's internal row holds it. */
  public abstract Object toSpark(Object value);

  /** Non-null {@code value}, as a Spark {@code Row} holds it, as a Freshet row holds it. */
  public Object toFreshet(Object value) {
    return value;
  }

  /**
   * The conversions of a column of {@code type}, or null if no Freshet type translates to it
   * ({@link SparkDataTypes} gives the types that do).
   */
  public static SparkValues of(DataType type) {
    if (type instanceof DecimalType decimal) {
      return new Decimals(decimal.precision(), decimal.scale());
    }
    if (type.equals(DataTypes.TimestampType)) {
      return TIMESTAMPS;
    }
    if (type.equals(DataTypes.DateType)) {
      return DATES;
    }
    if (type.equals(DataTypes.StringType)) {
      return STRINGS;
    }
    if (type.equals(DataTypes.IntegerType)) {
      return numbers(v -> v.intValue());
    }
    if (type.equals(DataTypes.LongType)) {
      return numbers(v -> v.longValue());
    }
    if (type.equals(DataTypes.DoubleType)) {
      return numbers(v -> v.doubleValue());
    }
    if (type.equals(DataTypes.FloatType)) {
      return numbers(v -> v.floatValue());
    }
    if (type.equals(DataTypes.ShortType)) {
      return numbers(v -> v.shortValue());
    }
    if (type.equals(DataTypes.ByteType)) {
      return numbers(v -> v.byteValue());
    }
    if (type.equals(DataTypes.BooleanType)) {
      return BOOLEANS;
    }
    return null;
  }

  private static final SparkValues BOOLEANS = new SparkValues() {
    @Override public Object toSpark(Object value) {
      return value;
    }
  };

  private static final SparkValues STRINGS = new SparkValues() {
    @Override public Object toSpark(Object value) {
      return UTF8String.fromString(value.toString());
    }
  };

  private static final SparkValues TIMESTAMPS = new SparkValues() {
    @Override public Object toSpark(Object value) {
      return Math.multiplyExact(((Number) value).longValue(), 1000L);
    }

    @Override public Object toFreshet(Object value) {
      // Microseconds; Freshet's TIMESTAMP(3) has milliseconds (floor, as before 1970 too).
      long micros = value instanceof Timestamp t ? DateTimeUtils.fromJavaTimestamp(t)
          : DateTimeUtils.instantToMicros((Instant) value);
      return Math.floorDiv(micros, 1000L);
    }
  };

  private static final SparkValues DATES = new SparkValues() {
    @Override public Object toSpark(Object value) {
      return ((Number) value).intValue();
    }

    @Override public Object toFreshet(Object value) {
      return value instanceof Date d ? DateTimeUtils.fromJavaDate(d)
          : Math.toIntExact(((LocalDate) value).toEpochDay());
    }
  };

  /** A number narrowed or widened to the column's boxed type. */
  private interface Narrowing {
    Object apply(Number value);
  }

  private static SparkValues numbers(Narrowing narrowing) {
    return new SparkValues() {
      @Override public Object toSpark(Object value) {
        return narrowing.apply((Number) value);
      }
    };
  }

  /** DECIMAL(p, s): rounded half up to the column's scale, as Spark's {@link Decimal}. */
  private static final class Decimals extends SparkValues {
    private final int precision;
    private final int scale;

    Decimals(int precision, int scale) {
      this.precision = precision;
      this.scale = scale;
    }

    @Override public Object toSpark(Object value) {
      BigDecimal d = value instanceof BigDecimal big ? big : new BigDecimal(value.toString());
      return Decimal.apply(d.setScale(scale, RoundingMode.HALF_UP), precision, scale);
    }
  }
}

package dev.freshet.spark;

import dev.freshet.spark.types.SparkValues;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

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
 * <p>Each column's values convert as {@link SparkValues#toFreshet} converts them: dates and
 * timestamps through Spark's own inverse of how it made them.
 */
public final class SparkRows {
  private final SparkValues[] conversions;

  private SparkRows(SparkValues[] conversions) {
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
    SparkValues[] conversions = new SparkValues[fields.length];
    for (int i = 0; i < fields.length; i++) {
      conversions[i] = SparkValues.of(fields[i].dataType());
      if (conversions[i] == null) {
        throw new IllegalArgumentException("Column " + fields[i].name() + " is of Spark's type "
            + fields[i].dataType().simpleString() + ", which no Freshet type translates to");
      }
    }
    return new SparkRows(conversions);
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
      values[i] = v == null ? null : conversions[i].toFreshet(v);
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
}

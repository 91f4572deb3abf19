package dev.freshet.jdbc;

import dev.freshet.engine.EngineMetadata;
import dev.freshet.engine.query.ResultColumn;
import java.sql.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The sizes that {@link java.sql.DatabaseMetaData#getColumns} reports for a column, by JDBC's
 * definitions, from the column as a query's {@code ResultSetMetaData} describes it.
 *
 * <pre>{@code
 * // TIMESTAMP(3): text "2026-11-29 10:00:00.250" has 23 characters, 3 of them fractional
 * ColumnSizes.columnSize(ts);      // 23
 * ColumnSizes.decimalDigits(ts);   // 3
 * }</pre>
 *
 * <p>The two agree for every type but the time types: there {@code COLUMN_SIZE} is, as JDBC
 * defines it, the length of the value's text, while {@code ResultSetMetaData.getPrecision()}
 * is the number of fractional digits of seconds, which Avatica formats values with.
 * {@code DECIMAL_DIGITS} is that number, as JDBC defines it. A VARCHAR declared without a
 * length has the size of the longest VARCHAR, 65536, the {@code PRECISION} that
 * {@code getTypeInfo} reports for VARCHAR (BI tools size their string columns by
 * {@code COLUMN_SIZE} and take null for an error); its {@code getPrecision()} stays 0
 * ("unknown").
 */
final class ColumnSizes {
  /** Length of {@code HH:MM:SS} and of {@code YYYY-MM-DD HH:MM:SS}. */
  private static final int TIME_LENGTH = 8;
  private static final int TIMESTAMP_LENGTH = 19;

  private ColumnSizes() {
  }

  /** {@code COLUMN_SIZE}: precision of a number, length of a string or of a time's text. */
  static @Nullable Integer columnSize(ResultColumn column) {
    int precision = column.precision();
    switch (column.jdbcType()) {
    case Types.DATE:
      return 10;
    case Types.TIME:
      return timeLength(precision);
    case Types.TIMESTAMP:
      return timestampLength(precision);
    case Types.CHAR:
    case Types.VARCHAR:
      // The same length as INFORMATION_SCHEMA.COLUMNS: 65536 for a VARCHAR without length.
      return EngineMetadata.characterMaximumLength(column);
    default:
      return precision > 0 ? precision : null;
    }
  }

  /**
   * Length of the text of a TIME with {@code fractionalDigits} digits of seconds, e.g. 12 for a
   * TIME(3); also the precision that {@code getTypeInfo} reports for TIME.
   */
  static int timeLength(int fractionalDigits) {
    return textLength(TIME_LENGTH, fractionalDigits);
  }

  /** Length of the text of a TIMESTAMP, e.g. 23 for a TIMESTAMP(3). */
  static int timestampLength(int fractionalDigits) {
    return textLength(TIMESTAMP_LENGTH, fractionalDigits);
  }

  private static int textLength(int wholeSecondsLength, int fractionalDigits) {
    // The decimal point comes only with fractional digits.
    return fractionalDigits > 0 ? wholeSecondsLength + 1 + fractionalDigits : wholeSecondsLength;
  }

  /**
   * {@code DECIMAL_DIGITS}: the scale of an exact number, the fractional digits of seconds of a
   * time, null where it does not apply (floating point, strings, BOOLEAN).
   */
  static @Nullable Integer decimalDigits(ResultColumn column) {
    switch (column.jdbcType()) {
    case Types.TINYINT:
    case Types.SMALLINT:
    case Types.INTEGER:
    case Types.BIGINT:
    case Types.DATE:
      return 0;
    case Types.DECIMAL:
    case Types.NUMERIC:
      return Math.max(column.scale(), 0);
    case Types.TIME:
    case Types.TIMESTAMP:
      return Math.max(column.precision(), 0);
    default:
      return null;
    }
  }

  /** {@code NUM_PREC_RADIX}: 10 for numbers, whose precision counts decimal digits. */
  static @Nullable Integer radix(ResultColumn column) {
    switch (column.jdbcType()) {
    case Types.TINYINT:
    case Types.SMALLINT:
    case Types.INTEGER:
    case Types.BIGINT:
    case Types.DECIMAL:
    case Types.NUMERIC:
    case Types.REAL:
    case Types.FLOAT:
    case Types.DOUBLE:
      return 10;
    default:
      return null;
    }
  }

  /**
   * {@code CHAR_OCTET_LENGTH}: for strings, their length in characters (Freshet keeps strings as
   * Java strings, not as bytes of a character set); null for other types.
   */
  static @Nullable Integer charOctetLength(ResultColumn column) {
    boolean string = column.jdbcType() == Types.CHAR || column.jdbcType() == Types.VARCHAR;
    return string ? columnSize(column) : null;
  }
}

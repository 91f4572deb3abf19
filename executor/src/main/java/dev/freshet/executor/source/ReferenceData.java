package dev.freshet.executor.source;

import java.util.function.Consumer;

/**
 * The current rows of a reference table (a table that a stream is joined with), in the executor's
 * value representation, the same as a stream's rows: VARCHAR as {@code String}, BIGINT as
 * {@code Long}, TIMESTAMP as {@code Long} milliseconds, DATE as {@code Integer} days.
 *
 * <pre>{@code
 * ReferenceData products = ...;            // the engine reads its H2 table, or a JDBC database
 * long v = products.version();             // changes whenever the rows may have changed
 * products.scan(row -> map.put(row[0], row.clone()));
 * }</pre>
 *
 * <p>A stream-table join reads the table once at the start of each micro-batch, as Spark's
 * stream-static join does; the executor knows nothing of where the rows live.
 */
public interface ReferenceData {
  /** What the rows are, for messages and plans, e.g. {@code H2 table PRODUCTS}. */
  String description();

  /**
   * Hands every current row to {@code rows}, each a fresh array that the consumer may keep.
   *
   * @throws ReferenceDataException if the rows cannot be read
   */
  void scan(Consumer<Object[]> rows);

  /**
   * A number that changes whenever the rows change, so that a reader may keep what it read while
   * it stays the same; {@link #UNKNOWN_VERSION} if the source cannot tell (an external database),
   * which makes every read a new scan.
   */
  default long version() {
    return UNKNOWN_VERSION;
  }

  /** The version of rows that may change without notice. */
  long UNKNOWN_VERSION = -1;
}

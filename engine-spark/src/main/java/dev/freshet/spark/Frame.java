package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A relational expression translated so far: a Spark Dataset and, for each of the expression's
 * columns in order, the Spark column that computes it over the Dataset. Projections only compose
 * columns; filters, watermarks, windows and aggregations change the Dataset.
 *
 * @param dataset the rows
 * @param columns one per column of the relational expression
 * @param windowParts for each column, whether it is the start or end of the time window (the
 *     struct column {@code window}), which Spark must group by as the struct to keep its
 *     watermark
 * @param window the name of the Dataset's time-window struct column, or null
 */
record Frame(Dataset<Row> dataset, List<Column> columns, List<WindowPart> windowParts,
    @Nullable String window) {
  Frame {
    requireNonNull(dataset, "dataset");
    columns = List.copyOf(columns);
    windowParts = List.copyOf(windowParts);
    if (columns.size() != windowParts.size()) {
      throw new IllegalArgumentException(columns.size() + " columns, " + windowParts.size()
          + " window parts");
    }
  }

  /** What a column is of the time window. */
  enum WindowPart {
    NONE, START, END;

    /** The field of Spark's window struct, or null. */
    @Nullable String field() {
      return this == START ? "start" : this == END ? "end" : null;
    }
  }
}

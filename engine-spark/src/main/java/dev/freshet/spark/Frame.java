package dev.freshet.spark;

import static java.util.Objects.requireNonNull;
import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
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

  /**
   * A frame of {@code columns} over {@code dataset} that is no time window's: what a scan or a
   * join makes.
   */
  static Frame plain(Dataset<Row> dataset, List<Column> columns) {
    return new Frame(dataset, columns, Collections.nCopies(columns.size(), WindowPart.NONE),
        null);
  }

  /**
   * This frame with each column computed into its Dataset under a fresh name, which the frame's
   * columns then read: for Spark operators that take columns by name (a join's sides, which must
   * not share names, deduplication's keys), and for columns that must be values before a join
   * (an outer join's unmatched side). An alias of a column keeps Spark's watermark mark on it.
   * The time window's struct is not kept.
   *
   * <pre>{@code
   * Frame named = frame.materialized(this::freshName);   // select(c0 AS f_7, c1 AS f_8)
   * named.dataset().columns();                           // [f_7, f_8]
   * }</pre>
   */
  Frame materialized(Supplier<String> freshName) {
    Column[] named = new Column[columns.size()];
    List<Column> read = new ArrayList<>(named.length);
    for (int i = 0; i < named.length; i++) {
      String name = freshName.get();
      named[i] = columns.get(i).as(name);
      read.add(col(name));
    }
    return new Frame(dataset.select(named), read, windowParts, null);
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

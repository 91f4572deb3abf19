package dev.freshet.spark;


import dev.freshet.planner.logical.LogicalPlan.StreamStreamJoin;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.plans.logical.EventTimeWatermark;
import org.apache.spark.sql.types.StructField;

/**
 * Translates a join of two streams ({@link StreamStreamJoin}) into Spark's stream-stream join,
 * {@code left.join(right, condition, joinType)}: inner, LEFT, RIGHT and FULL outer, with the
 * whole condition (equal keys, the event-time range, the rest) as one Spark column. Freshet's
 * join is Spark's by design (docs/sql.md, "Joins of two streams"), so the translation only has
 * to hand Spark the condition in a form it reads. One difference remains: a row exactly at the
 * range's bound leaves Spark's state one watermark move later (docs/sql.md, "Where Freshet
 * differs from Spark").
 *
 * <pre>{@code
 * // i JOIN c ON i.ad = c.ad AND c.cts BETWEEN i.its AND i.its + INTERVAL '10' SECOND
 * Frame joined = JoinTranslator.join(join, leftFrame, rightFrame, this::freshName);
 * }</pre>
 *
 * <p>Spark finds the range (what lets it forget rows and emit an outer join's rows with NULLs)
 * by reading the condition for comparisons of the two sides' watermark columns, plus or minus
 * an interval. Each side is therefore projected first to plain columns: an event-time column
 * stays an alias of the scan's column, which keeps Spark's watermark mark on it.
 *
 * <p>Refused with 0A000 before Spark runs anything: a join without equal columns, a side that
 * is a windowed aggregation, and a side with more than one event-time column.
 */
final class JoinTranslator {
  private JoinTranslator() {
  }

  /**
   * The join of {@code left} and {@code right}, whose columns are the left's then the right's.
   *
   * @param freshName a column name not yet used in the translation, at each call
   */
  static Frame join(StreamStreamJoin join, Frame left, Frame right, Supplier<String> freshName)
      throws SQLException {
    if (left.window() != null || right.window() != null) {
      // A windowed aggregation as a side: its window's start and end would lose the
      // watermark's mark when projected, so Spark could not bound the other side by them.
      throw SparkErrors.notYetOnSpark("A join of a windowed aggregation");
    }
    if (join.leftKeys().isEmpty()) {
      // Spark plans a stream-stream join only as a hash join on equal keys; without them it
      // fails the query when it starts ("Stream-stream join without equality predicate is not
      // supported").
      throw SparkErrors.notOnSpark("A join of two streams without an equality of a column of"
              + " each (ON l.k = r.k)",
          "Add an equality of columns to the join's condition, or run the query on Freshet's"
              + " own executor");
    }
    // Fresh names on each side: a column is then found by name on either, also when a stream
    // is joined with itself.
    Frame leftRows = left.materialized(freshName);
    Frame rightRows = right.materialized(freshName);
    checkOneEventTime(leftRows.dataset());
    checkOneEventTime(rightRows.dataset());
    List<Column> columns = new ArrayList<>(leftRows.columns());
    columns.addAll(rightRows.columns());
    Column condition = new ColumnTranslator(columns).translate(join.condition());
    return Frame.plain(leftRows.dataset().join(rightRows.dataset(), condition, joinType(join)),
        columns);
  }

  /**
   * Refuses a side with more than one watermark column, such as another join's rows with both
   * its inputs' event times: Spark finds the event time of each side of a join by the column
   * that carries the watermark's mark ({@code EventTimeWatermark.delayKey}) and fails the first
   * batch ("More than one event time columns are available") when a side has two.
   */
  private static void checkOneEventTime(Dataset<Row> side) throws SQLException {
    int marked = 0;
    for (StructField field : side.schema().fields()) {
      if (field.metadata().contains(EventTimeWatermark.delayKey())) {
        marked++;
      }
    }
    if (marked > 1) {
      throw SparkErrors.notYetOnSpark("A join of rows with " + marked + " event-time columns"
              + " (such as another join's)",
          "select one event-time column of that side in a subquery, or run the query on"
              + " Freshet's own executor");
    }
  }

  /** Spark's name of the join's type; the planner makes only these four of two streams. */
  private static String joinType(StreamStreamJoin join) {
    switch (join.joinType()) {
      case INNER: return "inner";
      case LEFT: return "left_outer";
      case RIGHT: return "right_outer";
      case FULL: return "full_outer";
      default: throw new IllegalArgumentException("a " + join.joinType()
          + " join of two streams: the planner refuses it");
    }
  }
}

package dev.freshet.spark;

import static org.apache.spark.sql.functions.col;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.logical.LogicalField;
import dev.freshet.planner.logical.LogicalPlan.StreamTableJoin;
import dev.freshet.planner.logical.LogicalPlan.TableScan;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Translates a join of a stream with a reference table into Spark's stream-static join: each
 * micro-batch's rows joined with the table as Spark reads it for that batch
 * ({@link SparkTables}). Freshet's planner has already refused what Spark refuses (a FULL join,
 * an outer join that keeps the table's rows) and any table side but a scan of a table under
 * filters and projections.
 *
 * <pre>{@code
 * // SELECT o.id, c.tier FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
 * Frame joined = TableJoinTranslator.join(join, ordersFrame, customersFrame, names);
 * // orders.join(customers, f_1 = f_7, "left")
 * }</pre>
 */
final class TableJoinTranslator {
  private TableJoinTranslator() {
  }

  /**
   * The scan of {@code table}: its columns under fresh names, in order, cast to the declared
   * types (a JDBC source types them as the database does; a TIMESTAMP's text is cast in the
   * session's zone, UTC).
   */
  static Frame scan(TableScan scan, SparkSession spark, Supplier<String> freshName)
      throws SQLException {
    List<LogicalField> fields = scan.columns();
    for (LogicalField field : fields) {
      if (field.type().sqlType() == SqlType.TIME) {
        // SparkTypes has no Spark type for TIME yet; said here with the table and column the
        // user must change, before connecting to the table.
        throw SparkErrors.notYetOnSpark("Table " + scan.table() + "'s TIME column "
            + field.name(), "declare it as a VARCHAR or a TIMESTAMP, or run the view on"
            + " Freshet's own executor");
      }
    }
    Dataset<Row> rows = SparkTables.read(spark, scan);
    String[] read = rows.columns();
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      columns.add(col(quoted(read[i])).cast(SparkTypes.of(fields.get(i).type())));
    }
    return Frame.plain(rows, columns).materialized(freshName);
  }

  /**
   * The stream-table {@code join} of its inputs' frames, in the join's order of columns.
   *
   * @param freshName names the table side's columns, which are computed before the join
   */
  static Frame join(StreamTableJoin join, Frame left, Frame right, Supplier<String> freshName)
      throws SQLException {
    boolean streamLeft = join.streamOnLeft();
    Frame stream = streamLeft ? left : right;
    // The table side's projections become columns of its Dataset: a column computed after an
    // outer join would compute its expression over the NULLs of an unmatched row (a constant
    // would not be NULL). The stream side's rows are always there, so its columns stay as they
    // are, and with them its window and watermark.
    Frame table = (streamLeft ? right : left).materialized(freshName);
    List<Column> columns = new ArrayList<>(streamLeft ? stream.columns() : table.columns());
    columns.addAll(streamLeft ? table.columns() : stream.columns());
    List<Frame.WindowPart> parts = new ArrayList<>(streamLeft ? stream.windowParts()
        : table.windowParts());
    parts.addAll(streamLeft ? table.windowParts() : stream.windowParts());
    Column condition = new ColumnTranslator(columns).translate(join.condition());
    Dataset<Row> leftRows = streamLeft ? stream.dataset() : table.dataset();
    Dataset<Row> rightRows = streamLeft ? table.dataset() : stream.dataset();
    // Spark's names of the join types: inner, left (stream left), right (stream right); the
    // planner lets no other type through.
    Dataset<Row> joined = leftRows.join(rightRows, condition,
        join.joinType().name().toLowerCase(Locale.ROOT));
    return new Frame(joined, columns, parts, stream.window());
  }

  /** A column name as Spark's {@code col} reads it literally (a database may use any name). */
  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}

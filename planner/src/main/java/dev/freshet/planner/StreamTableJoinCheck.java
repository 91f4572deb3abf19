package dev.freshet.planner;

import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.StreamingRels;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;

/**
 * The output-mode checker's rules for a join of a stream with a reference table, following
 * Spark's {@code UnsupportedOperationChecker} for stream-static joins.
 *
 * <pre>{@code
 * // FROM orders o LEFT JOIN products p ON o.product_id = p.id         accepted
 * // FROM products p LEFT JOIN orders o ON o.product_id = p.id         42KDE
 * }</pre>
 *
 * <p>Spark runs an inner join with the static side on either side, a left outer join with the
 * stream on the left, a right outer join with the stream on the right; it refuses the outer join
 * that would have to emit the static rows no stream row ever matches, and the full outer join.
 * Freshet also wants the table side to be a table, possibly filtered and projected, and the
 * join below any aggregation of the stream.
 */
final class StreamTableJoinCheck {
  private StreamTableJoinCheck() {
  }

  /** Whether exactly one input of {@code join} reads a stream. */
  static boolean isStreamTableJoin(Join join) {
    return StreamingRels.isStreaming(join.getLeft()) != StreamingRels.isStreaming(join.getRight());
  }

  /** Refuses a stream-table join that Freshet cannot run, with the rule and the fix. */
  static void check(Join join) throws PlanningException {
    boolean streamLeft = StreamingRels.isStreaming(join.getLeft());
    JoinRelType type = join.getJoinType();
    if (type == JoinRelType.FULL) {
      throw PlannerErrors.notValidOnStream("A FULL OUTER JOIN of a stream with a table is not"
          + " supported, because the table rows that no stream row matches could never be"
          + " emitted: a later row of the stream might still match them",
          "Use a LEFT OUTER JOIN with the stream on the left (FROM stream s LEFT JOIN table t"
              + " ON ...), or an INNER JOIN");
    }
    if (type == JoinRelType.LEFT && !streamLeft || type == JoinRelType.RIGHT && streamLeft) {
      throw PlannerErrors.notValidOnStream("A " + (streamLeft ? "RIGHT" : "LEFT") + " OUTER JOIN"
          + " that keeps the table's unmatched rows (the table on the " + (streamLeft ? "right"
          : "left") + ", the stream on the " + (streamLeft ? "left" : "right") + ") is not"
          + " supported, because a later row of the stream might still match them",
          "Put the stream on the preserved side: FROM stream s LEFT JOIN table t ON ..., or use"
              + " an INNER JOIN");
    }
    if (type != JoinRelType.INNER && type != JoinRelType.LEFT && type != JoinRelType.RIGHT) {
      throw PlannerErrors.notSupported("A " + type.name() + " join of a stream with a table is"
          + " not supported yet", "Use an INNER or a LEFT OUTER JOIN with the stream on the left");
    }
    RelNode tableSide = streamLeft ? join.getRight() : join.getLeft();
    if (!isTableScan(tableSide)) {
      throw PlannerErrors.notSupported("The table side of a stream-table join must be a table"
          + " created with CREATE TABLE, possibly filtered (WHERE) and projected, and here it"
          + " is not: " + describe(tableSide), "Join the stream with the table itself, e.g."
          + " FROM orders o JOIN products p ON o.product_id = p.id, and filter in WHERE or ON");
    }
    if (hasAggregate(streamLeft ? join.getLeft() : join.getRight())) {
      throw PlannerErrors.notSupported("A stream-table join of an aggregation's result is not"
          + " supported yet: the join must come before the GROUP BY",
          "Join the stream's rows with the table first and aggregate the joined rows, e.g."
              + " SELECT p.category, COUNT(*) FROM orders o JOIN products p ON"
              + " o.product_id = p.id GROUP BY p.category");
    }
  }

  private static boolean isTableScan(RelNode rel) {
    RelNode r = rel.stripped();
    while (r instanceof Project || r instanceof Filter) {
      r = r.getInput(0).stripped();
    }
    return r instanceof TableScan scan && scan.getTable().unwrap(ReferenceTable.class) != null;
  }

  private static boolean hasAggregate(RelNode rel) {
    RelNode r = rel.stripped();
    if (r instanceof Aggregate) {
      return true;
    }
    for (RelNode input : r.getInputs()) {
      if (hasAggregate(input)) {
        return true;
      }
    }
    return false;
  }

  /** What a table side is instead of a table, in a few words. */
  private static String describe(RelNode rel) {
    RelNode r = rel.stripped();
    while (r instanceof Project || r instanceof Filter) {
      r = r.getInput(0).stripped();
    }
    if (r instanceof TableScan scan) {
      return "it reads " + String.join(".", scan.getTable().getQualifiedName())
          + ", which is not a table";
    }
    if (r instanceof org.apache.calcite.rel.core.Values) {
      return "it is a VALUES list";
    }
    if (r instanceof Aggregate) {
      return "it is an aggregation";
    }
    return "it is a " + r.getRelTypeName().replace("Logical", "").toLowerCase(java.util.Locale.ROOT);
  }
}

package dev.freshet.planner.rules;

import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.StreamingRels;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A filter on {@code ROW_NUMBER()} over a projection that computes it, the pattern of
 * deduplication and top-N in Flink SQL:
 * {@code SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM s)
 * WHERE rn = 1}. {@link StreamDeduplicateRule} plans {@code rn = 1} ({@code rn <= 1},
 * {@code rn < 2}) ordered ascending by at most one column, {@link StreamTopNRule} the others
 * ({@code rn <= N}, any order); {@link #rejectUnconverted} says why any other use of the
 * pattern on a stream does not run.
 *
 * <pre>{@code
 * RowNumberFilter match = RowNumberFilter.of(filter, project);  // null if not the pattern
 * match.limit();     // 1 for rn = 1
 * match.reason();    // null if deduplication can run it
 * match.topNReason(); // null if a top-N can run it
 * }</pre>
 *
 * @param column the projection's column that holds the row number
 * @param over the {@code ROW_NUMBER() OVER (...)} call
 * @param limit the largest row number the filter keeps
 * @param others the filter's conjuncts other than the one on the row number
 */
public record RowNumberFilter(int column, RexOver over, long limit, List<RexNode> others) {
  public RowNumberFilter {
    others = List.copyOf(others);
  }

  /** The match of {@code filter} over {@code project}, or null if they are not the pattern. */
  public static @Nullable RowNumberFilter of(Filter filter, Project project) {
    int column = -1;
    RexOver over = null;
    for (int i = 0; i < project.getProjects().size(); i++) {
      RexNode e = project.getProjects().get(i);
      if (!RexOver.containsOver(e)) {
        continue;
      }
      if (over != null || !(e instanceof RexOver o) || o.getKind() != SqlKind.ROW_NUMBER) {
        // A second window function, or one inside an expression: not the pattern.
        return null;
      }
      over = o;
      column = i;
    }
    if (over == null) {
      return null;
    }
    long limit = -1;
    List<RexNode> others = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
      long bound = bound(conjunct, column);
      if (bound >= 0 && limit < 0) {
        limit = bound;
      } else if (RelOptUtil.InputFinder.bits(conjunct).get(column)) {
        return null;
      } else {
        others.add(conjunct);
      }
    }
    return limit < 0 ? null : new RowNumberFilter(column, over, limit, others);
  }

  /**
   * The largest row number {@code conjunct} keeps if it compares {@code $column} with an integer
   * ({@code = 1}, {@code <= N}, {@code < N}, either way round), else -1.
   */
  private static long bound(RexNode conjunct, int column) {
    if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2) {
      return -1;
    }
    SqlKind kind = call.getKind();
    RexNode left = RexUtil.removeCast(call.getOperands().get(0));
    RexNode right = RexUtil.removeCast(call.getOperands().get(1));
    if (right instanceof RexInputRef && left instanceof RexLiteral) {
      RexNode swap = left;
      left = right;
      right = swap;
      kind = kind.reverse();
    }
    if (!(left instanceof RexInputRef ref) || ref.getIndex() != column
        || !(right instanceof RexLiteral literal)) {
      return -1;
    }
    java.math.BigDecimal n = literal.getValueAs(java.math.BigDecimal.class);
    if (n == null || n.stripTrailingZeros().scale() > 0
        || n.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      return -1;
    }
    long value = n.longValue();
    return switch (kind) {
      case EQUALS -> value == 1 ? 1 : -1;
      case LESS_THAN_OR_EQUAL -> value >= 1 ? value : -1;
      case LESS_THAN -> value >= 2 ? value - 1 : -1;
      default -> -1;
    };
  }

  /** The partition keys, if each is a column; null otherwise. */
  public @Nullable List<Integer> keys() {
    List<Integer> keys = new ArrayList<>();
    for (RexNode key : over.getWindow().partitionKeys) {
      if (!(key instanceof RexInputRef ref)) {
        return null;
      }
      keys.add(ref.getIndex());
    }
    return keys;
  }

  /** The ORDER BY keys of the window. */
  public List<RexFieldCollation> orderKeys() {
    return over.getWindow().orderKeys;
  }

  /**
   * Why deduplication cannot run this filter, as a sentence, or null if it can: a top-N, an
   * order that is not one column ascending, keys that are expressions.
   */
  public @Nullable String reason() {
    if (limit > 1) {
      return "Deduplication keeps row 1 only, not rn <= " + limit;
    }
    if (keys() == null) {
      return "ROW_NUMBER() OVER (PARTITION BY ...) on a stream must partition by columns, not"
          + " expressions";
    }
    List<RexFieldCollation> order = orderKeys();
    if (order.size() > 1) {
      return "Deduplication with ROW_NUMBER() on a stream orders by one column, not "
          + order.size();
    }
    if (order.size() == 1 && !(order.get(0).left instanceof RexInputRef)) {
      return "Deduplication with ROW_NUMBER() on a stream must order by a column, not an"
          + " expression";
    }
    if (order.size() == 1 && order.get(0).getDirection().isDescending()) {
      return "Deduplication keeps each key's first row, and ORDER BY ... DESC ranks the last"
          + " first";
    }
    return null;
  }

  /**
   * Why a top-N ({@link StreamTopNRule}) cannot run this filter, as a sentence, or null if it
   * can: keys or order keys that are expressions, or a condition besides the row number's,
   * which would hide a rank's new row and leave its old one shown.
   */
  public @Nullable String topNReason() {
    if (keys() == null) {
      return "ROW_NUMBER() OVER (PARTITION BY ...) on a stream must partition by columns, not"
          + " expressions";
    }
    for (RexFieldCollation c : orderKeys()) {
      if (!(c.left instanceof RexInputRef)) {
        return "ROW_NUMBER() OVER (... ORDER BY ...) on a stream must order by columns, not"
            + " expressions";
      }
    }
    if (!others.isEmpty()) {
      return "A top-N per group (ROW_NUMBER() OVER (...) with rn <= " + limit + ") on a"
          + " stream must be filtered on the row number alone: a condition on its other"
          + " columns would hide a rank's new row and leave its old one shown";
    }
    return null;
  }

  /**
   * Refuses, with the reason ({@code 0A000}), a filter on {@code ROW_NUMBER()} over a stream
   * that {@link StreamDeduplicateRule} left in {@code rel}; other window functions are left to
   * the output-mode checker's rule.
   */
  public static void rejectUnconverted(RelNode rel) throws PlanningException {
    for (RelNode input : rel.getInputs()) {
      rejectUnconverted(input);
    }
    if (rel instanceof Filter filter && filter.getInput() instanceof Project project
        && StreamingRels.isStreaming(project)) {
      RowNumberFilter match = of(filter, project);
      if (match != null && match.reason() != null && match.topNReason() != null) {
        throw PlannerErrors.notSupported(match.topNReason(), "Partition and order by columns"
            + " (compute expressions in a subquery first) and filter the stream's rows inside"
            + " the subquery, e.g. SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k"
            + " ORDER BY v DESC) AS rn FROM s WHERE v > 0) WHERE rn <= 3");
      }
    }
  }
}

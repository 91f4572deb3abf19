package dev.freshet.planner.rules;

import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.EventTimeColumn;
import dev.freshet.planner.rel.EventTimeLineage;
import dev.freshet.planner.rel.JoinTimeRange;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.logical.LogicalStreamingJoin;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Turns each join of two streams into a {@link LogicalStreamingJoin}, splitting its condition
 * into equal keys, a {@link JoinTimeRange} between the inputs' event-time columns and the rest,
 * and refuses, as Spark's {@code UnsupportedOperationChecker} does, an outer join whose rows with
 * NULLs could never be emitted: one without a watermark on both inputs and a bound of the right
 * side's event time by the left's (LEFT), of the left's by the right's (RIGHT), or both (FULL).
 *
 * <p>It runs after the watermarks are in the plan, whose event-time columns
 * ({@link EventTimeLineage}) the bounds must compare. A bound is a comparison of one input's
 * event-time column, plus or minus an interval, with the other's: {@code l.ts >= r.ts -
 * INTERVAL '10' SECOND}; {@code BETWEEN} is two of them.
 *
 * <pre>{@code
 * RelNode planned = StreamStreamJoins.plan(withWatermarks);
 * }</pre>
 */
public final class StreamStreamJoins {
  private StreamStreamJoins() {
  }

  /** {@code rel} with its joins of two streams planned. */
  public static RelNode plan(RelNode rel) throws PlanningException {
    RelNode planned = planJoins(rel);
    checkAggregationsOverJoins(planned);
    return planned;
  }

  /**
   * Refuses an aggregation over a join whose rows' event times could be any distance behind the
   * watermark: the join delays the aggregation's watermark by that distance (its output
   * watermark), which only a range bounded on both sides, or window keys, make finite.
   */
  private static void checkAggregationsOverJoins(RelNode rel) throws PlanningException {
    if (rel instanceof Aggregate aggregate && joinsWithoutBound(aggregate.getInput())) {
      throw PlannerErrors.notSupported("An aggregation over a join of two streams needs a range"
              + " of event times in the join's condition bounded on both sides, because"
              + " otherwise a joined row could be any time behind the watermark and no window"
              + " could ever be final",
          "Bound the times, e.g. ON l.k = r.k AND l.ts BETWEEN r.ts - INTERVAL '10' SECOND AND"
              + " r.ts + INTERVAL '10' SECOND");
    }
    for (RelNode input : rel.getInputs()) {
      checkAggregationsOverJoins(input);
    }
  }

  private static boolean joinsWithoutBound(RelNode rel) {
    if (rel instanceof LogicalStreamingJoin join && !join.boundsOutputEventTime()) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (!(input instanceof Aggregate) && joinsWithoutBound(input)) {
        return true;
      }
    }
    return false;
  }

  private static RelNode planJoins(RelNode rel) throws PlanningException {
    try {
      return rel.accept(new RelShuttleImpl() {
        @Override public RelNode visit(LogicalJoin join) {
          RelNode visited = super.visit(join);
          if (visited instanceof LogicalJoin j && StreamingRels.isStreaming(j.getLeft())
              && StreamingRels.isStreaming(j.getRight())) {
            try {
              return streamingJoin(j);
            } catch (PlanningException e) {
              throw new Refused(e);
            }
          }
          return visited;
        }
      });
    } catch (Refused e) {
      throw e.refusal;
    }
  }

  /** Carries a refusal out of the shuttle, which cannot throw a checked exception. */
  private static final class Refused extends RuntimeException {
    final PlanningException refusal;

    Refused(PlanningException refusal) {
      super(refusal.getMessage(), refusal, false, false);
      this.refusal = refusal;
    }
  }

  private static LogicalStreamingJoin streamingJoin(LogicalJoin join) throws PlanningException {
    JoinRelType type = join.getJoinType();
    if (type != JoinRelType.INNER && type != JoinRelType.LEFT && type != JoinRelType.RIGHT
        && type != JoinRelType.FULL) {
      throw PlannerErrors.notSupported("A " + type + " join of two streams is not supported",
          "Write an INNER, LEFT, RIGHT or FULL join");
    }
    int leftColumns = join.getLeft().getRowType().getFieldCount();
    JoinInfo info = join.analyzeCondition();
    List<RexNode> residual = new ArrayList<>();
    JoinTimeRange range = null;
    for (RexNode conjunct : info.nonEquiConditions) {
      Bound bound = bound(conjunct, join, leftColumns);
      if (bound == null || range != null && (bound.left != range.leftTime()
          || bound.right != range.rightTime())) {
        residual.add(conjunct);
        continue;
      }
      if (range == null) {
        range = new JoinTimeRange(bound.left, bound.right, JoinTimeRange.NO_LOWER, false,
            JoinTimeRange.NO_UPPER, false);
      }
      range = bound.lower ? range.withLowerBound(bound.ms, bound.inclusive)
          : range.withUpperBound(bound.ms, bound.inclusive);
    }
    checkOuterCanEmit(type, range);
    RexNode rest = residual.isEmpty() ? null
        : RexUtil.composeConjunction(join.getCluster().getRexBuilder(), residual);
    int leftTime = range != null ? range.leftTime() : eventTimeColumn(join.getLeft());
    int rightTime = range != null ? range.rightTime() : eventTimeColumn(join.getRight());
    return LogicalStreamingJoin.create(join.getLeft(), join.getRight(), join.getCondition(),
        type, info.leftKeys, info.rightKeys, range, rest, leftTime, rightTime);
  }

  /**
   * An outer join emits a row with NULLs once no match can come, which only a bound of the other
   * side's event time by this side's tells (Spark: "Stream-stream LeftOuter join between two
   * streaming DataFrame/Datasets is not supported without a watermark in the join keys, or a
   * watermark on the nullable side and an appropriate range condition").
   */
  private static void checkOuterCanEmit(JoinRelType type, @Nullable JoinTimeRange range)
      throws PlanningException {
    boolean left = type == JoinRelType.LEFT || type == JoinRelType.FULL;
    boolean right = type == JoinRelType.RIGHT || type == JoinRelType.FULL;
    // A left row can match no right row once the watermark passes l.ts - lower.
    boolean leftEnds = range != null && range.hasLower();
    boolean rightEnds = range != null && range.hasUpper();
    if (left && !leftEnds || right && !rightEnds) {
      String which = type == JoinRelType.FULL ? "FULL OUTER" : type + " OUTER";
      throw PlannerErrors.outputModeNotSupported("A " + which + " join of two streams needs a"
              + " watermark on both streams and a range of event times in its condition that"
              + " bounds " + (type == JoinRelType.FULL ? "each side's event time by the other's"
              : type == JoinRelType.LEFT ? "the right side's event time by the left's"
              : "the left side's event time by the right's") + ", because otherwise no row"
              + " could ever be known to have no match, and its row with NULLs would never be"
              + " emitted",
          "Declare WATERMARK FOR ts AS ts - INTERVAL '5' SECOND on both streams and bound the"
              + " times, e.g. ON l.k = r.k AND l.ts BETWEEN r.ts - INTERVAL '10' SECOND AND"
              + " r.ts + INTERVAL '10' SECOND");
    }
  }

  /** The first column of {@code input} that is its watermark's event time, or -1. */
  private static int eventTimeColumn(RelNode input) {
    for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
      Optional<EventTimeColumn> e = EventTimeLineage.of(input, i);
      if (e.isPresent() && e.get().offsetMs() == 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A bound of {@code l - r}: {@code l - r >= ms} ({@code lower}, {@code inclusive}) and so on.
   */
  private record Bound(int left, int right, boolean lower, long ms, boolean inclusive) {
  }

  /** The bound {@code conjunct} puts on the inputs' event times, or null if it is none. */
  private static @Nullable Bound bound(RexNode conjunct, LogicalJoin join, int leftColumns) {
    SqlKind kind = conjunct.getKind();
    if (kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL
        && kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL) {
      return null;
    }
    List<RexNode> operands = ((RexCall) conjunct).getOperands();
    long[] a = linear(operands.get(0));
    long[] b = linear(operands.get(1));
    if (a == null || b == null) {
      return null;
    }
    boolean aLeft = a[0] < leftColumns;
    if (aLeft == (b[0] < leftColumns)) {
      return null;
    }
    // x + a OP y + b, one of x and y the left column l, the other the right column r.
    long[] l = aLeft ? a : b;
    long[] r = aLeft ? b : a;
    int leftTime = (int) l[0];
    int rightTime = (int) r[0] - leftColumns;
    if (!isEventTime(join.getLeft(), leftTime) || !isEventTime(join.getRight(), rightTime)) {
      return null;
    }
    // With l on the left: l + la OP r + rb  =>  l - r OP rb - la; else the comparison flips.
    boolean greater = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    boolean inclusive = kind == SqlKind.GREATER_THAN_OR_EQUAL
        || kind == SqlKind.LESS_THAN_OR_EQUAL;
    boolean lower = aLeft == greater;
    long ms;
    try {
      ms = Math.subtractExact(r[1], l[1]);
    } catch (ArithmeticException e) {
      return null;
    }
    return new Bound(leftTime, rightTime, lower, ms, inclusive);
  }

  private static boolean isEventTime(RelNode input, int column) {
    Optional<EventTimeColumn> e = EventTimeLineage.of(input, column);
    return e.isPresent() && e.get().offsetMs() == 0;
  }

  /**
   * {@code e} as a column plus a constant: {@code {column, ms}} for {@code $column},
   * {@code $column + INTERVAL ...} or {@code $column - INTERVAL ...}; null for anything else.
   */
  private static long @Nullable [] linear(RexNode e) {
    while (e.getKind() == SqlKind.CAST && SqlTypeUtil.equalSansNullability(
        ((RexCall) e).getOperands().get(0).getType(), e.getType())) {
      e = ((RexCall) e).getOperands().get(0);
    }
    if (e instanceof RexInputRef ref) {
      return new long[] {ref.getIndex(), 0};
    }
    if ((e.getKind() == SqlKind.PLUS || e.getKind() == SqlKind.MINUS)
        && e instanceof RexCall call && call.getOperands().size() == 2) {
      RexNode x = call.getOperands().get(0);
      RexNode y = call.getOperands().get(1);
      Long interval = intervalMs(y);
      long[] inner;
      if (interval != null) {
        inner = linear(x);
      } else if (e.getKind() == SqlKind.PLUS && (interval = intervalMs(x)) != null) {
        inner = linear(y);
      } else {
        return null;
      }
      if (inner == null) {
        return null;
      }
      try {
        inner[1] = e.getKind() == SqlKind.PLUS ? Math.addExact(inner[1], interval)
            : Math.subtractExact(inner[1], interval);
      } catch (ArithmeticException overflow) {
        return null;
      }
      return inner;
    }
    return null;
  }

  /** The milliseconds of a day-time interval literal, or null if {@code e} is none. */
  private static @Nullable Long intervalMs(RexNode e) {
    if (e instanceof RexLiteral literal
        && SqlTypeUtil.isInterval(literal.getType())
        && literal.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
      return literal.getValueAs(Long.class);
    }
    return null;
  }
}

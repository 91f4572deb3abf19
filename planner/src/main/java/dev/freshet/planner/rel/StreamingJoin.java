package dev.freshet.planner.rel;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A join of two streams that keeps both inputs' rows in state: Spark's
 * {@code StreamingSymmetricHashJoinExec}. Each batch joins its new left rows with the right rows
 * in state and its new right rows with the left rows in state and this batch's, so every pair
 * is joined once; the watermark, through the {@link JoinTimeRange}, tells when a row can match
 * nothing more, when it leaves the state and, for an outer join, when its row with NULLs is
 * emitted.
 *
 * <p>Its condition is split once, when the planner makes it: the equality of
 * {@link #leftKeys()} and {@link #rightKeys()}, the {@link #timeRange()}, and the rest
 * ({@link #residual()}, over the joined row).
 */
public abstract class StreamingJoin extends Join {
  protected final int operatorId;
  protected final List<Integer> leftKeys;
  protected final List<Integer> rightKeys;
  protected final @Nullable JoinTimeRange timeRange;
  protected final @Nullable RexNode residual;
  protected final int leftEventTime;
  protected final int rightEventTime;

  protected StreamingJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left,
      RelNode right, RexNode condition, JoinRelType joinType, int operatorId,
      List<Integer> leftKeys, List<Integer> rightKeys, @Nullable JoinTimeRange timeRange,
      @Nullable RexNode residual, int leftEventTime, int rightEventTime) {
    super(cluster, traits, List.of(), left, right, condition, Set.of(), joinType);
    if (leftKeys.size() != rightKeys.size()) {
      throw new IllegalArgumentException("keys " + leftKeys + " and " + rightKeys);
    }
    this.operatorId = operatorId;
    this.leftKeys = List.copyOf(requireNonNull(leftKeys, "leftKeys"));
    this.rightKeys = List.copyOf(requireNonNull(rightKeys, "rightKeys"));
    this.timeRange = timeRange;
    this.residual = residual;
    this.leftEventTime = leftEventTime;
    this.rightEventTime = rightEventTime;
  }

  /** The stateful operator id: the state directory {@code state/<operatorId>/}. */
  public int operatorId() {
    return operatorId;
  }

  /** The left input's columns that must equal {@link #rightKeys()}, in order. */
  public List<Integer> leftKeys() {
    return leftKeys;
  }

  /** The right input's columns that must equal {@link #leftKeys()}, in order. */
  public List<Integer> rightKeys() {
    return rightKeys;
  }

  /** The bounds between the inputs' event times, or null if the condition has none. */
  public @Nullable JoinTimeRange timeRange() {
    return timeRange;
  }

  /** What else the condition asks of a pair, over the joined row; null if nothing. */
  public @Nullable RexNode residual() {
    return residual;
  }

  /** The left input's event-time column (its watermark's), or -1. */
  public int leftEventTime() {
    return leftEventTime;
  }

  /** The right input's event-time column (its watermark's), or -1. */
  public int rightEventTime() {
    return rightEventTime;
  }

  /**
   * Whether the event times of the joined rows stay within a bounded distance of the watermark,
   * which an aggregation over the join needs: its range bounds both sides, or its keys pair the
   * two inputs' event-time columns (a window's start or end on both).
   */
  public boolean boundsOutputEventTime() {
    if (timeRange != null && timeRange.hasLower() && timeRange.hasUpper()) {
      return true;
    }
    for (int i = 0; i < leftKeys.size(); i++) {
      if (leftEventTime >= 0 && leftKeys.get(i) == leftEventTime && rightEventTime >= 0
          && rightKeys.get(i) == rightEventTime) {
        return true;
      }
    }
    return false;
  }

  /** Returns a copy with operator id {@code operatorId}. */
  public abstract StreamingJoin withOperatorId(int operatorId);

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("operatorId", operatorId)
        .itemIf("timeRange", timeRange == null ? ""
            : timeRange.describe(left.getRowType().getFieldNames(),
                right.getRowType().getFieldNames()), timeRange != null);
  }
}

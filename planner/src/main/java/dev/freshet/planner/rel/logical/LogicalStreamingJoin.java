package dev.freshet.planner.rel.logical;

import dev.freshet.planner.rel.JoinTimeRange;
import dev.freshet.planner.rel.StreamingJoin;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@link StreamingJoin} in the logical convention. */
public final class LogicalStreamingJoin extends StreamingJoin {
  private LogicalStreamingJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left,
      RelNode right, RexNode condition, JoinRelType joinType, int operatorId,
      List<Integer> leftKeys, List<Integer> rightKeys, @Nullable JoinTimeRange timeRange,
      @Nullable RexNode residual, int leftEventTime, int rightEventTime) {
    super(cluster, traits, left, right, condition, joinType, operatorId, leftKeys, rightKeys,
        timeRange, residual, leftEventTime, rightEventTime);
  }

  /** Creates a join of two streams whose condition was split as {@link StreamingJoin} says. */
  public static LogicalStreamingJoin create(RelNode left, RelNode right, RexNode condition,
      JoinRelType joinType, List<Integer> leftKeys, List<Integer> rightKeys,
      @Nullable JoinTimeRange timeRange, @Nullable RexNode residual, int leftEventTime,
      int rightEventTime) {
    RelOptCluster cluster = left.getCluster();
    return new LogicalStreamingJoin(cluster, cluster.traitSetOf(Convention.NONE), left, right,
        condition, joinType, 0, leftKeys, rightKeys, timeRange, residual, leftEventTime,
        rightEventTime);
  }

  @Override public LogicalStreamingJoin copy(RelTraitSet traitSet, RexNode condition,
      RelNode left, RelNode right, JoinRelType joinType, boolean semiJoinDone) {
    return new LogicalStreamingJoin(getCluster(), traitSet, left, right, condition, joinType,
        operatorId, leftKeys, rightKeys, timeRange, residual, leftEventTime, rightEventTime);
  }

  @Override public LogicalStreamingJoin withOperatorId(int id) {
    return new LogicalStreamingJoin(getCluster(), traitSet, left, right, condition, joinType,
        id, leftKeys, rightKeys, timeRange, residual, leftEventTime, rightEventTime);
  }
}

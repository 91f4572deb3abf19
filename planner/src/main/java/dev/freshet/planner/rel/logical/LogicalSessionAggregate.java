package dev.freshet.planner.rel.logical;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.rel.EventTimeColumn;
import dev.freshet.planner.rel.SessionAggregate;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@link SessionAggregate} in the logical convention. */
public final class LogicalSessionAggregate extends SessionAggregate {
  private LogicalSessionAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int operatorId, ImmutableBitSet groupSet, int startKey, int endKey, long gapMs,
      List<AggregateCall> partialCalls, List<AggregateCall> mergeCalls, OutputMode outputMode,
      int numPartitions, @Nullable EventTimeColumn eventTime) {
    super(cluster, traits, input, operatorId, groupSet, startKey, endKey, gapMs, partialCalls,
        mergeCalls, outputMode, numPartitions, eventTime);
  }

  /** Creates a session aggregate, operator id 0 until {@code StatefulOperatorIds} numbers it. */
  public static LogicalSessionAggregate create(RelNode input, ImmutableBitSet groupSet,
      int startKey, int endKey, long gapMs, List<AggregateCall> partialCalls,
      List<AggregateCall> mergeCalls, OutputMode outputMode, int numPartitions,
      @Nullable EventTimeColumn eventTime) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalSessionAggregate(cluster, cluster.traitSetOf(Convention.NONE), input, 0,
        groupSet, startKey, endKey, gapMs, partialCalls, mergeCalls, outputMode, numPartitions,
        eventTime);
  }

  @Override public LogicalSessionAggregate copy(RelTraitSet traitSet, RelNode input,
      int operatorId) {
    return new LogicalSessionAggregate(getCluster(), traitSet, input, operatorId, groupSet,
        startKey, endKey, gapMs, partialCalls, mergeCalls, outputMode, numPartitions, eventTime);
  }
}

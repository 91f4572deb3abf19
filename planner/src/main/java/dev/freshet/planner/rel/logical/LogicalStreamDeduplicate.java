package dev.freshet.planner.rel.logical;

import dev.freshet.planner.rel.StreamDeduplicate;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

/** {@link StreamDeduplicate} in the logical convention. */
public final class LogicalStreamDeduplicate extends StreamDeduplicate {
  private LogicalStreamDeduplicate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Integer> keys, int orderIndex, boolean nullsFirst, int eventTimeIndex,
      int expiryIndex, long expiryDelayMs, int operatorId) {
    super(cluster, traits, input, keys, orderIndex, nullsFirst, eventTimeIndex, expiryIndex,
        expiryDelayMs, operatorId);
  }

  /**
   * Creates a deduplication with operator id 0, which {@code StatefulOperatorIds} replaces once
   * the plan is whole.
   */
  public static LogicalStreamDeduplicate create(RelNode input, List<Integer> keys,
      int orderIndex, boolean nullsFirst, int eventTimeIndex, int expiryIndex,
      long expiryDelayMs) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalStreamDeduplicate(cluster, cluster.traitSetOf(Convention.NONE), input,
        keys, orderIndex, nullsFirst, eventTimeIndex, expiryIndex, expiryDelayMs, 0);
  }

  @Override public LogicalStreamDeduplicate copy(RelTraitSet traitSet, RelNode input,
      int operatorId) {
    return new LogicalStreamDeduplicate(getCluster(), traitSet, input, keys, orderIndex,
        nullsFirst, eventTimeIndex, expiryIndex, expiryDelayMs, operatorId);
  }
}

package dev.freshet.planner.rel.logical;

import dev.freshet.planner.rel.EventTimeWatermark;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

/** {@link EventTimeWatermark} in the logical convention. */
public final class LogicalEventTimeWatermark extends EventTimeWatermark {
  private LogicalEventTimeWatermark(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int eventTimeIndex, long delayMs) {
    super(cluster, traits, input, eventTimeIndex, delayMs);
  }

  /** Creates a watermark on column {@code eventTimeIndex} of {@code input}. */
  public static LogicalEventTimeWatermark create(RelNode input, int eventTimeIndex,
      long delayMs) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalEventTimeWatermark(cluster, cluster.traitSetOf(Convention.NONE), input,
        eventTimeIndex, delayMs);
  }

  @Override public LogicalEventTimeWatermark copy(RelTraitSet traitSet, RelNode input) {
    return new LogicalEventTimeWatermark(getCluster(), traitSet, input, eventTimeIndex, delayMs);
  }
}

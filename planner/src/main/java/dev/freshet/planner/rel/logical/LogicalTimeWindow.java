package dev.freshet.planner.rel.logical;

import dev.freshet.planner.rel.TimeWindow;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

/** {@link TimeWindow} in the logical convention. */
public final class LogicalTimeWindow extends TimeWindow {
  private LogicalTimeWindow(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int eventTimeIndex, long sizeMs, long slideMs) {
    super(cluster, traits, input, eventTimeIndex, sizeMs, slideMs);
  }

  /** Creates windows of {@code sizeMs}, starting every {@code slideMs}, over a column. */
  public static LogicalTimeWindow create(RelNode input, int eventTimeIndex, long sizeMs,
      long slideMs) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalTimeWindow(cluster, cluster.traitSetOf(Convention.NONE), input,
        eventTimeIndex, sizeMs, slideMs);
  }

  @Override public LogicalTimeWindow copy(RelTraitSet traitSet, RelNode input) {
    return new LogicalTimeWindow(getCluster(), traitSet, input, eventTimeIndex, sizeMs, slideMs);
  }
}

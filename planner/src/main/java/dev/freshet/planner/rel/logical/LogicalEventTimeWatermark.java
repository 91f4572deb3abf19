package dev.freshet.planner.rel.logical;

import dev.freshet.planner.rel.EventTimeWatermark;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

/** {@link EventTimeWatermark} in the logical convention. */
public final class LogicalEventTimeWatermark extends EventTimeWatermark {
  private LogicalEventTimeWatermark(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int eventTimeIndex, long delayMs, long idleTimeoutMs) {
    super(cluster, traits, input, eventTimeIndex, delayMs, idleTimeoutMs);
  }

  /** Creates a watermark on column {@code eventTimeIndex} of {@code input}. */
  public static LogicalEventTimeWatermark create(RelNode input, int eventTimeIndex,
      long delayMs) {
    return create(input, eventTimeIndex, delayMs, 0);
  }

  /**
   * Creates a watermark on column {@code eventTimeIndex} of {@code input} that follows the clock
   * once the stream has had no row for {@code idleTimeoutMs} (0: never).
   */
  public static LogicalEventTimeWatermark create(RelNode input, int eventTimeIndex,
      long delayMs, long idleTimeoutMs) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalEventTimeWatermark(cluster, cluster.traitSetOf(Convention.NONE), input,
        eventTimeIndex, delayMs, idleTimeoutMs);
  }

  @Override public LogicalEventTimeWatermark copy(RelTraitSet traitSet, RelNode input) {
    return new LogicalEventTimeWatermark(getCluster(), traitSet, input, eventTimeIndex, delayMs,
        idleTimeoutMs);
  }
}

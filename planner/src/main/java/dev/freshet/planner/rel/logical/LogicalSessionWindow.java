package dev.freshet.planner.rel.logical;

import dev.freshet.planner.rel.SessionWindow;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@link SessionWindow} in the logical convention. */
public final class LogicalSessionWindow extends SessionWindow {
  private LogicalSessionWindow(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int eventTimeIndex, long gapMs, @Nullable ImmutableBitSet keys) {
    super(cluster, traits, input, eventTimeIndex, gapMs, keys);
  }

  /**
   * Creates session windows of gap {@code gapMs} over a column, per the columns {@code keys}
   * (null: per the grouping above).
   */
  public static LogicalSessionWindow create(RelNode input, int eventTimeIndex, long gapMs,
      @Nullable ImmutableBitSet keys) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalSessionWindow(cluster, cluster.traitSetOf(Convention.NONE), input,
        eventTimeIndex, gapMs, keys);
  }

  @Override public LogicalSessionWindow copy(RelTraitSet traitSet, RelNode input) {
    return new LogicalSessionWindow(getCluster(), traitSet, input, eventTimeIndex, gapMs, keys);
  }
}

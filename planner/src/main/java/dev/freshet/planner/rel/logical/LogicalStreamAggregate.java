package dev.freshet.planner.rel.logical;

import static java.util.Objects.requireNonNull;

import dev.freshet.planner.rel.AggregatePhase;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Aggregate that is one phase of a streaming aggregation: the partial aggregate of a batch's rows,
 * or the merge of partial values into restored state.
 *
 * <p>It is a distinct class so that rules written for {@code LogicalAggregate}, including
 * Freshet's own streaming aggregate rule, leave the chain alone once it is built.
 */
public final class LogicalStreamAggregate extends Aggregate {
  private final AggregatePhase phase;

  private LogicalStreamAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      ImmutableBitSet groupSet, List<AggregateCall> aggCalls, AggregatePhase phase) {
    super(cluster, traits, List.of(), input, groupSet, null, aggCalls);
    this.phase = requireNonNull(phase, "phase");
  }

  /** Creates an aggregate of the given phase. */
  public static LogicalStreamAggregate create(RelNode input, ImmutableBitSet groupSet,
      List<AggregateCall> aggCalls, AggregatePhase phase) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalStreamAggregate(cluster, cluster.traitSetOf(Convention.NONE), input,
        groupSet, aggCalls, phase);
  }

  /** The phase of the streaming aggregation. */
  public AggregatePhase phase() {
    return phase;
  }

  @Override public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
      @Nullable List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
    if (groupSets != null && !(groupSets.size() == 1 && groupSets.get(0).equals(groupSet))) {
      throw new IllegalArgumentException("a streaming aggregate has no grouping sets");
    }
    return new LogicalStreamAggregate(getCluster(), traitSet, input, groupSet, aggCalls, phase);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("phase", phase.name());
  }
}

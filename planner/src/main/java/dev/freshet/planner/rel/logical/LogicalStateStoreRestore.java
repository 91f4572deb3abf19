package dev.freshet.planner.rel.logical;

import dev.freshet.planner.rel.StateStoreRestore;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.util.ImmutableBitSet;

/** {@link StateStoreRestore} in the logical ({@link Convention#NONE}) convention. */
public final class LogicalStateStoreRestore extends StateStoreRestore {
  private LogicalStateStoreRestore(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int operatorId, ImmutableBitSet keys) {
    super(cluster, traits, input, operatorId, keys);
  }

  /** Creates a restore of the state of operator {@code operatorId}, keyed by {@code keys}. */
  public static LogicalStateStoreRestore create(RelNode input, int operatorId,
      ImmutableBitSet keys) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalStateStoreRestore(cluster, cluster.traitSetOf(Convention.NONE), input,
        operatorId, keys);
  }

  @Override public LogicalStateStoreRestore copy(RelTraitSet traitSet, RelNode input,
      int operatorId) {
    return new LogicalStateStoreRestore(getCluster(), traitSet, input, operatorId, keys);
  }
}

package dev.freshet.planner.rel.logical;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.rel.EventTimeColumn;
import dev.freshet.planner.rel.StateStoreSave;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@link StateStoreSave} in the logical ({@link Convention#NONE}) convention. */
public final class LogicalStateStoreSave extends StateStoreSave {
  private LogicalStateStoreSave(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int operatorId, ImmutableBitSet keys, OutputMode outputMode, int numPartitions,
      @Nullable EventTimeColumn eventTimeKey, boolean newKeyFlag) {
    super(cluster, traits, input, operatorId, keys, outputMode, numPartitions, eventTimeKey,
        newKeyFlag);
  }

  /** Creates a save of the state of operator {@code operatorId}. */
  public static LogicalStateStoreSave create(RelNode input, int operatorId, ImmutableBitSet keys,
      OutputMode outputMode, int numPartitions, @Nullable EventTimeColumn eventTimeKey) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalStateStoreSave(cluster, cluster.traitSetOf(Convention.NONE), input,
        operatorId, keys, outputMode, numPartitions, eventTimeKey, false);
  }

  @Override public LogicalStateStoreSave copy(RelTraitSet traitSet, RelNode input,
      int operatorId) {
    return new LogicalStateStoreSave(getCluster(), traitSet, input, operatorId, keys, outputMode,
        numPartitions, eventTimeKey, newKeyFlag);
  }

  @Override public LogicalStateStoreSave withNewKeyFlag() {
    return new LogicalStateStoreSave(getCluster(), getTraitSet(), getInput(), operatorId, keys,
        outputMode, numPartitions, eventTimeKey, true);
  }
}

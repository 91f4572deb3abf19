package dev.freshet.planner.rel.logical;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.rel.StreamTopN;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;

/** {@link StreamTopN} in the logical convention. */
public final class LogicalStreamTopN extends StreamTopN {
  private LogicalStreamTopN(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Integer> keys, RelCollation order, long limit, OutputMode outputMode,
      boolean newKeyFlag, int operatorId) {
    super(cluster, traits, input, keys, order, limit, outputMode, newKeyFlag, operatorId);
  }

  /**
   * Creates a top-N in UPDATE mode with operator id 0: the planner sets the query's mode once it
   * knows it, and {@code StatefulOperatorIds} the id once the plan is whole.
   */
  public static LogicalStreamTopN create(RelNode input, List<Integer> keys, RelCollation order,
      long limit) {
    RelOptCluster cluster = input.getCluster();
    return new LogicalStreamTopN(cluster, cluster.traitSetOf(Convention.NONE), input, keys,
        order, limit, OutputMode.UPDATE, false, 0);
  }

  @Override public LogicalStreamTopN copy(RelTraitSet traitSet, RelNode input,
      OutputMode outputMode, boolean newKeyFlag, int operatorId) {
    return new LogicalStreamTopN(getCluster(), traitSet, input, keys, order, limit, outputMode,
        newKeyFlag, operatorId);
  }
}

package dev.freshet.planner.exec;

import dev.freshet.executor.operators.AggregateRows;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.SessionRows;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.exec.ExecPlanBuilder.AfterAggregate;
import dev.freshet.planner.exec.ExecPlanBuilder.FinalCalc;
import dev.freshet.planner.exec.ExecPlanBuilder.SplitPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.calcite.rex.RexProgram;

/**
 * Splits a view's plan at its (last) stateful aggregation or top-N, for views that compute their
 * rows from that operator's state when they are read: the pipeline up to the aggregation
 * ({@link #buildUpToAggregate}), and the operators above it ({@link #buildAfterAggregate}).
 *
 * <pre>{@code
 * SplitPlan split = viewSplits.buildUpToAggregate(viewPlan, streams);
 * }</pre>
 */
final class ViewSplitPlanner {
  /** Builds the pipeline of a whole plan, as {@link ExecPlanBuilder#build} does. */
  @FunctionalInterface
  interface Pipelines {
    /**
     * The pipeline of {@code plan} reading {@code streams}; with {@code groupChanges} an
     * aggregation at its top emits a group change with each row.
     */
    StreamingPipeline build(ExecPlan plan, List<StreamTable> streams, boolean groupChanges);
  }

  private final ExecImplementor implementor;
  private final RowOperatorVisitor visitor;
  private final Pipelines pipelines;

  ViewSplitPlanner(ExecImplementor implementor, RowOperatorVisitor visitor, Pipelines pipelines) {
    this.implementor = implementor;
    this.visitor = visitor;
    this.pipelines = pipelines;
  }

  /** See {@link ExecPlanBuilder#buildUpToAggregate(ExecPlan, List)}. */
  SplitPlan buildUpToAggregate(ExecPlan plan, List<StreamTable> streams) {
    List<ExecNode> nodes = plan.nodes();
    int last = lastAggregate(nodes);
    if (nodes.get(last).operator() instanceof ExecOperator.SessionAggregate session) {
      throw new UnreadablePlanException("its aggregation by session window runs in "
          + session.outputMode() + " mode, not UPDATE", null);
    }
    ExecOperator.StatefulAggregate aggregate =
        (ExecOperator.StatefulAggregate) nodes.get(last).operator();
    if (aggregate.outputMode() != OutputMode.UPDATE) {
      throw new UnreadablePlanException("its aggregation runs in " + aggregate.outputMode()
          + " mode, not UPDATE", null);
    }
    List<FinalCalc> calcs = new ArrayList<>();
    for (int i = last + 1; i < nodes.size(); i++) {
      ExecNode node = nodes.get(i);
      if (!(node.operator() instanceof ExecOperator.Calc calc)) {
        throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
            + ") follows the aggregation, where only calcs can be computed from its state", null);
      }
      RexProgram program = implementor.program(calc, node, nodes.get(i - 1));
      calcs.add(new FinalCalc(implementor.compile(program),
          node.output().size(), program.getCondition() != null));
    }
    // Only calcs follow the aggregation: every scan is below it.
    StreamingPipeline pipeline =
        pipelines.build(ExecPlan.of(nodes.subList(0, last + 1)), streams, true);
    return new SplitPlan(pipeline,
        implementor.spec(aggregate, ExecImplementor.retracts(plan, streams)), calcs);
  }

  /** See {@link ExecPlanBuilder#buildAfterAggregate(ExecPlan, List)}. */
  AfterAggregate buildAfterAggregate(ExecPlan plan, List<StreamTable> streams) {
    List<ExecNode> nodes = plan.nodes();
    int last = nodes.size() - 1;
    while (last > 0 && !(nodes.get(last).operator() instanceof ExecOperator.TopN)
        && !(nodes.get(last).operator() instanceof ExecOperator.StatefulAggregate)
        && !(nodes.get(last).operator() instanceof ExecOperator.SessionAggregate)) {
      last--;
    }
    CollectOperator output = new CollectOperator();
    Operator downstream = output;
    for (int i = nodes.size() - 1; i > last; i--) {
      downstream = visitor.visit(nodes.get(i), nodes.get(i - 1), downstream, new LinkedHashMap<>(),
          false);
    }
    if (last > 0 && nodes.get(last).operator() instanceof ExecOperator.TopN topN) {
      // A top-N's state holds each rank's row: the row, then the rank of its key.
      int rank = topN.keys().size();
      return new AfterAggregate(implementor.clocked(downstream), output, topN.operatorId(),
          (key, row) -> {
            if ((Long) ((GroupKey) key).get(rank) == 0) {
              // Rank 0 holds the group's write time for a state TTL, not a row.
              return List.<Object[]>of();
            }
            Object[] ranked = java.util.Arrays.copyOf(row, row.length + 1);
            ranked[row.length] = ((GroupKey) key).get(rank);
            return List.<Object[]>of(ranked);
          });
    }
    if (last > 0 && nodes.get(last).operator() instanceof ExecOperator.SessionAggregate session) {
      SessionRows rows = new SessionRows(implementor.sessionSpec(session));
      return new AfterAggregate(implementor.clocked(downstream), output, session.operatorId(),
          rows::rows);
    }
    ExecOperator.StatefulAggregate aggregate =
        (ExecOperator.StatefulAggregate) nodes.get(lastAggregate(nodes)).operator();
    AggregateRows rows = new AggregateRows(
        implementor.spec(aggregate, ExecImplementor.retracts(plan, streams)));
    return new AfterAggregate(implementor.clocked(downstream), output, aggregate.operatorId(),
        (key, saved) -> List.<Object[]>of(rows.row(key, saved)));
  }

  /** The position of the last stateful aggregation in {@code nodes}. */
  private static int lastAggregate(List<ExecNode> nodes) {
    int last = nodes.size() - 1;
    while (last > 0 && !(nodes.get(last).operator() instanceof ExecOperator.StatefulAggregate
        || nodes.get(last).operator() instanceof ExecOperator.SessionAggregate)) {
      last--;
    }
    if (last <= 0) {
      throw new UnreadablePlanException("it has no stateful aggregation", null);
    }
    return last;
  }
}

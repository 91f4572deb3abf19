package dev.freshet.planner.exec;

import static dev.freshet.planner.exec.ExecImplementor.ints;

import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.RowCalc;
import dev.freshet.executor.operators.SessionWindowOperator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.operators.UnionOperator;
import dev.freshet.executor.operators.join.JoinCondition;
import dev.freshet.executor.operators.join.JoinKind;
import dev.freshet.executor.operators.join.StreamStreamJoinOperator;
import dev.freshet.executor.operators.join.StreamStreamJoinSpec;
import dev.freshet.executor.operators.join.TimeRange;
import dev.freshet.executor.operators.rank.StreamDeduplicateOperator;
import dev.freshet.executor.operators.rank.StreamTopNOperator;
import dev.freshet.executor.runtime.SourceInput;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.planner.catalog.StreamTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.rex.RexProgram;

/**
 * Plans a plan of several inputs (stream-stream joins, unions) and a plan with an aggregation
 * by session window: from its root down, each operator made before those that feed it; a scan
 * ends a chain, whose first operator its stream's rows are pushed into. No input tasks, no
 * columnar input: such a pipeline reads its streams on the batch thread.
 *
 * <pre>{@code
 * StreamingPipeline pipeline = trees.build(joinPlan, List.of(orders, payments), false);
 * }</pre>
 */
final class MultiInputPlanner {
  private final ExecImplementor implementor;
  private final RowOperatorVisitor visitor;

  MultiInputPlanner(ExecImplementor implementor, RowOperatorVisitor visitor) {
    this.implementor = implementor;
    this.visitor = visitor;
  }

  /**
   * Builds the operators of {@code plan}, reading {@code streams}, wired from the streams to a
   * collecting sink.
   *
   * @param groupChanges whether an aggregation at the top emits a group change with each row
   */
  StreamingPipeline build(ExecPlan plan, List<StreamTable> streams,
      boolean groupChanges) {
    List<ExecNode> nodes = plan.nodes();
    ExecNode root = nodes.get(nodes.size() - 1);
    CollectOperator output = root.operator() instanceof ExecOperator.StatefulAggregate
        ? CollectOperator.adopting() : new CollectOperator();
    TreeWiring wiring = new TreeWiring(plan, streams, output, groupChanges);
    try {
      wiring.wire(root, output);
    } catch (IllegalArgumentException e) {
      throw new UnreadablePlanException("its operators do not fit together: "
          + e.getMessage(), e);
    }
    // Each scan's source is made last: a query reader opens connections, which nothing above
    // may leave open by failing.
    List<SourceInput> inputs = new ArrayList<>();
    for (Map.Entry<Integer, Operator> head : wiring.heads.entrySet()) {
      StreamTable stream = wiring.scanned.get(head.getKey());
      inputs.add(new SourceInput(ExecImplementor.sourceOf(stream),
          implementor.clocked(head.getValue())));
    }
    return StreamingPipeline.ofInputs(inputs, output,
        List.copyOf(wiring.watermarks.values()),
        implementor.expiring(List.copyOf(wiring.stateful.values())),
        implementor.rowErrors);
  }

  /** The operators of a plan of several scans, wired from the root down. */
  private final class TreeWiring {
    private final ExecPlan plan;
    private final List<StreamTable> streams;
    private final CollectOperator output;
    private final boolean groupChanges;
    /** Per scan node id, the first operator of its chain, and the stream it reads. */
    final Map<Integer, Operator> heads = new TreeMap<>();
    final Map<Integer, StreamTable> scanned = new TreeMap<>();
    /** The watermark and stateful operators by node id: from the sources up. */
    final Map<Integer, EventTimeWatermarkOperator> watermarks = new TreeMap<>();
    final Map<Integer, StatefulOperator> stateful = new TreeMap<>();

    TreeWiring(ExecPlan plan, List<StreamTable> streams, CollectOperator output,
        boolean groupChanges) {
      this.plan = plan;
      this.streams = streams;
      this.output = output;
      this.groupChanges = groupChanges;
    }

    /** Makes {@code node}'s operator, emitting into {@code downstream}, and those below it. */
    void wire(ExecNode node, Operator downstream) {
      ExecOperator operator = node.operator();
      List<ExecNode> inputs = plan.inputs(node);
      if (operator instanceof ExecOperator.Scan) {
        StreamTable stream = ExecImplementor.streamOf(List.of(node), streams);
        implementor.checkScan(List.of(node), stream);
        heads.put(node.id(), downstream);
        scanned.put(node.id(), stream);
      } else if (operator instanceof ExecOperator.Union) {
        UnionOperator union = new UnionOperator(inputs.size(), downstream);
        for (int i = 0; i < inputs.size(); i++) {
          checkSameColumns(node, inputs.get(i));
          wire(inputs.get(i), union.input(i));
        }
      } else if (operator instanceof ExecOperator.StreamJoin join) {
        if (inputs.size() != 2) {
          throw new IllegalArgumentException("join " + node.id() + " reads two inputs, but the"
              + " plan gives it " + inputs.size());
        }
        StreamStreamJoinOperator op = new StreamStreamJoinOperator(
            joinSpec(join, node, inputs.get(0), inputs.get(1)),
            implementor.stateStore(join.operatorId(), 0),
            implementor.stateStore(join.operatorId(), 1), downstream);
        stateful.put(node.id(), op);
        wire(inputs.get(0), op.left());
        wire(inputs.get(1), op.right());
      } else if (operator instanceof ExecOperator.Deduplicate dedup) {
        ExecNode input = single(node, inputs);
        StreamDeduplicateOperator op = visitor.visitDeduplicate(dedup, node, input, downstream);
        stateful.put(node.id(), op);
        wire(input, op);
      } else if (operator instanceof ExecOperator.SessionAggregate session) {
        SessionWindowOperator op = new SessionWindowOperator(
            implementor.sessionSpec(session),
            implementor.providers(session.operatorId(), session.statePartitions()), downstream);
        stateful.put(node.id(), op);
        wire(single(node, inputs), op);
      } else if (operator instanceof ExecOperator.TopN topN) {
        ExecNode input = single(node, inputs);
        StreamTopNOperator op = visitor.visitTopN(topN, node, input, downstream);
        stateful.put(node.id(), op);
        wire(input, op);
      } else if (operator instanceof ExecOperator.StatefulAggregate aggregate) {
        StatefulAggregateOperator op = new StatefulAggregateOperator(
            implementor.spec(aggregate), implementor.providers(aggregate), downstream,
            implementor.partitionExecutor, 1);
        if (groupChanges && downstream == output) {
          op.emitGroupChanges();
        }
        stateful.put(node.id(), op);
        wire(single(node, inputs), op);
      } else {
        ExecNode input = single(node, inputs);
        Operator op = visitor.visit(node, input, downstream, watermarks, false);
        wire(input, op);
      }
    }

    private ExecNode single(ExecNode node, List<ExecNode> inputs) {
      if (inputs.size() != 1) {
        throw new IllegalArgumentException("operator " + node.id() + " (" + node.kind()
            + ") reads one input, but the plan gives it " + inputs.size());
      }
      return inputs.get(0);
    }

    private void checkSameColumns(ExecNode union, ExecNode input) {
      if (union.output().size() != input.output().size()) {
        throw new IllegalArgumentException("union " + union.id() + " emits "
            + union.output().size() + " columns, but its input " + input.id() + " has "
            + input.output().size());
      }
    }
  }

  /**
   * The executor's spec of a join {@code node} of {@code left} and {@code right}, its residual
   * condition compiled over the joined row.
   */
  private StreamStreamJoinSpec joinSpec(ExecOperator.StreamJoin join, ExecNode node,
      ExecNode left, ExecNode right) {
    int width = left.output().size() + right.output().size();
    if (node.output().size() != width) {
      throw new IllegalArgumentException("join " + node.id() + " emits " + node.output().size()
          + " columns, but its inputs have " + width);
    }
    JoinCondition residual = null;
    if (join.residual() != null) {
      RexProgram program = RexProgramJson.read(join.residual(), implementor.typeFactory);
      if (program.getInputRowType().getFieldCount() != width) {
        throw new IllegalArgumentException("the condition of join " + node.id() + " reads "
            + program.getInputRowType().getFieldCount() + " columns, not " + width);
      }
      RowCalc calc = implementor.compile(program);
      // The join tests pairs on its one thread, so one scratch row serves every pair.
      Object[] scratch = new Object[program.getOutputRowType().getFieldCount()];
      residual = joined -> calc.apply(joined, scratch);
    }
    ExecOperator.TimeRangeSpec range = join.timeRange();
    return new StreamStreamJoinSpec(join.operatorId(), JoinKind.valueOf(join.joinType()),
        ints(join.leftKeys()), ints(join.rightKeys()), left.output().size(),
        right.output().size(), join.leftEventTime(), join.rightEventTime(),
        range == null ? null : new TimeRange(range.lowerMs(), range.lowerInclusive(),
            range.upperMs(), range.upperInclusive()),
        residual);
  }
}

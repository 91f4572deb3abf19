package dev.freshet.planner.exec;

import dev.freshet.executor.operators.ChangelogInput;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.operators.rank.StreamDeduplicateOperator;
import dev.freshet.executor.operators.rank.StreamTopNOperator;
import dev.freshet.executor.runtime.ColumnarInput;
import dev.freshet.executor.runtime.StreamingPipeline;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.source.SupportsQueryReaders;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.catalog.ViewChangelog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans the row path of a plan of one scan: a chain of operators from the stream up to a
 * collecting sink, each made before the one that feeds it.
 *
 * <p>With more than one input task and a source that can be read in slices
 * ({@link SupportsParallelReads}), the operators between the stream and the aggregation are
 * made once per task, each copy ending in the aggregation's
 * {@link StatefulAggregateOperator#inputTask(int) input} for its task; the
 * {@link ColumnarPlanner} adds the columnar copies where the plan and the source allow.
 *
 * <pre>{@code
 * StreamingPipeline pipeline = chains.build(plan.nodes(), stream, false);
 * }</pre>
 */
final class ChainPlanner {
  private final ExecImplementor implementor;
  private final RowOperatorVisitor visitor;
  private final ColumnarPlanner columnarPlanner;

  ChainPlanner(ExecImplementor implementor, RowOperatorVisitor visitor,
      ColumnarPlanner columnarPlanner) {
    this.implementor = implementor;
    this.visitor = visitor;
    this.columnarPlanner = columnarPlanner;
  }

  /**
   * Builds the operators of {@code nodes}, reading {@code stream}, wired from the stream to a
   * collecting sink.
   *
   * @param groupChanges whether an aggregation at the top emits a group change with each row
   */
  StreamingPipeline build(List<ExecNode> nodes, StreamTable stream,
      boolean groupChanges) {
    implementor.checkScan(nodes, stream);
    // An aggregation's emitted rows are fresh arrays: a pipeline that ends with one keeps them.
    CollectOperator output = nodes.get(nodes.size() - 1).operator()
        instanceof ExecOperator.StatefulAggregate ? CollectOperator.adopting()
        : new CollectOperator();
    // The first copy of each watermark node's operator, by node id: input tasks' copies feed it.
    Map<Integer, EventTimeWatermarkOperator> watermarks = new LinkedHashMap<>();
    // Per input task, its watermark operators by node id: the columnar pipelines feed them.
    List<Map<Integer, EventTimeWatermarkOperator>> taskWatermarks = new ArrayList<>();
    taskWatermarks.add(watermarks);
    List<StatefulAggregateOperator> stateful = new ArrayList<>();
    // Every stateful operator, aggregations and deduplications, from the sink down.
    List<StatefulOperator> allStateful = new ArrayList<>();
    List<Operator> extraInputTasks = new ArrayList<>();
    // A view's changes retract rows: the aggregation above them inverts (the planner allows one).
    boolean retracts = stream instanceof ViewChangelog changes && changes.retracts();
    boolean splittable = stream.source() instanceof SupportsParallelReads
        || stream.source() instanceof SupportsQueryReaders shared && shared.readersPartition();
    Operator downstream = output;
    // The aggregation whose input is read by several tasks (only one reads the stream directly).
    StatefulAggregateOperator split = null;
    int splitAt = -1;
    try {
      for (int i = nodes.size() - 1; i >= 1; i--) {
        ExecNode node = nodes.get(i);
        if (node.operator() instanceof ExecOperator.Deduplicate dedup) {
          StreamDeduplicateOperator op =
              visitor.visitDeduplicate(dedup, node, nodes.get(i - 1), downstream);
          allStateful.add(op);
          downstream = op;
          continue;
        }
        if (node.operator() instanceof ExecOperator.TopN topN) {
          StreamTopNOperator op = visitor.visitTopN(topN, node, nodes.get(i - 1), downstream);
          allStateful.add(op);
          downstream = op;
          continue;
        }
        if (!(node.operator() instanceof ExecOperator.StatefulAggregate aggregate)) {
          downstream = visitor.visit(node, nodes.get(i - 1), downstream, watermarks, false);
          continue;
        }
        int tasks = splittable && readsStreamDirectly(nodes.subList(1, i))
            ? implementor.inputTasks : 1;
        StatefulAggregateOperator op = new StatefulAggregateOperator(
            implementor.spec(aggregate, retracts),
            implementor.providers(aggregate), downstream, implementor.partitionExecutor, tasks);
        if (groupChanges && downstream == output) {
          op.emitGroupChanges();
        }
        stateful.add(op);
        allStateful.add(op);
        if (tasks > 1) {
          splitAt = i;
          split = op;
        }
        downstream = op;
      }
      for (int t = 1; split != null && t < implementor.inputTasks; t++) {
        // Task t's copies of the row-by-row operators below, on its own slices of a batch;
        // built once the first copies are, whose watermarks the copies feed.
        Operator copy = split.inputTask(t);
        Map<Integer, EventTimeWatermarkOperator> copies = new LinkedHashMap<>();
        for (int j = splitAt - 1; j >= 1; j--) {
          copy = visitor.visit(nodes.get(j), nodes.get(j - 1), copy, watermarks, true);
          if (copy instanceof EventTimeWatermarkOperator w) {
            copies.put(nodes.get(j).id(), w);
          }
        }
        taskWatermarks.add(copies);
        extraInputTasks.add(copy);
      }
    } catch (IllegalArgumentException e) {
      throw new UnreadablePlanException("its operators do not fit together: "
          + e.getMessage(), e);
    }
    java.util.Collections.reverse(stateful);
    java.util.Collections.reverse(allStateful);
    if (retracts) {
      downstream = new ChangelogInput(nodes.get(0).output().size(), downstream);
    }
    ColumnarInput columnarInput = implementor.columnar && !stateful.isEmpty()
        ? columnarPlanner.columnarInput(nodes, stream, stateful.get(0), taskWatermarks) : null;
    // A source with positions per query (a Kafka topic) gets a reader for this query alone,
    // made last: nothing above can fail with its connections open.
    Source source = ExecImplementor.sourceOf(stream);
    return new StreamingPipeline(source, implementor.clocked(downstream), output,
        List.copyOf(watermarks.values()), implementor.expiring(allStateful),
        List.copyOf(extraInputTasks),
        extraInputTasks.isEmpty() ? null : implementor.partitionExecutor,
        implementor.rowErrors, columnarInput);
  }

  /**
   * Whether {@code nodes}, the operators between the scan and an aggregation, are row-by-row
   * operators only (calcs, windows, watermarks), which input tasks can run as copies on their own
   * slices of a batch.
   */
  private static boolean readsStreamDirectly(List<ExecNode> nodes) {
    for (ExecNode node : nodes) {
      ExecOperator op = node.operator();
      if (!(op instanceof ExecOperator.Calc || op instanceof ExecOperator.Window
          || op instanceof ExecOperator.Watermark)) {
        return false;
      }
    }
    return true;
  }
}

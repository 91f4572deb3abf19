package dev.freshet.planner.exec;

import static dev.freshet.planner.exec.ExecImplementor.checkSingleInput;
import static dev.freshet.planner.exec.ExecImplementor.ints;

import dev.freshet.executor.operators.CalcOperator;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.SortKey;
import dev.freshet.executor.operators.SortOperator;
import dev.freshet.executor.operators.TimeWindowOperator;
import dev.freshet.executor.operators.rank.DeduplicateSpec;
import dev.freshet.executor.operators.rank.StreamDeduplicateOperator;
import dev.freshet.executor.operators.rank.StreamTopNOperator;
import dev.freshet.executor.operators.rank.TopNSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rex.RexProgram;

/**
 * Makes the row operator of one exec node of one input: a visit per kind of
 * {@link ExecOperator}, dispatched on the node's operator (as Calcite's {@code RelShuttle}
 * visits a rel per class).
 *
 * <p>{@link #visit} makes the stateless operators (watermarks, windows, sorts, lookup joins,
 * calcs), which input tasks may copy; {@link #visitDeduplicate} and {@link #visitTopN} make the
 * stateful ones that keep their state in partition 0 of their operator's state.
 *
 * <pre>{@code
 * Operator op = visitor.visit(node, input, downstream, watermarks, false);
 * }</pre>
 */
final class RowOperatorVisitor {
  private final ExecImplementor implementor;

  RowOperatorVisitor(ExecImplementor implementor) {
    this.implementor = implementor;
  }

  /**
   * The operator of a stateless {@code node} reading the rows of {@code input}, emitting into
   * {@code downstream}.
   *
   * @param watermarks the first copy's watermark operators by node id, added to when building
   *     the first copy
   * @param copy whether this is an input task's copy, whose watermark feeds the first copy's
   */
  Operator visit(ExecNode node, ExecNode input, Operator downstream,
      Map<Integer, EventTimeWatermarkOperator> watermarks, boolean copy) {
    checkSingleInput(node, input);
    ExecOperator operator = node.operator();
    if (operator instanceof ExecOperator.Watermark w) {
      return visitWatermark(w, node, downstream, watermarks, copy);
    }
    if (operator instanceof ExecOperator.Window w) {
      return visitWindow(w, input, downstream);
    }
    if (operator instanceof ExecOperator.Sort sort) {
      return visitSort(sort, downstream);
    }
    if (operator instanceof ExecOperator.LookupJoin join) {
      return StreamTableJoins.build(join, node, input, implementor.tables,
          implementor.typeFactory, implementor::compile, downstream);
    }
    if (operator instanceof ExecOperator.Calc calc) {
      return visitCalc(calc, node, input, downstream);
    }
    throw new UnreadablePlanException("operator " + node.id() + " (" + node.kind()
        + ") cannot run there: only the first operator reads the stream", null);
  }

  private Operator visitWatermark(ExecOperator.Watermark w, ExecNode node, Operator downstream,
      Map<Integer, EventTimeWatermarkOperator> watermarks, boolean copy) {
    if (copy) {
      return watermarks.get(node.id()).copy(downstream);
    }
    EventTimeWatermarkOperator op =
        new EventTimeWatermarkOperator(w.eventTimeIndex(), w.delayMs(), w.idleTimeoutMs(),
            downstream);
    watermarks.put(node.id(), op);
    return op;
  }

  private Operator visitWindow(ExecOperator.Window w, ExecNode input, Operator downstream) {
    return new TimeWindowOperator(w.eventTimeIndex(), w.sizeMs(), w.slideMs(),
        input.output().size(), downstream);
  }

  private Operator visitSort(ExecOperator.Sort sort, Operator downstream) {
    List<SortKey> keys = new ArrayList<>();
    for (ExecOperator.SortField key : sort.keys()) {
      keys.add(new SortKey(key.index(), key.descending(), key.nullsFirst()));
    }
    return new SortOperator(keys, sort.offset(), sort.fetch(), downstream);
  }

  private Operator visitCalc(ExecOperator.Calc calc, ExecNode node, ExecNode input,
      Operator downstream) {
    RexProgram program = implementor.program(calc, node, input);
    return new CalcOperator(implementor.compile(program),
        node.output().size(), downstream, implementor.rowErrors);
  }

  /**
   * The operator of deduplication {@code node} reading the rows of {@code input}, emitting into
   * {@code downstream}, its keys in partition 0 of its operator's state.
   */
  StreamDeduplicateOperator visitDeduplicate(ExecOperator.Deduplicate dedup, ExecNode node,
      ExecNode input, Operator downstream) {
    checkSingleInput(node, input);
    int width = input.output().size();
    List<Integer> columns = new ArrayList<>(dedup.keys());
    columns.addAll(List.of(dedup.orderIndex(), dedup.eventTimeIndex(), dedup.expiryIndex()));
    for (int i = 0; i < columns.size(); i++) {
      // A key is a column; the other columns may be -1, none.
      int column = columns.get(i);
      if (column < (i < dedup.keys().size() ? 0 : -1) || column >= width
          || node.output().size() != width) {
        throw new UnreadablePlanException("deduplication " + node.id() + " reads column "
            + column + " of " + width + " and emits " + node.output().size(), null);
      }
    }
    DeduplicateSpec spec = new DeduplicateSpec(dedup.operatorId(), ints(dedup.keys()),
        dedup.orderIndex(), dedup.nullsFirst(), dedup.eventTimeIndex(), dedup.expiryIndex(),
        dedup.expiryDelayMs());
    return new StreamDeduplicateOperator(spec, implementor.stateStore(dedup.operatorId(), 0),
        downstream);
  }

  /**
   * The operator of top-N {@code node} reading the rows of {@code input}, emitting into
   * {@code downstream}, its ranks in partition 0 of its operator's state.
   */
  StreamTopNOperator visitTopN(ExecOperator.TopN topN, ExecNode node, ExecNode input,
      Operator downstream) {
    checkSingleInput(node, input);
    int width = input.output().size();
    List<Integer> columns = new ArrayList<>(topN.keys());
    List<SortKey> order = new ArrayList<>();
    for (ExecOperator.SortField field : topN.order()) {
      columns.add(field.index());
      order.add(new SortKey(field.index(), field.descending(), field.nullsFirst()));
    }
    int emitted = width + 1 + (topN.newKeyFlag() ? 1 : 0);
    for (int column : columns) {
      if (column < 0 || column >= width || node.output().size() != emitted) {
        throw new IllegalArgumentException("top-N " + node.id() + " reads column " + column
            + " of " + width + " and emits " + node.output().size() + " columns, not "
            + emitted);
      }
    }
    TopNSpec spec = new TopNSpec(topN.operatorId(), ints(topN.keys()), order, topN.limit(),
        topN.outputMode(), topN.newKeyFlag());
    return new StreamTopNOperator(spec, implementor.stateStore(topN.operatorId(), 0),
        downstream);
  }
}

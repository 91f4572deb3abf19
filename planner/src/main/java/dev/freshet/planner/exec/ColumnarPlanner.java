package dev.freshet.planner.exec;

import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.VectorOperator;
import dev.freshet.executor.operators.VectorWatermarkOperator;
import dev.freshet.executor.operators.VectorWindowOperator;
import dev.freshet.executor.runtime.ColumnarInput;
import dev.freshet.executor.source.SupportsColumnarReads;
import dev.freshet.executor.vector.VectorType;
import dev.freshet.planner.catalog.StreamTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexProgram;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Plans the columnar path of a one-scan plan: each input task's copy of the operators between
 * the scan and the first aggregation as vector operators, which the runtime reads vector batches
 * into instead of rows (see docs/internals.md).
 *
 * <pre>{@code
 * ColumnarInput columnar = new ColumnarPlanner(implementor)
 *     .columnarInput(nodes, stream, aggregate, taskWatermarks);   // null: rows only
 * }</pre>
 */
final class ColumnarPlanner {
  private final ExecImplementor implementor;

  ColumnarPlanner(ExecImplementor implementor) {
    this.implementor = implementor;
  }

  /**
   * The columnar pipelines of the input tasks, or null when the plan keeps its row path: that is
   * unless the source {@linkplain SupportsColumnarReads hands over vectors}, the operators between
   * the scan and the first aggregation are calcs in the columnar subset
   * ({@link VectorCalcCompiler}), watermarks and tumbling windows, and the aggregation
   * {@linkplain StatefulAggregateOperator#acceptsVectors takes vectors} of their output. Each
   * task's copy compiles its own kernels and ends in the aggregation's
   * {@linkplain StatefulAggregateOperator#vectorInput vector input} for the task; its watermarks
   * feed the task's row watermark operators, whose batch ends fold them into the watermark.
   */
  @Nullable ColumnarInput columnarInput(List<ExecNode> nodes, StreamTable stream,
      StatefulAggregateOperator aggregate,
      List<Map<Integer, EventTimeWatermarkOperator>> taskWatermarks) {
    if (!(stream.source() instanceof SupportsColumnarReads)) {
      return null;
    }
    List<RelDataTypeField> fields = stream.getRowType(implementor.typeFactory).getFieldList();
    VectorType[] sourceTypes = new VectorType[fields.size()];
    for (int i = 0; i < sourceTypes.length; i++) {
      sourceTypes[i] = VectorCalcCompiler.vectorType(fields.get(i).getType());
    }
    RexBuilder rexBuilder = new RexBuilder(implementor.typeFactory);
    // The stateless nodes below the aggregation, and the types each one reads.
    int at = 1;
    List<VectorType[]> inputs = new ArrayList<>();
    List<RexProgram> programs = new ArrayList<>();
    VectorType[] types = sourceTypes;
    for (; at < nodes.size(); at++) {
      ExecOperator op = nodes.get(at).operator();
      if (op instanceof ExecOperator.StatefulAggregate) {
        break;
      }
      inputs.add(types);
      if (op instanceof ExecOperator.Watermark w) {
        if (types[w.eventTimeIndex()] != VectorType.LONG) {
          return null;
        }
        programs.add(null);
      } else if (op instanceof ExecOperator.Window w) {
        // Tumbling windows only: a row of a HOP is several rows.
        if (w.slideMs() != w.sizeMs() || types[w.eventTimeIndex()] != VectorType.LONG) {
          return null;
        }
        types = java.util.Arrays.copyOf(types, types.length + 2);
        types[types.length - 2] = VectorType.LONG;
        types[types.length - 1] = VectorType.LONG;
        programs.add(null);
      } else if (op instanceof ExecOperator.Calc calc) {
        RexProgram program = RexProgramJson.read(calc.program(), implementor.typeFactory);
        types = VectorCalcCompiler.outputTypes(program, types, rexBuilder);
        if (types == null) {
          return null;
        }
        programs.add(program);
      } else {
        return null;
      }
    }
    if (at == nodes.size() || !aggregate.acceptsVectors(types)) {
      return null;
    }
    List<VectorOperator> heads = new ArrayList<>();
    for (int t = 0; t < aggregate.inputTasks(); t++) {
      VectorOperator head = aggregate.vectorInput(t, types);
      for (int j = at - 1; j >= 1; j--) {
        int k = j - 1;
        ExecOperator op = nodes.get(j).operator();
        if (op instanceof ExecOperator.Watermark w) {
          head = new VectorWatermarkOperator(w.eventTimeIndex(),
              taskWatermarks.get(t).get(nodes.get(j).id()), head);
        } else if (op instanceof ExecOperator.Window w) {
          head = new VectorWindowOperator(w.eventTimeIndex(), w.sizeMs(), inputs.get(k).length,
              head);
        } else {
          head = VectorCalcCompiler.compile(programs.get(k), inputs.get(k), rexBuilder,
              implementor.rowErrors, head);
        }
      }
      heads.add(head);
    }
    return new ColumnarInput(withoutUnreadStrings(sourceTypes, nodes, at, inputs, programs),
        heads);
  }

  /**
   * {@code sourceTypes} without the VARCHAR columns that no operator below the aggregation reads
   * (nor passes up to it): a source would encode each of their rows into a dictionary for
   * nothing.
   *
   * @param at the index of the aggregation in {@code nodes}
   * @param inputs per node from 1 below the aggregation, the types it reads
   * @param programs per such node, its program if it is a calc
   */
  private static VectorType[] withoutUnreadStrings(VectorType[] sourceTypes,
      List<ExecNode> nodes, int at, List<VectorType[]> inputs, List<RexProgram> programs) {
    // What the node above the one at hand reads, from the aggregation downwards.
    ExecOperator.StatefulAggregate aggregate =
        (ExecOperator.StatefulAggregate) nodes.get(at).operator();
    java.util.BitSet read = new java.util.BitSet();
    aggregate.groupSet().forEach(read::set);
    for (ExecOperator.AggregateCallSpec call : aggregate.partialCalls()) {
      if (call.arg() >= 0) {
        read.set(call.arg());
      }
      if (call.filterArg() >= 0) {
        read.set(call.filterArg());
      }
    }
    for (int j = at - 1; j >= 1; j--) {
      int k = j - 1;
      int width = inputs.get(k).length;
      ExecOperator op = nodes.get(j).operator();
      if (op instanceof ExecOperator.Watermark w) {
        read.set(w.eventTimeIndex());
      } else if (op instanceof ExecOperator.Window w) {
        read = read.get(0, width);
        read.set(w.eventTimeIndex());
      } else {
        // A calc reads the columns its projections and condition refer to, whatever is read
        // of its output.
        RexProgram program = programs.get(k);
        List<org.apache.calcite.rex.RexNode> used = new ArrayList<>();
        for (org.apache.calcite.rex.RexLocalRef ref : program.getProjectList()) {
          used.add(program.expandLocalRef(ref));
        }
        if (program.getCondition() != null) {
          used.add(program.expandLocalRef(program.getCondition()));
        }
        read = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(used, null).toBitSet();
      }
    }
    VectorType[] types = sourceTypes.clone();
    for (int i = 0; i < types.length; i++) {
      if (types[i] == VectorType.STRING && !read.get(i)) {
        types[i] = null;
      }
    }
    return types;
  }
}

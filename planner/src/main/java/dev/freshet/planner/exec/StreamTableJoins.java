package dev.freshet.planner.exec;

import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.RowCalc;
import dev.freshet.executor.operators.StreamTableJoinOperator;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.StreamingRels;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A stream-table join in a plan: from the physical {@link Join} to its
 * {@link ExecOperator.LookupJoin} ({@link #generate}), and from that to the executor's
 * {@link StreamTableJoinOperator} ({@link #build}).
 *
 * <pre>{@code
 * // Join(condition=[=($1, $2)], joinType=[left]) over (calc of ORDERS, scan of PRODUCTS)
 * ExecOperator.LookupJoin op = StreamTableJoins.generate(join, typeFactory);
 * // {"kind":"lookup-join","table":"PRODUCTS","streamKeys":[1],"tableKeys":[0],"outer":true,...}
 * }</pre>
 *
 * <p>The output-mode checker has made sure of the shape: one input reads the stream, the other
 * is a scan of a reference table, possibly under one calc (its filter and projections).
 */
final class StreamTableJoins {
  private StreamTableJoins() {
  }

  /** The input of {@code join} that reads the stream, where the plan's chain goes on. */
  static RelNode streamInput(Join join) {
    return StreamingRels.isStreaming(join.getLeft()) ? join.getLeft() : join.getRight();
  }

  /**
   * The operator of a stream-table {@code join}.
   *
   * @throws PlanningException (0A000) if the join has no equality between a stream column and
   *     a table column, or compares keys of different types
   */
  static ExecOperator.LookupJoin generate(Join join, JavaTypeFactory typeFactory)
      throws PlanningException {
    boolean tableFirst = !StreamingRels.isStreaming(join.getLeft());
    RelNode tableSide = tableFirst ? join.getLeft() : join.getRight();
    RelNode stream = tableFirst ? join.getRight() : join.getLeft();
    JoinInfo info = join.analyzeCondition();
    if (info.leftKeys.isEmpty()) {
      throw PlannerErrors.notSupported("A stream-table join needs an equality between a column"
          + " of the stream and a column of the table in its ON clause, and this one has none:"
          + " " + join.getCondition(), "Join ON stream_column = table_column, e.g."
          + " ON o.product_id = p.id");
    }
    List<Integer> streamKeys = tableFirst ? info.rightKeys : info.leftKeys;
    List<Integer> tableKeys = tableFirst ? info.leftKeys : info.rightKeys;
    for (int i = 0; i < streamKeys.size(); i++) {
      RelDataType s = stream.getRowType().getFieldList().get(streamKeys.get(i)).getType();
      RelDataType t = tableSide.getRowType().getFieldList().get(tableKeys.get(i)).getType();
      if (s.getSqlTypeName() != t.getSqlTypeName()) {
        throw PlannerErrors.notSupported("A stream-table join compares keys of one type, and "
            + s + " differs from " + t, "CAST one key to the other's type in the ON clause");
      }
    }
    ReferenceTable table = table(tableSide);
    TableScan scan = tableSide instanceof Calc calc ? (TableScan) calc.getInput()
        : (TableScan) tableSide;
    List<ExecColumn> tableColumns = columns(scan.getRowType());
    RexBuilder rexBuilder = join.getCluster().getRexBuilder();
    try {
      RexNode nonEqui = RexUtil.composeConjunction(rexBuilder, info.nonEquiConditions);
      com.fasterxml.jackson.databind.JsonNode residual = null;
      if (!nonEqui.isAlwaysTrue()) {
        RexProgramBuilder builder = new RexProgramBuilder(join.getRowType(), rexBuilder);
        builder.addCondition(nonEqui);
        residual = RexProgramJson.write(builder.getProgram(), typeFactory);
      }
      return new ExecOperator.LookupJoin(table.name(), tableColumns,
          tableSide instanceof Calc calc ? RexProgramJson.write(calc.getProgram(), typeFactory)
              : null,
          streamKeys, tableKeys, residual, join.getJoinType() != JoinRelType.INNER, tableFirst);
    } catch (IllegalArgumentException e) {
      throw PlannerErrors.notSupported("Freshet cannot keep this expression in a plan yet: "
          + e.getMessage());
    }
  }

  /** The table side's explanation in a plan, e.g. {@code table=PRODUCTS, joinType=left, ...}. */
  static String detail(Join join) {
    RelNode tableSide = StreamingRels.isStreaming(join.getLeft()) ? join.getRight()
        : join.getLeft();
    return "table=" + table(tableSide).name() + ", condition=" + join.getCondition()
        + ", joinType=" + join.getJoinType().lowerName;
  }

  private static ReferenceTable table(RelNode tableSide) {
    RelNode scan = tableSide instanceof Calc calc ? calc.getInput() : tableSide;
    ReferenceTable table = scan instanceof TableScan s
        ? s.getTable().unwrap(ReferenceTable.class) : null;
    if (table == null) {
      // The output-mode checker lets no other shape through.
      throw new IllegalStateException("the table side of a stream-table join is not a scan of"
          + " a table: " + tableSide.explain());
    }
    return table;
  }

  private static List<ExecColumn> columns(RelDataType rowType) {
    List<ExecColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      columns.add(new ExecColumn(field.getName(), ExecPlanGenerator.typeName(field.getType()),
          null));
    }
    return columns;
  }

  /**
   * The executor's operator for a {@code lookup-join} node reading the rows of {@code input}.
   *
   * @param tables finds a reference table by name
   * @param compiler compiles the table's calc and the residual condition
   * @throws UnreadablePlanException if the table is gone or declared with other columns, or the
   *     node's parameters do not fit its input and output
   */
  static Operator build(ExecOperator.LookupJoin join, ExecNode node, ExecNode input,
      Function<String, Optional<ReferenceTable>> tables, JavaTypeFactory typeFactory,
      Function<RexProgram, RowCalc> compiler, Operator downstream) {
    ReferenceTable table = tables.apply(join.table()).orElseThrow(() ->
        new UnreadablePlanException("it joins table " + join.table() + ", which does not exist;"
            + " CREATE TABLE " + join.table() + " again", null));
    List<ExecColumn> declared = columns(table.getRowType(typeFactory));
    if (!declared.equals(join.tableColumns())) {
      throw new UnreadablePlanException("it joins table " + join.table() + " with columns "
          + join.tableColumns() + ", but the table is declared with " + declared, null);
    }
    int streamWidth = input.output().size();
    int tableWidth = node.output().size() - streamWidth;
    RowCalc tableCalc = null;
    if (join.tableProgram() != null) {
      RexProgram program = RexProgramJson.read(join.tableProgram(), typeFactory);
      if (program.getInputRowType().getFieldCount() != declared.size()
          || program.getOutputRowType().getFieldCount() != tableWidth) {
        throw new UnreadablePlanException("join " + node.id() + "'s table calc does not fit"
            + " the table's columns", null);
      }
      tableCalc = compiler.apply(program);
    } else if (tableWidth != declared.size()) {
      throw new UnreadablePlanException("join " + node.id() + " emits " + node.output().size()
          + " columns, not the stream's " + streamWidth + " and the table's " + declared.size(),
          null);
    }
    RowCalc residual = null;
    if (join.residual() != null) {
      RexProgram program = RexProgramJson.read(join.residual(), typeFactory);
      if (program.getInputRowType().getFieldCount() != node.output().size()) {
        throw new UnreadablePlanException("join " + node.id() + "'s condition reads "
            + program.getInputRowType().getFieldCount() + " columns, not "
            + node.output().size(), null);
      }
      residual = compiler.apply(program);
    }
    try {
      return new StreamTableJoinOperator(new StreamTableJoinOperator.Spec(table.data(),
          tableCalc, tableWidth, ints(join.streamKeys()), ints(join.tableKeys()), residual,
          join.outer(), join.tableFirst(), streamWidth), downstream);
    } catch (IllegalArgumentException e) {
      throw new UnreadablePlanException("join " + node.id() + ": " + e.getMessage(), e);
    }
  }

  private static int[] ints(List<Integer> list) {
    return list.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Whether {@code rel} is a join of a stream with a table: exactly one input reads a stream
   * (the output-mode checker has refused every other join of a stream).
   */
  static boolean isStreamTableJoin(@Nullable RelNode rel) {
    return rel instanceof Join join && StreamingRels.isStreaming(join.getLeft())
        != StreamingRels.isStreaming(join.getRight());
  }
}

package dev.freshet.planner.exec;

import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.rel.AggregatePhase;
import dev.freshet.planner.rel.EventTimeWatermark;
import dev.freshet.planner.rel.StateStoreRestore;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.planner.rel.TimeWindow;
import dev.freshet.planner.rel.logical.LogicalStreamAggregate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.Pair;

/**
 * Turns a planned query's physical plan into its {@link ExecPlan}: one {@link ExecNode} per
 * operator the executor runs, ids counted from the source up, and for the stateful aggregation
 * (the {@code StateStoreSave -> merge -> StateStoreRestore -> partial} chain, one operator as in
 * {@link ExecPlanBuilder}) the schema of its state: the grouping columns as key, one accumulator
 * per aggregate as value.
 *
 * <pre>{@code
 * ExecPlan plan = ExecPlanGenerator.generate(planner.planQuery(query, null, 4));
 * }</pre>
 */
public final class ExecPlanGenerator {
  /** The stable name of a streaming aggregation's state. */
  public static final String AGGREGATE_STATE = "aggregate";

  private ExecPlanGenerator() {
  }

  /** The execution plan of {@code query}, as its {@link PlannedQuery#physical()} plan runs. */
  public static ExecPlan generate(PlannedQuery query) {
    List<RelNode> operators = new ArrayList<>();
    RelNode rel = query.physical();
    while (true) {
      operators.add(rel);
      if (rel instanceof StateStoreSave) {
        rel = partial((StateStoreSave) rel);
      }
      if (rel.getInputs().size() != 1) {
        break;
      }
      rel = rel.getInput(0);
    }
    Collections.reverse(operators);
    List<ExecNode> nodes = new ArrayList<>();
    for (RelNode operator : operators) {
      nodes.add(node(nodes.size(), operator));
    }
    return ExecPlan.of(nodes);
  }

  private static ExecNode node(int id, RelNode rel) {
    List<ExecColumn> output = columns(rel.getRowType().getFieldList());
    if (rel instanceof StateStoreSave) {
      StateStoreSave save = (StateStoreSave) rel;
      LogicalStreamAggregate merge = (LogicalStreamAggregate) save.getInput();
      String detail = terms(save) + ", partial=" + partial(save).getAggCallList() + ", merge="
          + merge.getAggCallList();
      return new ExecNode(id, "stateful-aggregate", detail, output, state(save));
    }
    String kind = rel instanceof TableScan ? "scan"
        : rel instanceof EventTimeWatermark ? "watermark"
        : rel instanceof TimeWindow ? "window"
        : rel instanceof Sort ? "sort"
        : rel instanceof Calc ? "calc"
        : rel.getRelTypeName();
    String detail = rel instanceof TableScan
        ? String.join(".", rel.getTable().getQualifiedName()) : terms(rel);
    return new ExecNode(id, kind, detail, output, null);
  }

  /** The state of a streaming aggregation: grouping columns to the merge calls' accumulators. */
  private static StateSchema state(StateStoreSave save) {
    LogicalStreamAggregate merge = (LogicalStreamAggregate) save.getInput();
    LogicalStreamAggregate partial = partial(save);
    List<RelDataTypeField> partialFields = partial.getRowType().getFieldList();
    List<ExecColumn> key = columns(partialFields.subList(0, partial.getGroupCount()));
    List<ExecColumn> value = new ArrayList<>();
    List<RelDataTypeField> mergeFields = merge.getRowType().getFieldList();
    List<AggregateCall> calls = merge.getAggCallList();
    for (int i = 0; i < calls.size(); i++) {
      AggregateCall call = calls.get(i);
      AggregateFunction function = ExecPlanBuilder.function(call);
      value.add(new ExecColumn(mergeFields.get(merge.getGroupCount() + i).getName(),
          typeName(call.getType()), function + (call.isDistinct() ? " DISTINCT" : "")));
    }
    return new StateSchema(save.operatorId(), AGGREGATE_STATE, key, value);
  }

  /**
   * The partial aggregate of {@code save}'s chain.
   *
   * @throws IllegalArgumentException if {@code save} does not head such a chain
   */
  private static LogicalStreamAggregate partial(StateStoreSave save) {
    if (save.getInput() instanceof LogicalStreamAggregate merge
        && merge.phase() == AggregatePhase.MERGE
        && merge.getInput() instanceof StateStoreRestore restore
        && restore.getInput() instanceof LogicalStreamAggregate partial
        && partial.phase() == AggregatePhase.PARTIAL) {
      return partial;
    }
    throw new IllegalArgumentException("not a streaming aggregation: " + save.explain());
  }

  private static List<ExecColumn> columns(List<RelDataTypeField> fields) {
    List<ExecColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : fields) {
      columns.add(new ExecColumn(field.getName(), typeName(field.getType()), null));
    }
    return columns;
  }

  /** {@code type} as SQL writes it, e.g. {@code DECIMAL(19, 2) NOT NULL}. */
  static String typeName(RelDataType type) {
    return type + (type.isNullable() ? "" : " NOT NULL");
  }

  /** The explain terms of {@code rel} without its inputs, e.g. {@code expr#0=$0, ...}. */
  private static String terms(RelNode rel) {
    StringJoiner terms = new StringJoiner(", ");
    rel.explain(new RelWriter() {
      @Override public void explain(RelNode node, List<Pair<String, Object>> values) {
      }

      @Override public SqlExplainLevel getDetailLevel() {
        return SqlExplainLevel.EXPPLAN_ATTRIBUTES;
      }

      @Override public RelWriter item(String term, Object value) {
        if (!(value instanceof RelNode)) {
          terms.add(term + "=" + value);
        }
        return this;
      }

      @Override public RelWriter done(RelNode node) {
        return this;
      }
    });
    return terms.toString();
  }
}

package dev.freshet.planner.exec;

import dev.freshet.planner.PlannedQuery;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.exec.ExecOperator.AggregateCallSpec;
import dev.freshet.planner.exec.ExecOperator.EventTimeKeySpec;
import dev.freshet.planner.exec.ExecOperator.SortField;
import dev.freshet.planner.rel.AggregatePhase;
import dev.freshet.planner.rel.EventTimeColumn;
import dev.freshet.planner.rel.EventTimeWatermark;
import dev.freshet.planner.rel.StateStoreRestore;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.TimeWindow;
import dev.freshet.planner.rel.logical.LogicalStreamAggregate;
import dev.freshet.planner.catalog.StreamTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.Pair;

/**
 * Turns a planned query's physical plan into its {@link ExecPlan}: one {@link ExecNode} per
 * operator the executor runs, ids counted from the source up, each with every parameter
 * {@link ExecPlanBuilder} needs to run it. The {@code StateStoreSave -> merge ->
 * StateStoreRestore -> partial} chain is one stateful aggregate, whose state schema is the
 * grouping columns as key and one accumulator per aggregate as value.
 *
 * <pre>{@code
 * ExecPlan plan = ExecPlanGenerator.generate(planner.planQuery(query, null, 4));
 * }</pre>
 */
public final class ExecPlanGenerator {
  private ExecPlanGenerator() {
  }

  /**
   * The execution plan of {@code query}, as its {@link PlannedQuery#physical()} plan runs.
   *
   * @throws PlanningException if the plan has an operator the executor cannot run
   */
  public static ExecPlan generate(PlannedQuery query) throws PlanningException {
    List<RelNode> operators = new ArrayList<>();
    RelNode rel = query.physical();
    while (true) {
      operators.add(rel);
      if (rel instanceof StateStoreSave save) {
        rel = partial(save);
      }
      if (StreamTableJoins.isStreamTableJoin(rel)) {
        // The table side is part of the join's operator; the chain goes on down the stream.
        rel = StreamTableJoins.streamInput((Join) rel);
        continue;
      }
      if (rel.getInputs().size() != 1) {
        break;
      }
      rel = rel.getInput(0);
    }
    Collections.reverse(operators);
    List<ExecNode> nodes = new ArrayList<>();
    for (RelNode operator : operators) {
      List<ExecColumn> output = columns(operator.getRowType().getFieldList());
      ExecOperator op = operator(operator, query.physical().getCluster().getTypeFactory());
      StateSchema state = op instanceof ExecOperator.StatefulAggregate aggregate
          ? StateSchema.of(aggregate, nodes.get(nodes.size() - 1).output(), output) : null;
      String detail = operator instanceof TableScan
          ? String.join(".", operator.getTable().getQualifiedName())
          : StreamTableJoins.isStreamTableJoin(operator)
              ? StreamTableJoins.detail((Join) operator) : terms(operator);
      nodes.add(new ExecNode(nodes.size(), op, detail, output, state));
    }
    return ExecPlan.of(nodes);
  }

  private static ExecOperator operator(RelNode rel,
      org.apache.calcite.rel.type.RelDataTypeFactory typeFactory) throws PlanningException {
    if (rel instanceof TableScan scan) {
      Optional<StreamTable> stream = StreamingRels.streamOf(scan);
      if (stream.isPresent()) {
        return new ExecOperator.Scan(stream.get().name());
      }
    } else if (rel instanceof EventTimeWatermark w) {
      return new ExecOperator.Watermark(w.eventTimeIndex(), w.delayMs());
    } else if (rel instanceof TimeWindow w) {
      return new ExecOperator.Window(w.eventTimeIndex(), w.sizeMs(), w.slideMs());
    } else if (rel instanceof Sort sort) {
      List<SortField> keys = new ArrayList<>();
      for (RelFieldCollation c : sort.getCollation().getFieldCollations()) {
        keys.add(new SortField(c.getFieldIndex(), c.direction.isDescending(),
            c.nullDirection == RelFieldCollation.NullDirection.FIRST));
      }
      return new ExecOperator.Sort(keys,
          sort.offset == null ? 0 : RexLiteral.longValue(sort.offset),
          sort.fetch == null ? -1 : RexLiteral.longValue(sort.fetch));
    } else if (rel instanceof Calc calc) {
      try {
        return new ExecOperator.Calc(RexProgramJson.write(calc.getProgram(), typeFactory));
      } catch (IllegalArgumentException e) {
        throw PlannerErrors.notSupported("Freshet cannot keep this expression in a plan yet: "
            + e.getMessage());
      }
    } else if (rel instanceof StateStoreSave save) {
      return aggregate(save);
    } else if (StreamTableJoins.isStreamTableJoin(rel)) {
      return StreamTableJoins.generate((Join) rel, (JavaTypeFactory) typeFactory);
    }
    throw PlannerErrors.notSupported("Freshet cannot run this part of a continuous query yet: "
        + rel.getRelTypeName() + ". Plan:\n" + RelOptUtil.toString(rel));
  }

  private static ExecOperator.StatefulAggregate aggregate(StateStoreSave save) {
    LogicalStreamAggregate merge = (LogicalStreamAggregate) save.getInput();
    LogicalStreamAggregate partial = partial(save);
    EventTimeColumn eventTime = save.eventTimeKey();
    return new ExecOperator.StatefulAggregate(save.operatorId(), partial.getGroupSet().asList(),
        calls(partial), calls(merge), save.outputMode(), save.numPartitions(),
        eventTime == null ? null
            : new EventTimeKeySpec(save.keys().indexOf(eventTime.index()), eventTime.offsetMs()),
        save.newKeyFlag());
  }

  private static List<AggregateCallSpec> calls(LogicalStreamAggregate aggregate) {
    List<AggregateCallSpec> calls = new ArrayList<>();
    for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
      List<Integer> args = call.getArgList();
      calls.add(new AggregateCallSpec(ExecPlanBuilder.function(call),
          args.isEmpty() ? -1 : args.get(0), ExecPlanBuilder.valueKind(call.getType()),
          call.isDistinct(), call.filterArg));
    }
    return calls;
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

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
import dev.freshet.planner.rel.SessionAggregate;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.planner.rel.StreamDeduplicate;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.rel.StreamingJoin;
import dev.freshet.planner.rel.JoinTimeRange;
import com.fasterxml.jackson.databind.JsonNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexProgramBuilder;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.TimeWindow;
import dev.freshet.planner.rel.logical.LogicalStreamAggregate;
import dev.freshet.planner.catalog.StreamTable;
import java.util.ArrayList;
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
import org.apache.calcite.rel.core.Union;
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
    List<ExecNode> nodes = new ArrayList<>();
    add(query.physical(), nodes, query.physical().getCluster().getTypeFactory());
    return ExecPlan.of(nodes);
  }

  /**
   * Adds the nodes of the tree under {@code rel} to {@code nodes}, inputs first, left to right,
   * so that a plan of one stream counts from its scan up; returns the id of {@code rel}'s node.
   */
  private static int add(RelNode rel, List<ExecNode> nodes,
      org.apache.calcite.rel.type.RelDataTypeFactory typeFactory) throws PlanningException {
    // The StateStoreSave -> merge -> StateStoreRestore -> partial chain is one node.
    RelNode bottom = rel instanceof StateStoreSave save ? partial(save) : rel;
    // A stream-table join reads its table itself: its only input is the stream's side.
    List<RelNode> children = StreamTableJoins.isStreamTableJoin(bottom)
        ? List.of(StreamTableJoins.streamInput((Join) bottom)) : bottom.getInputs();
    List<Integer> inputs = new ArrayList<>();
    for (RelNode input : children) {
      inputs.add(add(input, nodes, typeFactory));
    }
    List<ExecColumn> output = columns(rel.getRowType().getFieldList());
    ExecOperator op = operator(rel, typeFactory);
    StateSchema state = null;
    if (op instanceof ExecOperator.StatefulAggregate aggregate) {
      state = StateSchema.of(aggregate, nodes.get(inputs.get(0)).output(), output);
    } else if (op instanceof ExecOperator.SessionAggregate session) {
      state = StateSchema.of(session, nodes.get(inputs.get(0)).output(), output);
    } else if (op instanceof ExecOperator.StreamJoin join) {
      state = StateSchema.of(join, nodes.get(inputs.get(0)).output(),
          nodes.get(inputs.get(1)).output());
    } else if (op instanceof ExecOperator.Deduplicate dedup) {
      state = StateSchema.of(dedup, nodes.get(inputs.get(0)).output());
    } else if (op instanceof ExecOperator.TopN topN) {
      state = StateSchema.of(topN, nodes.get(inputs.get(0)).output());
    }
    String detail = rel instanceof TableScan
        ? String.join(".", rel.getTable().getQualifiedName())
        : StreamTableJoins.isStreamTableJoin(rel)
            ? StreamTableJoins.detail((Join) rel) : terms(rel);
    int id = nodes.size();
    nodes.add(new ExecNode(id, op, detail, output, state, inputs));
    return id;
  }

  private static ExecOperator operator(RelNode rel,
      org.apache.calcite.rel.type.RelDataTypeFactory typeFactory) throws PlanningException {
    if (rel instanceof TableScan scan) {
      Optional<StreamTable> stream = StreamingRels.streamOf(scan);
      if (stream.isPresent()) {
        return new ExecOperator.Scan(stream.get().name());
      }
    } else if (rel instanceof EventTimeWatermark w) {
      return new ExecOperator.Watermark(w.eventTimeIndex(), w.delayMs(), w.idleTimeoutMs());
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
    } else if (rel instanceof SessionAggregate session) {
      return new ExecOperator.SessionAggregate(session.operatorId(), session.groupSet().asList(),
          session.startKey(), session.endKey(), session.gapMs(),
          calls(session.partialCalls()), calls(session.mergeCalls()), session.outputMode(),
          session.numPartitions());
    } else if (rel instanceof Union union && union.all) {
      return new ExecOperator.Union();
    } else if (rel instanceof StreamingJoin join) {
      return streamJoin(join, typeFactory);
    } else if (rel instanceof StreamDeduplicate d) {
      return new ExecOperator.Deduplicate(d.operatorId(), d.keys(), d.orderIndex(),
          d.nullsFirst(), d.eventTimeIndex(), d.expiryIndex(), d.expiryDelayMs());
    } else if (rel instanceof StreamTopN t) {
      List<SortField> order = new ArrayList<>();
      for (RelFieldCollation c : t.order().getFieldCollations()) {
        order.add(new SortField(c.getFieldIndex(), c.direction.isDescending(),
            c.nullDirection == RelFieldCollation.NullDirection.FIRST));
      }
      return new ExecOperator.TopN(t.operatorId(), t.keys(), order, t.limit(), t.outputMode(),
          t.newKeyFlag());
    } else if (StreamTableJoins.isStreamTableJoin(rel)) {
      return StreamTableJoins.generate((Join) rel, (JavaTypeFactory) typeFactory);
    }
    throw PlannerErrors.notSupported("Freshet cannot run this part of a continuous query yet: "
        + rel.getRelTypeName() + ". Plan:\n" + RelOptUtil.toString(rel));
  }

  private static ExecOperator.StreamJoin streamJoin(StreamingJoin join,
      org.apache.calcite.rel.type.RelDataTypeFactory typeFactory) throws PlanningException {
    JoinTimeRange range = join.timeRange();
    JsonNode residual = null;
    if (join.residual() != null) {
      // Over the joined row as the join emits it; the calc passes every column through.
      RexProgramBuilder program = new RexProgramBuilder(join.getRowType(),
          join.getCluster().getRexBuilder());
      program.addIdentity();
      program.addCondition(join.residual());
      try {
        residual = RexProgramJson.write(program.getProgram(), typeFactory);
      } catch (IllegalArgumentException e) {
        throw PlannerErrors.notSupported("Freshet cannot keep this join condition in a plan"
            + " yet: " + e.getMessage());
      }
    }
    return new ExecOperator.StreamJoin(join.operatorId(), joinType(join.getJoinType()),
        join.leftKeys(), join.rightKeys(), join.leftEventTime(), join.rightEventTime(),
        range == null ? null : new ExecOperator.TimeRangeSpec(range.lowerMs(),
            range.lowerInclusive(), range.upperMs(), range.upperInclusive()),
        residual);
  }

  private static String joinType(JoinRelType type) {
    return switch (type) {
      case INNER -> "INNER";
      case LEFT -> "LEFT_OUTER";
      case RIGHT -> "RIGHT_OUTER";
      case FULL -> "FULL_OUTER";
      default -> throw new IllegalArgumentException("not a streaming join type: " + type);
    };
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
    return calls(aggregate.getAggCallList());
  }

  private static List<AggregateCallSpec> calls(
      List<org.apache.calcite.rel.core.AggregateCall> aggCalls) {
    List<AggregateCallSpec> calls = new ArrayList<>();
    for (org.apache.calcite.rel.core.AggregateCall call : aggCalls) {
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

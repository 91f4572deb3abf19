package dev.freshet.planner.logical.conversion;

import dev.freshet.planner.WindowedQuery;
import dev.freshet.planner.catalog.ReferenceTable;
import dev.freshet.planner.catalog.StreamTable;
import dev.freshet.planner.logical.Expression;
import dev.freshet.planner.logical.LogicalPlan;
import dev.freshet.planner.logical.LogicalPlan.AggregateCall;
import dev.freshet.planner.logical.LogicalPlan.AggregateKind;
import dev.freshet.planner.logical.LogicalPlan.Grouping;
import dev.freshet.planner.logical.LogicalPlan.JoinType;
import dev.freshet.planner.logical.LogicalQuery;
import dev.freshet.planner.logical.LogicalType;
import dev.freshet.planner.rel.EventTimeWatermark;
import dev.freshet.planner.rel.SessionWindow;
import dev.freshet.planner.rel.StreamDeduplicate;
import dev.freshet.planner.rel.StreamTopN;
import dev.freshet.planner.rel.StreamingJoin;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rel.TimeWindow;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Converts Freshet's windowed plan ({@code FreshetPlanner.planWindowed}) into the
 * {@link LogicalQuery} another engine runs. It refuses nothing: an operator the logical plan
 * does not express becomes {@link LogicalPlan.Unsupported} (its inputs not converted), an
 * expression {@link Expression.Unsupported}, each saying what the query wrote, so that the
 * engine refuses the query where it meets them, in the order it meets them.
 *
 * <pre>{@code
 * LogicalQuery q = LogicalPlanConverter.convert(planner.planWindowed(sql, EmitMode.UPDATE, n));
 * }</pre>
 */
public final class LogicalPlanConverter {
  private LogicalPlanConverter() {
  }

  /** The query {@code query} as another engine runs it. */
  public static LogicalQuery convert(WindowedQuery query) {
    return new LogicalQuery(plan(query.rel()), LogicalTypes.fields(query.rowType()),
        query.outputMode(), query.sources().stream().map(LogicalTypes::stream).toList(),
        query.aggregating());
  }

  /** The plan {@code rel}, which {@code planWindowed} made. */
  public static LogicalPlan plan(RelNode rel) {
    if (rel instanceof TableScan scan) {
      return scan(scan);
    }
    if (rel instanceof EventTimeWatermark watermark) {
      return new LogicalPlan.EventTimeWatermark(plan(watermark.getInput()),
          watermark.eventTimeIndex(), watermark.delayMs(), watermark.idleTimeoutMs());
    }
    if (rel instanceof Filter filter) {
      return new LogicalPlan.Filter(plan(filter.getInput()),
          expressions(rel).convert(filter.getCondition()));
    }
    if (rel instanceof Project project) {
      ExpressionConverter expressions = expressions(rel);
      List<Expression> projections = new ArrayList<>();
      for (RexNode e : project.getProjects()) {
        projections.add(expressions.convert(e));
      }
      return new LogicalPlan.Project(plan(project.getInput()), projections);
    }
    if (rel instanceof TimeWindow window) {
      return new LogicalPlan.TimeWindow(plan(window.getInput()), window.eventTimeIndex(),
          window.sizeMs(), window.slideMs());
    }
    if (rel instanceof Aggregate aggregate) {
      return aggregate(aggregate);
    }
    if (rel instanceof StreamDeduplicate dedup) {
      return new LogicalPlan.Deduplicate(plan(dedup.getInput()), dedup.keys(),
          dedup.orderIndex(), dedup.expiryIndex());
    }
    JoinType joinType = rel instanceof Join join ? joinType(join.getJoinType()) : null;
    if (rel instanceof StreamingJoin join && joinType != null) {
      return new LogicalPlan.StreamStreamJoin(plan(join.getLeft()), plan(join.getRight()),
          joinType, join.leftKeys(), join.rightKeys(),
          expressions(rel).convert(join.getCondition()));
    }
    if (rel instanceof Join join && joinType != null && joinsATable(join)) {
      return new LogicalPlan.StreamTableJoin(plan(join.getLeft()), plan(join.getRight()),
          joinType, StreamingRels.isStreaming(join.getLeft()),
          expressions(rel).convert(join.getCondition()));
    }
    return new LogicalPlan.Unsupported(describe(rel));
  }

  private static LogicalPlan scan(TableScan scan) {
    ReferenceTable table = scan.getTable().unwrap(ReferenceTable.class);
    if (table != null) {
      return new LogicalPlan.TableScan(table.name(), table.options(), table.data(),
          LogicalTypes.fields(scan.getRowType()));
    }
    StreamTable stream = scan.getTable().unwrap(StreamTable.class);
    if (stream == null) {
      return new LogicalPlan.Unsupported("Reading the table "
          + String.join(".", scan.getTable().getQualifiedName()));
    }
    return new LogicalPlan.StreamScan(stream.name(), LogicalTypes.fields(scan.getRowType()));
  }

  private static LogicalPlan aggregate(Aggregate aggregate) {
    List<LogicalType> keyTypes = new ArrayList<>();
    for (RelDataTypeField key : aggregate.getRowType().getFieldList()
        .subList(0, aggregate.getGroupCount())) {
      keyTypes.add(LogicalTypes.of(key.getType()));
    }
    List<AggregateCall> calls = new ArrayList<>();
    for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
      calls.add(new AggregateCall(aggregateKind(call), call.getAggregation().getName(),
          call.isDistinct(), call.getArgList(), call.filterArg,
          LogicalTypes.of(call.getType())));
    }
    return new LogicalPlan.Aggregate(plan(aggregate.getInput()),
        aggregate.getGroupSet().asList(), grouping(aggregate.getGroupType()), keyTypes, calls);
  }

  private static AggregateKind aggregateKind(org.apache.calcite.rel.core.AggregateCall call) {
    switch (call.getAggregation().getKind()) {
      case COUNT: return AggregateKind.COUNT;
      case SUM: return AggregateKind.SUM;
      case SUM0: return AggregateKind.SUM0;
      case MIN: return AggregateKind.MIN;
      case MAX: return AggregateKind.MAX;
      case AVG: return AggregateKind.AVG;
      default: return AggregateKind.OTHER;
    }
  }

  private static Grouping grouping(Aggregate.Group group) {
    switch (group) {
      case SIMPLE: return Grouping.SIMPLE;
      case ROLLUP: return Grouping.ROLLUP;
      case CUBE: return Grouping.CUBE;
      default: return Grouping.GROUPING_SETS;
    }
  }

  /** The join type, or null for one the logical plan has no name for (ASOF). */
  private static @Nullable JoinType joinType(JoinRelType type) {
    switch (type) {
      case INNER: return JoinType.INNER;
      case LEFT: return JoinType.LEFT;
      case RIGHT: return JoinType.RIGHT;
      case FULL: return JoinType.FULL;
      case SEMI: return JoinType.SEMI;
      case ANTI: return JoinType.ANTI;
      default: return null;
    }
  }

  /** Whether exactly one input of {@code join} reads a stream (the other reads a table). */
  private static boolean joinsATable(Join join) {
    return StreamingRels.isStreaming(join.getLeft()) != StreamingRels.isStreaming(join.getRight());
  }

  /** What the query wrote that became {@code rel}, for the error that refuses it. */
  private static String describe(RelNode rel) {
    if (rel instanceof Join) {
      return "A join";
    }
    if (rel instanceof SessionWindow) {
      return "A SESSION window";
    }
    if (rel instanceof StreamTopN) {
      return "A top-N (ROW_NUMBER() ... <= n)";
    }
    if (rel instanceof Sort) {
      return "ORDER BY, LIMIT or OFFSET";
    }
    if (rel instanceof SetOp) {
      return "UNION, INTERSECT or EXCEPT";
    }
    if (rel instanceof Values) {
      return "VALUES";
    }
    return "The relational operator " + rel.getRelTypeName();
  }

  private static ExpressionConverter expressions(RelNode rel) {
    return new ExpressionConverter(rel.getCluster().getRexBuilder());
  }
}

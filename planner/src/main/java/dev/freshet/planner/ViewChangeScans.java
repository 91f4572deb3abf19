package dev.freshet.planner;

import com.google.common.collect.ImmutableList;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.catalog.ViewChangelog;
import dev.freshet.planner.catalog.ViewTable;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.sql.parser.EmitMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelOptAbstractTable;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A continuous query over a materialized view: its scans of the view become scans of the view's
 * changes ({@link ViewChangelog}), and what a query may do with changes that retract rows is
 * checked before the output-mode checker's general rules.
 *
 * <pre>{@code
 * // CREATE MATERIALIZED VIEW w AS SELECT c % 3 AS g, COUNT(*) FROM v GROUP BY c % 3
 * RelNode rel = ViewChangeScans.scanChanges(converted);
 * // LogicalTableScan(table=[[FRESHET, V, CHANGES]]) where the view was scanned
 * ViewChangeScans.check(normalized, emit);                // one aggregation, UPDATE or COMPLETE
 * }</pre>
 *
 * <p>Over an UPDATE or COMPLETE view a change takes a group's old row back and adds its new one.
 * Filters and projections handle a taken-back row as they handled it when it came; one
 * aggregation of COUNT, SUM, AVG, MIN and MAX inverts it. Anything else would need retractions
 * it does not have (a join, a window, DISTINCT, a second aggregation) and is refused.
 */
final class ViewChangeScans {
  private ViewChangeScans() {
  }

  /**
   * {@code rel} with each scan of a materialized view replaced by a scan of the view's changes.
   *
   * @throws PlanningException (0A000) if a view cannot hand out its changes (a COMPLETE view)
   */
  static RelNode scanChanges(RelNode rel) throws PlanningException {
    List<PlanningException> failed = new ArrayList<>();
    RelNode replaced = rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(TableScan scan) {
        ViewTable view = scan.getTable().unwrap(ViewTable.class);
        if (view == null) {
          return scan;
        }
        Optional<ViewChangelog> changes = view.changelog();
        if (changes.isEmpty()) {
          failed.add(PlannerErrors.notSupported("A continuous query cannot read materialized"
                  + " view " + view.name() + " yet: it is an EMIT " + view.outputMode()
                  + " view, and only EMIT UPDATE and EMIT APPEND views can be read",
              "Read the stream the view reads instead, or query the view with a plain SELECT"));
          return scan;
        }
        ImmutableList<String> names = ImmutableList.<String>builder()
            .addAll(scan.getTable().getQualifiedName()).add(ViewChangelog.TABLE_SUFFIX).build();
        return LogicalTableScan.create(scan.getCluster(),
            new ChangesTable(scan.getTable(), names, changes.get()), scan.getHints());
      }
    });
    if (!failed.isEmpty()) {
      throw failed.get(0);
    }
    return replaced;
  }

  /**
   * The changes of a view as the plan's table: named after the view's, with
   * {@value ViewChangelog#TABLE_SUFFIX} appended, so that EXPLAIN shows what is scanned; it
   * unwraps to the {@link ViewChangelog}, as a stream's table unwraps to its stream.
   */
  private static final class ChangesTable extends RelOptAbstractTable {
    private final ImmutableList<String> names;
    private final ViewChangelog changes;

    ChangesTable(RelOptTable view, ImmutableList<String> names, ViewChangelog changes) {
      super(view.getRelOptSchema(), String.join(".", names), view.getRowType());
      this.names = names;
      this.changes = changes;
    }

    @Override public java.util.List<String> getQualifiedName() {
      return names;
    }

    @Override public <C extends Object> @Nullable C unwrap(Class<C> clazz) {
      if (clazz.isInstance(changes)) {
        return clazz.cast(changes);
      }
      return super.unwrap(clazz);
    }
  }

  /**
   * Refuses what a query cannot do over the changes of a view that retract rows: it may filter
   * and project them and aggregate them once (COUNT, SUM, AVG, MIN, MAX, without DISTINCT), in
   * UPDATE or COMPLETE mode. Nothing to check for a query that reads no such view.
   *
   * @param rel the normalized plan, before the output-mode checker
   * @param emit the query's {@code EMIT} mode, or null
   * @throws PlanningException 42KDE for APPEND over retracting changes, 0A000 for the rest
   */
  static void check(RelNode rel, @Nullable EmitMode emit) throws PlanningException {
    String view = retractingView(rel);
    if (view == null) {
      return;
    }
    List<Aggregate> aggregates = new ArrayList<>();
    collect(rel, aggregates);
    if (aggregates.isEmpty()) {
      throw PlannerErrors.notSupported("A continuous query can read the changes of materialized"
              + " view " + view + " only to aggregate them (GROUP BY): its rows are updated and"
              + " deleted, which a query without aggregation cannot emit",
          "Subscribe with SELECT STREAM * FROM " + view + " to get its rows and their changes,"
              + " or query it with a plain SELECT");
    }
    OutputMode mode = emit == null ? OutputMode.UPDATE : OutputMode.valueOf(emit.name());
    if (mode == OutputMode.APPEND) {
      throw PlannerErrors.outputModeNotSupported("Append output mode not supported over the"
              + " changes of materialized view " + view + ": they update and delete its rows,"
              + " so an aggregation over them changes groups it has emitted",
          "Use EMIT UPDATE or EMIT COMPLETE");
    }
    checkOperators(rel, view, false);
  }

  /** The name of the first view whose retracting changes {@code rel} reads, or null. */
  private static @Nullable String retractingView(RelNode rel) {
    for (RelOptTable table : RelOptUtil.findAllTables(rel)) {
      ViewChangelog changes = table.unwrap(ViewChangelog.class);
      if (changes != null && changes.retracts()) {
        return changes.name();
      }
    }
    return null;
  }

  private static void collect(RelNode rel, List<Aggregate> aggregates) {
    if (rel instanceof Aggregate aggregate) {
      aggregates.add(aggregate);
    }
    for (RelNode input : rel.getInputs()) {
      collect(input, aggregates);
    }
  }

  /**
   * Checks {@code rel} and the operators below it; {@code belowAggregate} once an aggregation
   * was passed on the way down.
   */
  private static void checkOperators(RelNode rel, String view, boolean belowAggregate)
      throws PlanningException {
    boolean below = belowAggregate;
    if (rel instanceof Aggregate aggregate) {
      if (belowAggregate) {
        throw cannot(view, "aggregate twice (an aggregation reads another)",
            "Aggregate the view's changes once; a view over the result can aggregate again");
      }
      checkAggregate(aggregate, view);
      below = true;
    } else if (rel instanceof Project project) {
      checkExpressions(project.getProjects(), view);
    } else if (rel instanceof Filter filter) {
      checkExpressions(List.of(filter.getCondition()), view);
    } else if (rel instanceof Calc calc) {
      checkExpressions(calc.getProgram().getExprList(), view);
    } else if (rel instanceof Sort && !belowAggregate) {
      // Ordering the aggregation's result: the output-mode checker's rules apply.
    } else if (!(rel instanceof TableScan)) {
      throw cannot(view, describe(rel), "Filter, project and aggregate the view's changes"
          + " (GROUP BY with COUNT, SUM, AVG, MIN, MAX) only");
    }
    for (RelNode input : rel.getInputs()) {
      checkOperators(input, view, below);
    }
  }

  private static void checkAggregate(Aggregate aggregate, String view)
      throws PlanningException {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      throw cannot(view, "group by GROUPING SETS, ROLLUP or CUBE", "Group by plain columns");
    }
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (call.isDistinct()) {
        throw cannot(view, "compute " + call.getAggregation().getName() + "(DISTINCT ...)",
            "Leave DISTINCT out");
      }
      SqlKind kind = call.getAggregation().getKind();
      if (kind != SqlKind.COUNT && kind != SqlKind.SUM && kind != SqlKind.SUM0
          && kind != SqlKind.MIN && kind != SqlKind.MAX && kind != SqlKind.AVG) {
        throw cannot(view, "compute " + call.getAggregation().getName() + ", which cannot take"
            + " a row back", "Use COUNT, SUM, AVG, MIN or MAX");
      }
    }
  }

  private static void checkExpressions(List<RexNode> expressions, String view)
      throws PlanningException {
    for (RexNode e : expressions) {
      if (RexOver.containsOver(e)) {
        throw cannot(view, "compute a window function (OVER)", "Aggregate with GROUP BY");
      }
      if (RexUtil.find(SqlKind.TUMBLE).anyContain(List.of(e))
          || RexUtil.find(SqlKind.HOP).anyContain(List.of(e))
          || RexUtil.find(SqlKind.SESSION).anyContain(List.of(e))) {
        throw cannot(view, "group by a time window (the view's changes have no watermark)",
            "Group by the view's columns");
      }
    }
  }

  private static String describe(RelNode rel) {
    String kind = rel.getRelTypeName().replaceFirst("^Logical", "");
    switch (kind) {
    case "Join":
    case "Correlate":
      return "join them with another input";
    case "Union":
    case "Minus":
    case "Intersect":
      return "combine them with another input (" + kind.toUpperCase(java.util.Locale.ROOT) + ")";
    case "Window":
      return "compute a window function (OVER)";
    default:
      return "apply " + kind;
    }
  }

  private static PlanningException cannot(String view, String what, String fix) {
    return PlannerErrors.notSupported("A continuous query over the changes of materialized view "
        + view + ", whose rows are updated and deleted, cannot " + what + " yet", fix);
  }
}

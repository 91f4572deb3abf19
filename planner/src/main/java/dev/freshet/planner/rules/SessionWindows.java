package dev.freshet.planner.rules;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.errors.PlannerErrors;
import dev.freshet.planner.errors.PlanningException;
import dev.freshet.planner.rel.EventTimeColumn;
import dev.freshet.planner.rel.EventTimeLineage;
import dev.freshet.planner.rel.SessionWindow;
import dev.freshet.planner.rel.StateStoreSave;
import dev.freshet.planner.rel.logical.LogicalSessionAggregate;
import dev.freshet.planner.rel.logical.LogicalStreamAggregate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSessionTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Plans aggregations over session windows: an aggregate that groups by the {@code window_start}
 * or {@code window_end} of a {@link SessionWindow} (the group function {@code SESSION(ts, gap)}
 * or the table function) becomes a {@link LogicalSessionAggregate}, which keeps each key's open
 * sessions in state and merges them, with the aggregate's partial and merge calls as
 * {@link StreamingAggregateRule} makes them. The window below becomes a projection of each
 * row's own session, {@code [ts, ts + gap)}, for rows whose {@code ts} is not NULL.
 *
 * <pre>{@code
 * RelNode planned = SessionWindows.plan(windowed, OutputMode.APPEND, 4);
 * }</pre>
 *
 * <p>A session window that no aggregation merges, or whose gap is not a positive interval, is
 * refused here.
 */
public final class SessionWindows {
  private SessionWindows() {
  }

  /**
   * {@code rel} with its session windows planned.
   *
   * @throws PlanningException (0A000) for a session window outside an aggregation, or grouped
   *     otherwise than by its keys; (22023) for a gap that is not a positive interval
   */
  public static RelNode plan(RelNode rel, OutputMode mode, int numPartitions)
      throws PlanningException {
    RelNode planned = rewrite(rel, mode, numPartitions);
    rejectLeftovers(planned);
    return planned;
  }

  private static RelNode rewrite(RelNode rel, OutputMode mode, int numPartitions)
      throws PlanningException {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode planned = rewrite(input, mode, numPartitions);
      inputs.add(planned);
      changed |= planned != input;
    }
    RelNode copy = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (copy instanceof LogicalAggregate aggregate) {
      RelNode session = sessionAggregate(aggregate, mode, numPartitions);
      if (session != null) {
        return session;
      }
      if (containsSessionAggregate(aggregate.getInput())) {
        // Its groups would need the sessions' event time, which merging makes per session.
        throw PlannerErrors.notSupported("An aggregation over the result of an aggregation by"
                + " SESSION window is not supported",
            "Aggregate by the session window once, and aggregate its result in a plain query"
                + " over the view");
      }
    }
    return copy;
  }

  private static boolean containsSessionAggregate(RelNode rel) {
    if (rel instanceof LogicalSessionAggregate) {
      return true;
    }
    for (RelNode input : rel.getInputs()) {
      if (containsSessionAggregate(input)) {
        return true;
      }
    }
    return false;
  }

  /** A column of a session window's output that a column of the plan is. */
  private record Bound(SessionWindow window, int column) {
  }

  /** The session window column that {@code column} of {@code rel} passes on, or null. */
  private static @Nullable Bound trace(RelNode rel, int column) {
    if (rel instanceof SessionWindow window) {
      return new Bound(window, column);
    }
    if (rel instanceof Project project) {
      RexNode e = project.getProjects().get(column);
      while (e.getKind() == SqlKind.CAST) {
        e = ((RexCall) e).getOperands().get(0);
      }
      return e instanceof RexInputRef ref ? trace(project.getInput(), ref.getIndex()) : null;
    }
    if (rel instanceof Filter filter) {
      return trace(filter.getInput(), column);
    }
    return null;
  }

  private static @Nullable RelNode sessionAggregate(LogicalAggregate aggregate, OutputMode mode,
      int numPartitions) throws PlanningException {
    List<Integer> groups = aggregate.getGroupSet().asList();
    SessionWindow window = null;
    int startKey = -1;
    int endKey = -1;
    // Per other grouping column, the window's input column it is, or -1.
    List<Integer> keyColumns = new ArrayList<>();
    List<Bound> bounds = new ArrayList<>();
    for (int group : groups) {
      bounds.add(trace(aggregate.getInput(), group));
    }
    for (Bound b : bounds) {
      if (b != null && b.column() >= b.window().windowStartIndex()) {
        if (window != null && window != b.window()) {
          throw PlannerErrors.notSupported("An aggregation can group by one SESSION window only",
              "Group by the window_start and window_end of one session window");
        }
        window = b.window();
      }
    }
    if (window == null) {
      return null;
    }
    for (int j = 0; j < groups.size(); j++) {
      Bound b = bounds.get(j);
      if (b != null && b.window() == window && b.column() == window.windowStartIndex()) {
        startKey = startKey < 0 ? j : startKey;
      } else if (b != null && b.window() == window
          && b.column() == window.windowStartIndex() + 1) {
        endKey = endKey < 0 ? j : endKey;
      } else {
        keyColumns.add(b != null && b.window() == window ? b.column() : -1);
      }
    }
    checkKeys(window, keyColumns);
    EventTimeColumn eventTime = EventTimeLineage.of(window.getInput(), window.eventTimeIndex())
        .orElse(null);
    if (mode == OutputMode.APPEND && eventTime == null) {
      throw PlannerErrors.outputModeNotSupported("EMIT APPEND needs a watermark on the time"
              + " column of a SESSION window, because a session can only be emitted once the"
              + " watermark has passed its end",
          "Declare a watermark on the column (WATERMARK FOR ts AS ts - INTERVAL '5' SECOND),"
              + " or use EMIT COMPLETE");
    }
    if (mode == OutputMode.UPDATE) {
      // The output-mode checker refuses it first, with Spark's rule.
      throw PlannerErrors.notSupported("EMIT UPDATE is not supported for session windows",
          "Use EMIT APPEND or EMIT COMPLETE");
    }
    RelNode input = replace(aggregate.getInput(), window, perRowSessions(window));
    Aggregate perRow = (Aggregate) aggregate.copy(aggregate.getTraitSet(), List.of(input));
    RelBuilder builder = RelBuilder.proto(Contexts.empty()).create(aggregate.getCluster(), null);
    // COMPLETE: a chain without an event-time key, whose calls are all this needs.
    RelNode chain = StreamingAggregateRule.apply(builder, perRow, OutputMode.COMPLETE,
        numPartitions);
    if (chain == null) {
      throw PlannerErrors.notSupported("This aggregation cannot be computed over SESSION windows"
              + " yet: " + aggregate.getAggCallList(),
          "Use COUNT, SUM, AVG, MIN or MAX");
    }
    final int start = startKey;
    final int end = endKey;
    final long gapMs = window.gapMs();
    RelNode planned = replaceSave(chain, save -> {
      LogicalStreamAggregate merge = (LogicalStreamAggregate) save.getInput();
      LogicalStreamAggregate partial = (LogicalStreamAggregate) merge.getInput().getInput(0);
      return LogicalSessionAggregate.create(partial.getInput(), partial.getGroupSet(), start,
          end, gapMs, partial.getAggCallList(), merge.getAggCallList(),
          mode, numPartitions, eventTime);
    });
    return RelOptUtil.areRowTypesEqual(planned.getRowType(), aggregate.getRowType(), false)
        ? planned : RelOptUtil.createCastRel(planned, aggregate.getRowType(), true);
  }

  /**
   * Refuses grouping columns other than the keys of a table function's sessions: its
   * sessions are per {@code DESCRIPTOR(k)}, and grouping them otherwise would need the sessions
   * of one key split or joined.
   */
  private static void checkKeys(SessionWindow window, List<Integer> keyColumns)
      throws PlanningException {
    ImmutableBitSet keys = window.keys();
    if (keys == null) {
      return;
    }
    if (keyColumns.contains(-1) || !ImmutableBitSet.of(keyColumns).equals(keys)
        || keyColumns.size() != keys.cardinality()) {
      List<String> names = window.getInput().getRowType().getFieldNames();
      List<String> keyNames = new ArrayList<>();
      keys.forEach(k -> keyNames.add(names.get(k)));
      throw PlannerErrors.notSupported("The sessions of a SESSION table function are per its"
              + " DESCRIPTOR key " + keyNames + ", so its aggregation must group by exactly"
              + " those columns with window_start and window_end",
          "GROUP BY " + (keyNames.isEmpty() ? "" : String.join(", ", keyNames) + ", ")
              + "window_start, window_end, or change the DESCRIPTOR key");
    }
  }

  /**
   * The window's input with each row's own session appended, {@code CAST(ts) AS window_start}
   * and {@code ts + gap AS window_end}, for the rows whose {@code ts} is not NULL (Spark puts a
   * row without time in no session).
   */
  private static RelNode perRowSessions(SessionWindow window) {
    RexBuilder rex = window.getCluster().getRexBuilder();
    RelNode input = window.getInput();
    RexNode ts = rex.makeInputRef(input, window.eventTimeIndex());
    RelNode filtered = ts.getType().isNullable()
        ? LogicalFilter.create(input, rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, ts)) : input;
    List<RexNode> projects = new ArrayList<>(rex.identityProjects(input.getRowType()));
    RexNode gap = rex.makeIntervalLiteral(BigDecimal.valueOf(window.gapMs()),
        new SqlIntervalQualifier(TimeUnit.SECOND, null, SqlParserPos.ZERO));
    RelDataType type = window.getRowType().getFieldList().get(window.windowStartIndex())
        .getType();
    projects.add(rex.makeAbstractCast(type, ts, false));
    projects.add(rex.makeAbstractCast(type,
        rex.makeCall(SqlStdOperatorTable.DATETIME_PLUS, ts, gap), false));
    return LogicalProject.create(filtered, List.of(), projects,
        window.getRowType().getFieldNames(), Set.of());
  }

  /** {@code rel} with {@code window} replaced by {@code replacement}, of the same row type. */
  private static RelNode replace(RelNode rel, SessionWindow window, RelNode replacement) {
    if (rel == window) {
      return replacement;
    }
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode replaced = replace(input, window, replacement);
      inputs.add(replaced);
      changed |= replaced != input;
    }
    return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
  }

  /** {@code rel} with its {@link StateStoreSave} chain replaced by what {@code f} makes of it. */
  private static RelNode replaceSave(RelNode rel,
      Function<StateStoreSave, RelNode> f) {
    if (rel instanceof StateStoreSave save) {
      return f.apply(save);
    }
    List<RelNode> inputs = new ArrayList<>();
    for (RelNode input : rel.getInputs()) {
      inputs.add(replaceSave(input, f));
    }
    return rel.copy(rel.getTraitSet(), inputs);
  }

  /** The {@code $SESSION} group function call in {@code e}, or null. */
  private static @Nullable RexCall sessionCall(RexNode e) {
    if (e instanceof RexCall call) {
      if (call.getKind() == SqlKind.SESSION) {
        return call;
      }
      for (RexNode operand : call.getOperands()) {
        RexCall found = sessionCall(operand);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /**
   * Refuses what is left of session windows once the aggregations over them are planned: a
   * window no aggregation merges, or one whose gap the window rules could not read.
   */
  private static void rejectLeftovers(RelNode rel) throws PlanningException {
    if (rel instanceof SessionWindow) {
      throw PlannerErrors.notSupported("A SESSION window must be merged by an aggregation that"
              + " groups by its window_start or window_end",
          "Add GROUP BY window_start, window_end (and the DESCRIPTOR key columns) with an"
              + " aggregate such as COUNT(*)");
    }
    RexNode gap = null;
    if (rel instanceof TableFunctionScan scan && scan.getCall() instanceof RexCall call
        && call.getOperator() instanceof SqlSessionTableFunction) {
      gap = call.getOperands().get(call.getOperands().size() - 1);
    } else if (rel instanceof Project project) {
      for (RexNode e : project.getProjects()) {
        RexCall session = sessionCall(e);
        if (session != null) {
          gap = session.getOperands().get(session.getOperands().size() - 1);
        }
      }
    }
    if (gap != null) {
      Long ms = gap instanceof RexLiteral literal
          && SqlTypeUtil.isInterval(gap.getType()) ? literal.getValueAs(Long.class) : null;
      throw PlannerErrors.sessionGapNotPositive(ms == null ? gap.toString() : ms + " ms");
    }
    for (RelNode input : rel.getInputs()) {
      rejectLeftovers(input);
    }
  }
}

package dev.freshet.planner.rules;

import dev.freshet.planner.rel.logical.LogicalSessionWindow;
import dev.freshet.planner.rel.logical.LogicalTimeWindow;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.TransformationRule;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlGroupedWindowFunction;
import org.apache.calcite.sql.SqlKind;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.immutables.value.Value;

/**
 * Planner rule that implements the group window functions {@code GROUP BY TUMBLE(ts, size)} and
 * {@code GROUP BY HOP(ts, slide, size)}: Calcite computes them as {@code $TUMBLE($i, size)} in the
 * project below the aggregate; this rule puts a {@link LogicalTimeWindow} under that project and
 * replaces the call by the window's {@code window_start} column (what {@code $TUMBLE} stands for).
 * {@code GROUP BY SESSION(ts, gap)} gets a {@link LogicalSessionWindow} the same way, each row's
 * own session, which the aggregation merges.
 *
 * <p>{@code TUMBLE_END} becomes {@code start + size} above the aggregate already. All window calls
 * of one project must be the same window; a window whose size or gap is not a positive interval
 * literal is left alone.
 *
 * @see FreshetRules#GROUP_WINDOW
 */
@Value.Enclosing
public class GroupWindowRule extends RelRule<GroupWindowRule.Config>
    implements TransformationRule {

  protected GroupWindowRule(Config config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalProject project = call.rel(0);
    final RelNode result = apply(project);
    if (result != null) {
      call.transformTo(result);
    }
  }

  /** The project with its window calls computed by a time window below, or null. */
  public static @Nullable RelNode apply(LogicalProject project) {
    RexCall window = null;
    for (RexNode e : project.getProjects()) {
      RexCall found = findWindow(e);
      if (found != null) {
        if (window != null && !window.equals(found)) {
          // Two different windows over one input cannot be one window assignment.
          return null;
        }
        window = found;
      }
    }
    if (window == null || !(window.getOperands().get(0) instanceof RexInputRef)) {
      return null;
    }
    final int column = ((RexInputRef) window.getOperands().get(0)).getIndex();
    final RelNode windowed;
    final int startIndex;
    if (window.getKind() == SqlKind.SESSION && window.getOperands().size() == 2) {
      // A session per row, which the aggregation above merges (SessionWindows).
      final WindowIntervals gap = WindowIntervals.tumble(window.getOperands().get(1));
      if (gap == null) {
        return null;
      }
      final LogicalSessionWindow session =
          LogicalSessionWindow.create(project.getInput(), column, gap.sizeMs(), null);
      windowed = session;
      startIndex = session.windowStartIndex();
    } else {
      final WindowIntervals intervals;
      if (window.getKind() == SqlKind.TUMBLE && window.getOperands().size() == 2) {
        intervals = WindowIntervals.tumble(window.getOperands().get(1));
      } else if (window.getKind() == SqlKind.HOP && window.getOperands().size() == 3) {
        intervals = WindowIntervals.hop(window.getOperands().get(1),
            window.getOperands().get(2));
      } else {
        return null;
      }
      if (intervals == null) {
        return null;
      }
      final LogicalTimeWindow time = LogicalTimeWindow.create(project.getInput(), column,
          intervals.sizeMs(), intervals.slideMs());
      windowed = time;
      startIndex = time.windowStartIndex();
    }
    final RexBuilder rexBuilder = project.getCluster().getRexBuilder();
    final RexCall target = window;
    final RexNode start = rexBuilder.makeInputRef(windowed, startIndex);
    final RexShuttle replace = new RexShuttle() {
      @Override public RexNode visitCall(RexCall call) {
        if (call.equals(target)) {
          return rexBuilder.makeCast(call.getType(), start, true, false);
        }
        return super.visitCall(call);
      }
    };
    final List<RexNode> projects = new ArrayList<>();
    for (RexNode e : project.getProjects()) {
      projects.add(e.accept(replace));
    }
    return LogicalProject.create(windowed, project.getHints(), projects,
        project.getRowType().getFieldNames(), project.getVariablesSet());
  }

  private static @Nullable RexCall findWindow(RexNode e) {
    if (e instanceof RexCall) {
      RexCall call = (RexCall) e;
      if (call.getOperator() instanceof SqlGroupedWindowFunction
          && (call.getKind() == SqlKind.TUMBLE || call.getKind() == SqlKind.HOP
              || call.getKind() == SqlKind.SESSION)) {
        return call;
      }
      for (RexNode operand : call.getOperands()) {
        RexCall found = findWindow(operand);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** Rule configuration; Immutables generates its implementation, as Calcite's rules do. */
  @Value.Immutable(singleton = true)
  public interface Config extends RelRule.Config {
    /** Matches a project that computes a group window function. */
    Config DEFAULT = ImmutableGroupWindowRule.Config.of()
        .withDescription("GroupWindowRule")
        .withOperandSupplier(b0 -> b0.operand(LogicalProject.class)
            .predicate(p -> p.getProjects().stream().anyMatch(e -> findWindow(e) != null))
            .anyInputs())
        .as(Config.class);

    @Override @Nullable String description();

    @Override default GroupWindowRule toRule() {
      return new GroupWindowRule(this);
    }
  }
}

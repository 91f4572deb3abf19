package dev.freshet.planner.rules;

import dev.freshet.planner.rel.logical.LogicalSessionWindow;
import dev.freshet.planner.rel.logical.LogicalTimeWindow;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;
import org.apache.calcite.rel.rules.TransformationRule;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlHopTableFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSessionTableFunction;
import org.apache.calcite.sql.SqlTumbleTableFunction;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.immutables.value.Value;

/**
 * Planner rule that turns the window table functions
 * {@code TABLE(TUMBLE(TABLE s, DESCRIPTOR(ts), size))} and
 * {@code TABLE(HOP(TABLE s, DESCRIPTOR(ts), slide, size))} into a {@link LogicalTimeWindow}, and
 * {@code TABLE(SESSION(TABLE s, DESCRIPTOR(ts), DESCRIPTOR(k), gap))} into a
 * {@link LogicalSessionWindow}.
 *
 * <p>Windows with an offset argument are left alone (the executor cannot run them; planning then
 * reports the unsupported operator), as are windows whose size or gap is not a positive literal.
 *
 * @see FreshetRules#WINDOW_TABLE_FUNCTION
 */
@Value.Enclosing
public class WindowTableFunctionRule extends RelRule<WindowTableFunctionRule.Config>
    implements TransformationRule {

  protected WindowTableFunctionRule(Config config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalTableFunctionScan scan = call.rel(0);
    final RelNode result = apply(scan);
    if (result != null) {
      call.transformTo(result);
    }
  }

  /** The time window equivalent to {@code scan}, or null if it is not a supported window. */
  public static @Nullable RelNode apply(LogicalTableFunctionScan scan) {
    if (!(scan.getCall() instanceof RexCall) || scan.getInputs().size() != 1) {
      return null;
    }
    final RexCall call = (RexCall) scan.getCall();
    if (!(call.getOperator() instanceof SqlWindowTableFunction)) {
      return null;
    }
    final List<RexNode> operands = call.getOperands();
    final Integer column = descriptorColumn(operands.get(0));
    if (column == null) {
      return null;
    }
    // The call's kind is OTHER_FUNCTION; the operator class tells the window. Windows with an
    // offset are not supported by the executor.
    final RelNode session = session(scan, call, column);
    if (session != null) {
      return RelOptUtil.areRowTypesEqual(session.getRowType(), scan.getRowType(), false)
          ? session
          : RelOptUtil.createCastRel(session, scan.getRowType(), true);
    }
    final WindowIntervals intervals;
    if (call.getOperator() instanceof SqlTumbleTableFunction && operands.size() == 2) {
      intervals = WindowIntervals.tumble(operands.get(1));
    } else if (call.getOperator() instanceof SqlHopTableFunction && operands.size() == 3) {
      intervals = WindowIntervals.hop(operands.get(1), operands.get(2));
    } else {
      return null;
    }
    if (intervals == null) {
      return null;
    }
    final RelNode window = LogicalTimeWindow.create(scan.getInputs().get(0), column,
        intervals.sizeMs(), intervals.slideMs());
    return RelOptUtil.areRowTypesEqual(window.getRowType(), scan.getRowType(), false)
        ? window
        : RelOptUtil.createCastRel(window, scan.getRowType(), true);
  }

  /**
   * {@code SESSION(TABLE s, DESCRIPTOR(ts), [DESCRIPTOR(k, ...),] gap)} (Calcite 1.41's signature)
   * as a {@link LogicalSessionWindow}, or null if {@code call} is not one with a positive gap.
   */
  private static @Nullable RelNode session(LogicalTableFunctionScan scan, RexCall call,
      int column) {
    final List<RexNode> operands = call.getOperands();
    if (!(call.getOperator() instanceof SqlSessionTableFunction)
        || operands.size() < 2 || operands.size() > 3) {
      return null;
    }
    final WindowIntervals gap = WindowIntervals.tumble(operands.get(operands.size() - 1));
    if (gap == null) {
      return null;
    }
    final ImmutableBitSet.Builder keys = ImmutableBitSet.builder();
    if (operands.size() == 3) {
      if (operands.get(1).getKind() != SqlKind.DESCRIPTOR) {
        return null;
      }
      for (RexNode key : ((RexCall) operands.get(1)).getOperands()) {
        if (!(key instanceof RexInputRef)) {
          return null;
        }
        keys.set(((RexInputRef) key).getIndex());
      }
    }
    return LogicalSessionWindow.create(scan.getInputs().get(0), column, gap.sizeMs(),
        keys.build());
  }

  private static @Nullable Integer descriptorColumn(RexNode descriptor) {
    if (descriptor.getKind() != SqlKind.DESCRIPTOR) {
      return null;
    }
    List<RexNode> columns = ((RexCall) descriptor).getOperands();
    return columns.size() == 1 && columns.get(0) instanceof RexInputRef
        ? ((RexInputRef) columns.get(0)).getIndex() : null;
  }

  /** Rule configuration; Immutables generates its implementation, as Calcite's rules do. */
  @Value.Immutable(singleton = true)
  public interface Config extends RelRule.Config {
    /** Matches a window table function over one input. */
    Config DEFAULT = ImmutableWindowTableFunctionRule.Config.of()
        .withDescription("WindowTableFunctionRule")
        .withOperandSupplier(b0 -> b0.operand(LogicalTableFunctionScan.class).anyInputs())
        .as(Config.class);

    @Override @Nullable String description();

    @Override default WindowTableFunctionRule toRule() {
      return new WindowTableFunctionRule(this);
    }
  }
}

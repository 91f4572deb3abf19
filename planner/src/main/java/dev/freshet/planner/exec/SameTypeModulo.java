package dev.freshet.planner.exec;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Rewrites {@code MOD} of two integers of different widths so that both operands have the wider
 * type, casting the result back to the call's type.
 *
 * <p>Why: Calcite translates {@code MOD(n, 1000)} with {@code n BIGINT} into
 * {@code SqlFunctions.mod(long, int)}, which has no exact overload, and Janino resolves it to
 * {@code mod(BigDecimal, int)}: every row then pays a {@code BigDecimal} division. With both
 * operands {@code long}, Janino picks {@code mod(long, long)}. The value is the same: the remainder
 * of integers is an integer no wider than the divisor.
 *
 * <pre>{@code
 * RexProgram fixed = SameTypeModulo.rewrite(program, rexBuilder);
 * }</pre>
 */
final class SameTypeModulo extends RexShuttle {
  private final RexBuilder rexBuilder;
  private boolean changed;

  private SameTypeModulo(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
  }

  /** Returns {@code program} with its mixed-width integer {@code MOD} calls rewritten. */
  static RexProgram rewrite(RexProgram program, RexBuilder rexBuilder) {
    SameTypeModulo shuttle = new SameTypeModulo(rexBuilder);
    List<RexNode> projects = new ArrayList<>();
    for (RexLocalRef ref : program.getProjectList()) {
      projects.add(program.expandLocalRef(ref).accept(shuttle));
    }
    RexNode condition = program.getCondition() == null
        ? null : program.expandLocalRef(program.getCondition()).accept(shuttle);
    if (!shuttle.changed) {
      return program;
    }
    return RexProgram.create(program.getInputRowType(), projects, condition,
        program.getOutputRowType(), rexBuilder);
  }

  @Override public RexNode visitCall(RexCall call) {
    RexNode visited = super.visitCall(call);
    if (visited.getKind() != SqlKind.MOD) {
      return visited;
    }
    RexCall mod = (RexCall) visited;
    RelDataType left = mod.getOperands().get(0).getType();
    RelDataType right = mod.getOperands().get(1).getType();
    if (!isInteger(left) || !isInteger(right)
        || left.getSqlTypeName() == right.getSqlTypeName()) {
      return visited;
    }
    RelDataType wider = left.getPrecision() >= right.getPrecision() ? left : right;
    List<RexNode> operands = new ArrayList<>(2);
    for (RexNode operand : mod.getOperands()) {
      operands.add(rexBuilder.makeCast(
          rexBuilder.getTypeFactory().createTypeWithNullability(wider,
              operand.getType().isNullable()),
          operand, true, false));
    }
    changed = true;
    RexNode widened = rexBuilder.makeCall(mod.getOperator(), operands);
    return widened.getType().equals(mod.getType())
        ? widened : rexBuilder.makeCast(mod.getType(), widened, true, false);
  }

  private static boolean isInteger(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return name == SqlTypeName.TINYINT || name == SqlTypeName.SMALLINT
        || name == SqlTypeName.INTEGER || name == SqlTypeName.BIGINT;
  }
}

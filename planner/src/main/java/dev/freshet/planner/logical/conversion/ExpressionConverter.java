package dev.freshet.planner.logical.conversion;

import static java.util.Objects.requireNonNull;

import dev.freshet.planner.logical.Expression;
import dev.freshet.planner.logical.Expression.Call;
import dev.freshet.planner.logical.Expression.ColumnRef;
import dev.freshet.planner.logical.Expression.Literal;
import dev.freshet.planner.logical.Expression.Operator;
import dev.freshet.planner.logical.Expression.Unsupported;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Converts Calcite's row expressions into {@link Expression}s: what another engine computes
 * today (comparisons, AND, OR, NOT, IS [NOT] NULL/TRUE/FALSE, arithmetic, CAST, CASE, COALESCE,
 * IN lists and ranges written out as comparisons, LIKE and ILIKE with a literal pattern, UPPER,
 * LOWER, CHAR_LENGTH, SUBSTRING, TRIM and ||), anything else as {@link Unsupported} naming it.
 * Only the operands the operator takes are converted.
 *
 * <pre>{@code
 * Expression e = new ExpressionConverter(rexBuilder).convert(filter.getCondition());
 * }</pre>
 */
public final class ExpressionConverter {
  private final RexBuilder rexBuilder;

  /** @param rexBuilder the plan's, to write out a SEARCH's ranges as comparisons */
  public ExpressionConverter(RexBuilder rexBuilder) {
    this.rexBuilder = requireNonNull(rexBuilder, "rexBuilder");
  }

  /** {@code node} as an {@link Expression}. */
  public Expression convert(RexNode node) {
    if (node instanceof RexInputRef ref) {
      return new ColumnRef(ref.getIndex(), LogicalTypes.of(ref.getType()));
    }
    if (node instanceof RexLiteral literal) {
      return literal(literal);
    }
    if (node instanceof RexCall call) {
      return call(call);
    }
    return new Unsupported(node.toString());
  }

  private static Expression literal(RexLiteral literal) {
    Object value = literalValue(literal);
    if (value == null && !literal.isNull()) {
      return new Unsupported("a literal of type " + literal.getType());
    }
    return new Literal(value, LogicalTypes.of(literal.getType()));
  }

  /** The literal's value as {@link Literal} holds it; null if NULL or of no type it holds. */
  private static Object literalValue(RexLiteral literal) {
    if (literal.isNull()) {
      return null;
    }
    SqlTypeName type = literal.getType().getSqlTypeName();
    if (SqlTypeUtil.isCharacter(literal.getType())) {
      return literal.getValueAs(String.class);
    }
    if (type == SqlTypeName.BOOLEAN) {
      return literal.getValueAs(Boolean.class);
    }
    if (SqlTypeUtil.isNumeric(literal.getType())) {
      return literal.getValueAs(BigDecimal.class);
    }
    if (type == SqlTypeName.TIMESTAMP) {
      return literal.getValueAs(Long.class);
    }
    if (type.getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
      return Duration.ofMillis(literal.getValueAs(BigDecimal.class).longValueExact());
    }
    return null;
  }

  private Expression call(RexCall call) {
    SqlKind kind = call.getKind();
    switch (kind) {
      // IN lists and ranges: Calcite's Sarg, written out as comparisons.
      case SEARCH: return convert(RexUtil.expandSearch(rexBuilder, null, call));
      case CAST: return call(Operator.CAST, call, 1);
      case CASE: return call(Operator.CASE, call, call.getOperands().size());
      case LIKE: return like(call);
      case EQUALS: return call(Operator.EQUALS, call, 2);
      case NOT_EQUALS: return call(Operator.NOT_EQUALS, call, 2);
      case LESS_THAN: return call(Operator.LESS_THAN, call, 2);
      case LESS_THAN_OR_EQUAL: return call(Operator.LESS_THAN_OR_EQUAL, call, 2);
      case GREATER_THAN: return call(Operator.GREATER_THAN, call, 2);
      case GREATER_THAN_OR_EQUAL: return call(Operator.GREATER_THAN_OR_EQUAL, call, 2);
      case IS_NOT_DISTINCT_FROM: return call(Operator.IS_NOT_DISTINCT_FROM, call, 2);
      case IS_DISTINCT_FROM: return call(Operator.IS_DISTINCT_FROM, call, 2);
      case AND: return call(Operator.AND, call, call.getOperands().size());
      case OR: return call(Operator.OR, call, call.getOperands().size());
      case NOT: return call(Operator.NOT, call, 1);
      case IS_NULL: return call(Operator.IS_NULL, call, 1);
      case IS_NOT_NULL: return call(Operator.IS_NOT_NULL, call, 1);
      case IS_TRUE: return call(Operator.IS_TRUE, call, 1);
      case IS_NOT_TRUE: return call(Operator.IS_NOT_TRUE, call, 1);
      case IS_FALSE: return call(Operator.IS_FALSE, call, 1);
      case IS_NOT_FALSE: return call(Operator.IS_NOT_FALSE, call, 1);
      case COALESCE: return call(Operator.COALESCE, call, call.getOperands().size());
      case PLUS:
      case CHECKED_PLUS: return call(Operator.PLUS, call, 2);
      case MINUS:
      case CHECKED_MINUS: return call(Operator.MINUS, call, 2);
      case TIMES:
      case CHECKED_TIMES: return call(Operator.TIMES, call, 2);
      case DIVIDE:
      case CHECKED_DIVIDE: return call(Operator.DIVIDE, call, 2);
      case MOD: return call(Operator.MOD, call, 2);
      case MINUS_PREFIX:
      case CHECKED_MINUS_PREFIX: return call(Operator.NEGATE, call, 1);
      case PLUS_PREFIX: return call(Operator.UNARY_PLUS, call, 1);
      default: return function(call);
    }
  }

  /** Calcite's string functions, by name, which another engine has with the same meaning. */
  private Expression function(RexCall call) {
    String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
    switch (name) {
      case "UPPER": return call(Operator.UPPER, call, 1);
      case "LOWER": return call(Operator.LOWER, call, 1);
      case "CHAR_LENGTH":
      case "CHARACTER_LENGTH": return call(Operator.CHAR_LENGTH, call, 1);
      case "||": return call(Operator.CONCAT, call, 2);
      case "SUBSTRING": return call(Operator.SUBSTRING, call, call.getOperands().size());
      case "TRIM": return trim(call);
      default: return new Unsupported(call.getOperator().getName());
    }
  }

  /**
   * TRIM(flag, characters, string): the flag becomes the operator. The flag is a symbol, whose
   * value is an enum ({@code getValueAs(String.class)} refuses a symbol).
   */
  private Expression trim(RexCall call) {
    Object flag = ((RexLiteral) call.getOperands().get(0)).getValue();
    Operator operator = switch (flag instanceof Enum<?> e ? e.name() : String.valueOf(flag)) {
      case "LEADING" -> Operator.TRIM_LEADING;
      case "TRAILING" -> Operator.TRIM_TRAILING;
      default -> Operator.TRIM_BOTH;
    };
    return new Call(operator, List.of(convert(call.getOperands().get(1)),
        convert(call.getOperands().get(2))), LogicalTypes.of(call.getType()));
  }

  /** LIKE, NOT LIKE, ILIKE and NOT ILIKE with a literal pattern and no ESCAPE. */
  private Expression like(RexCall call) {
    String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
    if (call.getOperands().size() != 2
        || !(call.getOperands().get(1) instanceof RexLiteral pattern)) {
      return new Unsupported(name + " with ESCAPE or a pattern that is not a literal");
    }
    boolean negated = name.startsWith("NOT ");
    Operator operator = name.contains("ILIKE")
        ? (negated ? Operator.NOT_ILIKE : Operator.ILIKE)
        : (negated ? Operator.NOT_LIKE : Operator.LIKE);
    Literal text = new Literal(pattern.getValueAs(String.class),
        LogicalTypes.of(pattern.getType()));
    return new Call(operator, List.of(convert(call.getOperands().get(0)), text),
        LogicalTypes.of(call.getType()));
  }

  /** {@code operator} over the call's first {@code arity} operands. */
  private Expression call(Operator operator, RexCall call, int arity) {
    List<Expression> operands = new ArrayList<>(arity);
    for (RexNode operand : call.getOperands().subList(0, arity)) {
      operands.add(convert(operand));
    }
    return new Call(operator, operands, LogicalTypes.of(call.getType()));
  }
}

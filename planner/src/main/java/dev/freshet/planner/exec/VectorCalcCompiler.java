package dev.freshet.planner.exec;

import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.operators.VectorCalcOperator;
import dev.freshet.executor.operators.VectorOperator;
import dev.freshet.executor.vector.ArithmeticOp;
import dev.freshet.executor.vector.ComparisonOp;
import dev.freshet.executor.vector.VectorExpression;
import dev.freshet.executor.vector.VectorExpressions;
import dev.freshet.executor.vector.VectorType;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles a {@link RexProgram} into a {@link VectorCalcOperator}: a tree of vector kernels
 * ({@link VectorExpressions}) per projection and for the condition, when every expression is in
 * the columnar subset; else says no, and the plan keeps its row path.
 *
 * <pre>{@code
 * VectorType[] out = VectorCalcCompiler.outputTypes(program, inputTypes);   // null: not columnar
 * VectorOperator calc = VectorCalcCompiler.compile(program, inputTypes, rexBuilder, errors, next);
 * }</pre>
 *
 * <p>The subset: columns of INTEGER, BIGINT, DOUBLE, BOOLEAN, TIMESTAMP (read as BIGINT
 * milliseconds) and VARCHAR (dictionary-encoded strings); INTEGER, BIGINT, DOUBLE, BOOLEAN and
 * character literals and NULL; {@code + - *} and unary
 * minus on integers, checked (Calcite's {@code CHECKED_PLUS} and the like: overflow fails the
 * row) or not, {@code + - * /} on doubles, integer {@code /} and {@code %}/{@code MOD};
 * comparisons (of two strings too, as {@code String.compareTo}); AND, OR, NOT, IS [NOT] NULL;
 * CAST between INTEGER and BIGINT and from them to
 * DOUBLE. A kernel that can fail for a row (checked arithmetic, division, a narrowing CAST) is
 * not taken under AND or OR, whose operands the row path's Java may not evaluate for every row;
 * elsewhere the row path evaluates an expression for every row whose operands are not NULL, as
 * the kernels do. The kernels compute what Calcite's generated code computes (see
 * {@link VectorExpressions}).
 */
final class VectorCalcCompiler {
  private static final Logger LOG = LoggerFactory.getLogger(VectorCalcCompiler.class);

  private final RexProgram program;
  private final VectorType[] inputTypes;

  /** An expression outside the subset. */
  private static final class Unsupported extends Exception {
    Unsupported(String message) {
      super(message, null, false, false);
    }
  }

  private VectorCalcCompiler(RexProgram program, VectorType[] inputTypes) {
    this.program = program;
    this.inputTypes = inputTypes;
  }

  /**
   * The vector types of {@code program}'s output columns if it compiles over input columns of
   * {@code inputTypes} (null for a column without a vector), else null.
   */
  static VectorType @Nullable [] outputTypes(RexProgram program, VectorType[] inputTypes,
      RexBuilder rexBuilder) {
    try {
      new VectorCalcCompiler(program, inputTypes).compileAll(rexBuilder);
      return outputTypesOf(program);
    } catch (Unsupported | IllegalArgumentException e) {
      LOG.debug("Calc {} keeps the row path: {}", program, e.getMessage());
      return null;
    }
  }

  /**
   * Compiles {@code program}, which {@link #outputTypes} accepted, into an operator of its own
   * kernels (an input task's: kernels hold their vectors).
   */
  static VectorOperator compile(RexProgram program, VectorType[] inputTypes, RexBuilder rexBuilder,
      RowErrors rowErrors, VectorOperator downstream) {
    try {
      VectorCalcCompiler compiler = new VectorCalcCompiler(program, inputTypes);
      VectorExpression[] all = compiler.compileAll(rexBuilder);
      VectorExpression[] projections = java.util.Arrays.copyOf(all, all.length - 1);
      return new VectorCalcOperator(all[all.length - 1], projections, outputTypesOf(program),
          rowErrors, downstream);
    } catch (Unsupported e) {
      throw new IllegalArgumentException("not a columnar calc: " + e.getMessage(), e);
    }
  }

  /** The projections' kernels, then the condition's (null without one). */
  private VectorExpression[] compileAll(RexBuilder rexBuilder) throws Unsupported {
    List<RexLocalRef> projects = program.getProjectList();
    VectorExpression[] all = new VectorExpression[projects.size() + 1];
    for (int i = 0; i < projects.size(); i++) {
      RexNode e = RexUtil.expandSearch(rexBuilder, null, program.expandLocalRef(projects.get(i)));
      all[i] = compile(e, true);
    }
    if (program.getCondition() != null) {
      RexNode condition = RexUtil.expandSearch(rexBuilder, null,
          program.expandLocalRef(program.getCondition()));
      all[projects.size()] = compile(condition, true);
    }
    return all;
  }

  private static VectorType[] outputTypesOf(RexProgram program) throws IllegalArgumentException {
    List<org.apache.calcite.rel.type.RelDataTypeField> fields =
        program.getOutputRowType().getFieldList();
    VectorType[] types = new VectorType[fields.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = vectorType(fields.get(i).getType());
      if (types[i] == null) {
        throw new IllegalArgumentException("no vector of " + fields.get(i).getType());
      }
    }
    return types;
  }

  /** The vector type of values of {@code type}, or null if there is none. */
  static @Nullable VectorType vectorType(RelDataType type) {
    switch (type.getSqlTypeName()) {
    case INTEGER:
      return VectorType.INT;
    case BIGINT:
    case TIMESTAMP:
      return VectorType.LONG;
    case DOUBLE:
      return VectorType.DOUBLE;
    case BOOLEAN:
      return VectorType.BOOLEAN;
    case VARCHAR:
      // Not CHAR(n), whose values the row path pads.
      return VectorType.STRING;
    default:
      return null;
    }
  }

  /**
   * The kernel of {@code node}.
   *
   * @param mayFail whether a kernel that fails for a row may be here: not under AND or OR
   */
  private VectorExpression compile(RexNode node, boolean mayFail) throws Unsupported {
    if (node instanceof RexInputRef ref) {
      VectorType type = inputTypes[ref.getIndex()];
      if (type == null || type != vectorType(ref.getType())) {
        throw new Unsupported("column " + ref.getIndex() + " of " + ref.getType());
      }
      return VectorExpressions.column(ref.getIndex(), type);
    }
    if (node instanceof RexLiteral literal) {
      return literal(literal);
    }
    if (!(node instanceof RexCall call)) {
      throw new Unsupported(node.toString());
    }
    List<RexNode> operands = call.getOperands();
    switch (call.getKind()) {
    case PLUS:
    case CHECKED_PLUS:
      return arithmetic(ArithmeticOp.ADD, call, mayFail);
    case MINUS:
    case CHECKED_MINUS:
      return arithmetic(ArithmeticOp.SUBTRACT, call, mayFail);
    case TIMES:
    case CHECKED_TIMES:
      return arithmetic(ArithmeticOp.MULTIPLY, call, mayFail);
    case DIVIDE:
    case CHECKED_DIVIDE:
      return arithmetic(ArithmeticOp.DIVIDE, call, mayFail);
    case MOD:
      return arithmetic(ArithmeticOp.MOD, call, mayFail);
    case MINUS_PREFIX:
    case CHECKED_MINUS_PREFIX: {
      VectorType type = integer(call.getType());
      VectorExpression operand = compile(operands.get(0), mayFail);
      // -x is 0 - x for integers, wrapping or overflowing alike (Calcite's checkedUnaryMinus
      // is subtractExact(0, x)); not for doubles (-0.0), which stay on the row path.
      return failIfNeeded(VectorExpressions.arithmetic(ArithmeticOp.SUBTRACT,
          VectorExpressions.literal(0, type), VectorExpressions.retype(operand, type), type,
          call.getKind() == SqlKind.CHECKED_MINUS_PREFIX), mayFail);
    }
    case EQUALS:
      return compare(ComparisonOp.EQUALS, call, mayFail);
    case NOT_EQUALS:
      return compare(ComparisonOp.NOT_EQUALS, call, mayFail);
    case LESS_THAN:
      return compare(ComparisonOp.LESS_THAN, call, mayFail);
    case LESS_THAN_OR_EQUAL:
      return compare(ComparisonOp.LESS_THAN_OR_EQUAL, call, mayFail);
    case GREATER_THAN:
      return compare(ComparisonOp.GREATER_THAN, call, mayFail);
    case GREATER_THAN_OR_EQUAL:
      return compare(ComparisonOp.GREATER_THAN_OR_EQUAL, call, mayFail);
    case AND:
    case OR: {
      // The row path may skip an operand (Java's && and ||): one that can fail stays there.
      boolean and = call.getKind() == SqlKind.AND;
      VectorExpression result = compile(operands.get(0), false);
      for (int i = 1; i < operands.size(); i++) {
        result = VectorExpressions.logical(and, result, compile(operands.get(i), false));
      }
      return result;
    }
    case NOT:
      return VectorExpressions.not(compile(operands.get(0), mayFail));
    case IS_NULL:
      return VectorExpressions.isNull(compile(operands.get(0), mayFail), false);
    case IS_NOT_NULL:
      return VectorExpressions.isNull(compile(operands.get(0), mayFail), true);
    case CAST:
      return cast(call, mayFail);
    default:
      throw new Unsupported(call.getKind().toString());
    }
  }

  private VectorExpression literal(RexLiteral literal) throws Unsupported {
    RelDataType type = literal.getType();
    if (SqlTypeUtil.inCharFamily(type)) {
      // A CHAR(n) literal is its n characters: it only meets strings in a comparison.
      return literal.isNull() ? VectorExpressions.nullLiteral(VectorType.STRING)
          : VectorExpressions.literal(literal.getValueAs(String.class));
    }
    VectorType vectorType = vectorType(type);
    if (vectorType == null || type.getSqlTypeName() == SqlTypeName.TIMESTAMP) {
      throw new Unsupported("literal " + literal);
    }
    if (literal.isNull()) {
      return VectorExpressions.nullLiteral(vectorType);
    }
    switch (vectorType) {
    case BOOLEAN:
      return VectorExpressions.literal(Boolean.TRUE.equals(literal.getValueAs(Boolean.class))
          ? 1 : 0, VectorType.BOOLEAN);
    case DOUBLE:
      return VectorExpressions.literal(literal.getValueAs(Double.class));
    default:
      return VectorExpressions.literal(literal.getValueAs(Long.class), vectorType);
    }
  }

  private VectorExpression arithmetic(ArithmeticOp op, RexCall call, boolean mayFail)
      throws Unsupported {
    SqlTypeName result = call.getType().getSqlTypeName();
    VectorExpression left = compile(call.getOperands().get(0), mayFail);
    VectorExpression right = compile(call.getOperands().get(1), mayFail);
    if (result == SqlTypeName.DOUBLE) {
      // Calcite checks integer arithmetic only; doubles follow IEEE 754.
      return VectorExpressions.arithmetic(op, asDouble(left), asDouble(right), VectorType.DOUBLE);
    }
    VectorType type = integer(call.getType());
    requireNumeric(call.getOperands());
    boolean checked = SqlKind.CHECKED_ARITHMETIC.contains(call.getKind());
    return failIfNeeded(VectorExpressions.arithmetic(op, left, right, type, checked), mayFail);
  }

  private VectorExpression compare(ComparisonOp op, RexCall call, boolean mayFail)
      throws Unsupported {
    RexNode a = call.getOperands().get(0);
    RexNode b = call.getOperands().get(1);
    SqlTypeName ta = a.getType().getSqlTypeName();
    SqlTypeName tb = b.getType().getSqlTypeName();
    boolean timestamps = ta == SqlTypeName.TIMESTAMP && tb == SqlTypeName.TIMESTAMP;
    if (SqlTypeUtil.inCharFamily(a.getType()) && SqlTypeUtil.inCharFamily(b.getType())) {
      return VectorExpressions.compare(op, string(a, mayFail), string(b, mayFail));
    }
    if (!timestamps) {
      requireNumeric(call.getOperands());
    }
    VectorExpression left = compile(a, mayFail);
    VectorExpression right = compile(b, mayFail);
    if (left.type() == VectorType.DOUBLE || right.type() == VectorType.DOUBLE) {
      return VectorExpressions.compare(op, asDouble(left), asDouble(right));
    }
    return VectorExpressions.compare(op, left, right);
  }

  /** The STRING kernel of a character-typed operand of a comparison. */
  private VectorExpression string(RexNode node, boolean mayFail) throws Unsupported {
    VectorExpression e = compile(node, mayFail);
    if (e.type() != VectorType.STRING) {
      throw new Unsupported("not a string: " + node);
    }
    return e;
  }

  /** {@code e}, unless it can fail for a row where no kernel may. */
  private static VectorExpression failIfNeeded(VectorExpression e, boolean mayFail)
      throws Unsupported {
    if (e.canFail() && !mayFail) {
      throw new Unsupported("an expression that can fail under AND or OR");
    }
    return e;
  }

  private VectorExpression cast(RexCall call, boolean mayFail) throws Unsupported {
    RexNode operand = call.getOperands().get(0);
    SqlTypeName from = operand.getType().getSqlTypeName();
    SqlTypeName to = call.getType().getSqlTypeName();
    if (from == SqlTypeName.VARCHAR && to == SqlTypeName.VARCHAR) {
      // The same strings unless the CAST truncates them, which the row path does.
      int fromLength = operand.getType().getPrecision();
      int toLength = call.getType().getPrecision();
      if (toLength == RelDataType.PRECISION_NOT_SPECIFIED
          || fromLength != RelDataType.PRECISION_NOT_SPECIFIED && toLength >= fromLength) {
        return compile(operand, mayFail);
      }
      throw new Unsupported("CAST to a shorter VARCHAR");
    }
    if (from == to && (from == SqlTypeName.TIMESTAMP || vectorType(call.getType()) != null)) {
      // Only the nullability changes.
      return compile(operand, mayFail);
    }
    VectorExpression value = compile(operand, mayFail);
    if (from == SqlTypeName.INTEGER && to == SqlTypeName.BIGINT) {
      return VectorExpressions.retype(value, VectorType.LONG);
    }
    if (from == SqlTypeName.BIGINT && to == SqlTypeName.INTEGER) {
      return failIfNeeded(VectorExpressions.toInt(value), mayFail);
    }
    if ((from == SqlTypeName.INTEGER || from == SqlTypeName.BIGINT)
        && to == SqlTypeName.DOUBLE) {
      return VectorExpressions.toDouble(value);
    }
    throw new Unsupported("CAST from " + from + " to " + to);
  }

  private static VectorExpression asDouble(VectorExpression e) throws Unsupported {
    if (e.type() == VectorType.DOUBLE) {
      return e;
    }
    if (e.type() == VectorType.INT || e.type() == VectorType.LONG) {
      return VectorExpressions.toDouble(e);
    }
    throw new Unsupported("not a number: " + e.type());
  }

  /** INT or LONG for an INTEGER or BIGINT {@code type}. */
  private static VectorType integer(RelDataType type) throws Unsupported {
    switch (type.getSqlTypeName()) {
    case INTEGER:
      return VectorType.INT;
    case BIGINT:
      return VectorType.LONG;
    default:
      throw new Unsupported("arithmetic in " + type);
    }
  }

  /** Checks that every operand is an INTEGER, a BIGINT or a DOUBLE. */
  private static void requireNumeric(List<RexNode> operands) throws Unsupported {
    for (RexNode operand : operands) {
      SqlTypeName t = operand.getType().getSqlTypeName();
      if (t != SqlTypeName.INTEGER && t != SqlTypeName.BIGINT && t != SqlTypeName.DOUBLE) {
        throw new Unsupported("operand of " + operand.getType());
      }
    }
  }
}

package dev.freshet.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/**
 * Translates a Calcite row expression over an input's columns into a Spark {@link Column}; what
 * it cannot translate is refused with SQLSTATE 0A000 while planning, before Spark runs anything.
 *
 * <pre>{@code
 * Column c = new ColumnTranslator(rexBuilder, inputColumns).translate(filter.getCondition());
 * }</pre>
 */
final class ColumnTranslator {
  /** What {@link #translate} accepts, for the error that refuses the rest. */
  private static final String SUPPORTED = "comparisons, AND, OR, NOT, IS [NOT] NULL, + - * / %,"
      + " CAST, CASE, COALESCE, IN, LIKE, UPPER, LOWER, CHAR_LENGTH, SUBSTRING, TRIM and ||";

  private final RexBuilder rexBuilder;
  private final List<Column> inputs;

  ColumnTranslator(RexBuilder rexBuilder, List<Column> inputs) {
    this.rexBuilder = rexBuilder;
    this.inputs = List.copyOf(inputs);
  }

  Column translate(RexNode node) throws SQLException {
    if (node instanceof RexInputRef ref) {
      return inputs.get(ref.getIndex());
    }
    if (node instanceof RexLiteral literal) {
      return literal(literal);
    }
    if (node instanceof RexCall call) {
      return call(call);
    }
    throw refused(node.toString());
  }

  private Column literal(RexLiteral literal) throws SQLException {
    if (literal.isNull()) {
      return lit(null).cast(SparkTypes.of(literal.getType()));
    }
    SqlTypeName type = literal.getType().getSqlTypeName();
    if (SqlTypeUtil.isCharacter(literal.getType())) {
      return lit(literal.getValueAs(String.class));
    }
    if (type == SqlTypeName.BOOLEAN) {
      return lit(literal.getValueAs(Boolean.class));
    }
    if (SqlTypeUtil.isNumeric(literal.getType())) {
      return lit(literal.getValueAs(BigDecimal.class)).cast(SparkTypes.of(literal.getType()));
    }
    if (type == SqlTypeName.TIMESTAMP) {
      return functions.timestamp_millis(lit(literal.getValueAs(Long.class)));
    }
    if (type.getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
      // Spark's day-time interval: a timestamp plus it stays a timestamp (TUMBLE_END).
      return lit(Duration.ofMillis(literal.getValueAs(BigDecimal.class).longValueExact()));
    }
    throw refused("a literal of type " + literal.getType());
  }

  private Column call(RexCall call) throws SQLException {
    SqlKind kind = call.getKind();
    if (kind == SqlKind.SEARCH) {
      // IN lists and ranges: Calcite's Sarg, written out as comparisons.
      return translate(RexUtil.expandSearch(rexBuilder, null, call));
    }
    if (kind == SqlKind.CAST) {
      return operand(call, 0).cast(SparkTypes.of(call.getType()));
    }
    if (kind == SqlKind.CASE) {
      return caseWhen(call);
    }
    if (kind == SqlKind.LIKE) {
      return like(call);
    }
    switch (kind) {
      case EQUALS: return operand(call, 0).equalTo(operand(call, 1));
      case NOT_EQUALS: return operand(call, 0).notEqual(operand(call, 1));
      case LESS_THAN: return operand(call, 0).lt(operand(call, 1));
      case LESS_THAN_OR_EQUAL: return operand(call, 0).leq(operand(call, 1));
      case GREATER_THAN: return operand(call, 0).gt(operand(call, 1));
      case GREATER_THAN_OR_EQUAL: return operand(call, 0).geq(operand(call, 1));
      case IS_NOT_DISTINCT_FROM: return operand(call, 0).eqNullSafe(operand(call, 1));
      case IS_DISTINCT_FROM: return not(operand(call, 0).eqNullSafe(operand(call, 1)));
      case AND: return fold(call, true);
      case OR: return fold(call, false);
      case NOT: return not(operand(call, 0));
      case IS_NULL: return operand(call, 0).isNull();
      case IS_NOT_NULL: return operand(call, 0).isNotNull();
      case IS_TRUE: return coalesce(operand(call, 0), lit(false));
      case IS_NOT_TRUE: return not(coalesce(operand(call, 0), lit(false)));
      case IS_FALSE: return coalesce(not(operand(call, 0)), lit(false));
      case IS_NOT_FALSE: return coalesce(operand(call, 0), lit(true));
      case COALESCE: return coalesce(operands(call).toArray(new Column[0]));
      default: break;
    }
    Column arithmetic = arithmetic(call);
    if (arithmetic != null) {
      // Spark widens (int / int is a double); Calcite's type is what the query sees.
      return SqlTypeUtil.isNumeric(call.getType())
          ? arithmetic.cast(SparkTypes.of(call.getType())) : arithmetic;
    }
    return function(call);
  }

  private Column arithmetic(RexCall call) throws SQLException {
    switch (call.getKind()) {
      case PLUS:
      case CHECKED_PLUS: return operand(call, 0).plus(operand(call, 1));
      case MINUS:
      case CHECKED_MINUS: return operand(call, 0).minus(operand(call, 1));
      case TIMES:
      case CHECKED_TIMES: return operand(call, 0).multiply(operand(call, 1));
      case DIVIDE:
      case CHECKED_DIVIDE: return operand(call, 0).divide(operand(call, 1));
      case MOD: return operand(call, 0).mod(operand(call, 1));
      case MINUS_PREFIX:
      case CHECKED_MINUS_PREFIX: return functions.negate(operand(call, 0));
      case PLUS_PREFIX: return operand(call, 0);
      default: return null;
    }
  }

  /** Calcite's string functions that Spark has with the same meaning. */
  private Column function(RexCall call) throws SQLException {
    String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
    switch (name) {
      case "UPPER": return functions.upper(operand(call, 0));
      case "LOWER": return functions.lower(operand(call, 0));
      case "CHAR_LENGTH":
      case "CHARACTER_LENGTH": return functions.char_length(operand(call, 0))
          .cast(SparkTypes.of(call.getType()));
      case "||": return functions.concat(operand(call, 0), operand(call, 1));
      case "SUBSTRING": return call.getOperands().size() == 2
          ? functions.substring(operand(call, 0), operand(call, 1), lit(Integer.MAX_VALUE))
          : functions.substring(operand(call, 0), operand(call, 1), operand(call, 2));
      case "TRIM": return trim(call);
      default: throw refused(call.getOperator().getName());
    }
  }

  private Column trim(RexCall call) throws SQLException {
    // TRIM(flag, characters, string)
    String flag = ((RexLiteral) call.getOperands().get(0)).getValueAs(String.class);
    Column chars = operand(call, 1);
    Column string = operand(call, 2);
    switch (String.valueOf(flag)) {
      case "LEADING": return functions.ltrim(string, chars);
      case "TRAILING": return functions.rtrim(string, chars);
      default: return functions.trim(string, chars);
    }
  }

  /** LIKE, NOT LIKE, ILIKE and NOT ILIKE with a literal pattern and no ESCAPE. */
  private Column like(RexCall call) throws SQLException {
    String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
    if (call.getOperands().size() != 2
        || !(call.getOperands().get(1) instanceof RexLiteral pattern)) {
      throw refused(name + " with ESCAPE or a pattern that is not a literal");
    }
    // SQL's and Spark's LIKE agree on % and _ with the default escape.
    String text = pattern.getValueAs(String.class);
    Column like = name.contains("ILIKE") ? operand(call, 0).ilike(text)
        : operand(call, 0).like(text);
    return name.startsWith("NOT ") ? not(like) : like;
  }

  private Column caseWhen(RexCall call) throws SQLException {
    List<Column> operands = operands(call);
    Column result = when(operands.get(0), operands.get(1));
    for (int i = 2; i + 1 < operands.size(); i += 2) {
      result = result.when(operands.get(i), operands.get(i + 1));
    }
    return result.otherwise(operands.get(operands.size() - 1));
  }

  private Column fold(RexCall call, boolean and) throws SQLException {
    List<Column> operands = operands(call);
    Column result = operands.get(0);
    for (Column next : operands.subList(1, operands.size())) {
      result = and ? result.and(next) : result.or(next);
    }
    return result;
  }

  private Column operand(RexCall call, int i) throws SQLException {
    return translate(call.getOperands().get(i));
  }

  private List<Column> operands(RexCall call) throws SQLException {
    List<Column> columns = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      columns.add(translate(operand));
    }
    return columns;
  }

  private static SQLException refused(String construct) {
    return SparkErrors.notYetOnSpark("'" + construct + "' in a continuous query",
        "write the expression with " + SUPPORTED + ", or run the query on Freshet's own"
            + " executor");
  }
}

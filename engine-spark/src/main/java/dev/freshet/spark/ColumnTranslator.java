package dev.freshet.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.logical.Expression;
import dev.freshet.planner.logical.Expression.Call;
import dev.freshet.planner.logical.Expression.ColumnRef;
import dev.freshet.planner.logical.Expression.Literal;
import dev.freshet.planner.logical.Expression.Operator;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/**
 * Translates an {@link Expression} over an input's columns into a Spark {@link Column}; what it
 * cannot translate ({@link Expression.Unsupported}) is refused with SQLSTATE 0A000 while
 * planning, before Spark runs anything.
 *
 * <pre>{@code
 * Column c = new ColumnTranslator(inputColumns).translate(filter.condition());
 * }</pre>
 */
final class ColumnTranslator {
  /** What {@link #translate} accepts, for the error that refuses the rest. */
  private static final String SUPPORTED = "comparisons, AND, OR, NOT, IS [NOT] NULL, + - * / %,"
      + " CAST, CASE, COALESCE, IN, LIKE, UPPER, LOWER, CHAR_LENGTH, SUBSTRING, TRIM and ||";

  private final List<Column> inputs;

  ColumnTranslator(List<Column> inputs) {
    this.inputs = List.copyOf(inputs);
  }

  Column translate(Expression node) throws SQLException {
    if (node instanceof ColumnRef ref) {
      return inputs.get(ref.index());
    }
    if (node instanceof Literal literal) {
      return literal(literal);
    }
    if (node instanceof Call call) {
      return call(call);
    }
    throw refused(((Expression.Unsupported) node).construct());
  }

  private static Column literal(Literal literal) throws SQLException {
    Object value = literal.value();
    if (value == null) {
      return lit(null).cast(SparkTypes.of(literal.type()));
    }
    if (value instanceof String || value instanceof Boolean) {
      return lit(value);
    }
    if (value instanceof BigDecimal) {
      return lit(value).cast(SparkTypes.of(literal.type()));
    }
    if (value instanceof Long millis && literal.type().sqlType() == SqlType.TIMESTAMP) {
      return functions.timestamp_millis(lit(millis));
    }
    if (value instanceof Duration) {
      // Spark's day-time interval: a timestamp plus it stays a timestamp (TUMBLE_END).
      return lit(value);
    }
    throw refused("a literal of type " + literal.type());
  }

  private Column call(Call call) throws SQLException {
    Operator operator = call.operator();
    switch (operator) {
      case CAST: return operand(call, 0).cast(SparkTypes.of(call.type()));
      case CASE: return caseWhen(call);
      case LIKE:
      case NOT_LIKE:
      case ILIKE:
      case NOT_ILIKE: return like(call);
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
    if (operator.isArithmetic()) {
      // Spark widens (int / int is a double); the planner's type is what the query sees.
      Column arithmetic = arithmetic(call);
      return call.type().isNumeric() ? arithmetic.cast(SparkTypes.of(call.type())) : arithmetic;
    }
    return function(call);
  }

  private Column arithmetic(Call call) throws SQLException {
    switch (call.operator()) {
      case PLUS: return operand(call, 0).plus(operand(call, 1));
      case MINUS: return operand(call, 0).minus(operand(call, 1));
      case TIMES: return operand(call, 0).multiply(operand(call, 1));
      case DIVIDE: return operand(call, 0).divide(operand(call, 1));
      case MOD: return operand(call, 0).mod(operand(call, 1));
      case NEGATE: return functions.negate(operand(call, 0));
      case UNARY_PLUS: return operand(call, 0);
      default: throw new IllegalArgumentException("not arithmetic: " + call.operator());
    }
  }

  /** The string functions that Spark has with the same meaning. */
  private Column function(Call call) throws SQLException {
    switch (call.operator()) {
      case UPPER: return functions.upper(operand(call, 0));
      case LOWER: return functions.lower(operand(call, 0));
      case CHAR_LENGTH: return functions.char_length(operand(call, 0))
          .cast(SparkTypes.of(call.type()));
      case CONCAT: return functions.concat(operand(call, 0), operand(call, 1));
      case SUBSTRING: return call.operands().size() == 2
          ? functions.substring(operand(call, 0), operand(call, 1), lit(Integer.MAX_VALUE))
          : functions.substring(operand(call, 0), operand(call, 1), operand(call, 2));
      case TRIM_LEADING:
      case TRIM_TRAILING:
      case TRIM_BOTH: return trim(call);
      default: throw new IllegalArgumentException("no translation of " + call.operator());
    }
  }

  private Column trim(Call call) throws SQLException {
    // TRIM(characters, string)
    Column chars = operand(call, 0);
    Column string = operand(call, 1);
    switch (call.operator()) {
      case TRIM_LEADING: return functions.ltrim(string, chars);
      case TRIM_TRAILING: return functions.rtrim(string, chars);
      default: return functions.trim(string, chars);
    }
  }

  /** LIKE, NOT LIKE, ILIKE and NOT ILIKE with a literal pattern and no ESCAPE. */
  private Column like(Call call) throws SQLException {
    // SQL's and Spark's LIKE agree on % and _ with the default escape.
    String text = (String) ((Literal) call.operands().get(1)).value();
    Operator operator = call.operator();
    Column like = operator == Operator.ILIKE || operator == Operator.NOT_ILIKE
        ? operand(call, 0).ilike(text) : operand(call, 0).like(text);
    return operator == Operator.NOT_LIKE || operator == Operator.NOT_ILIKE ? not(like) : like;
  }

  private Column caseWhen(Call call) throws SQLException {
    List<Column> operands = operands(call);
    Column result = when(operands.get(0), operands.get(1));
    for (int i = 2; i + 1 < operands.size(); i += 2) {
      result = result.when(operands.get(i), operands.get(i + 1));
    }
    return result.otherwise(operands.get(operands.size() - 1));
  }

  private Column fold(Call call, boolean and) throws SQLException {
    List<Column> operands = operands(call);
    Column result = operands.get(0);
    for (Column next : operands.subList(1, operands.size())) {
      result = and ? result.and(next) : result.or(next);
    }
    return result;
  }

  private Column operand(Call call, int i) throws SQLException {
    return translate(call.operands().get(i));
  }

  private List<Column> operands(Call call) throws SQLException {
    List<Column> columns = new ArrayList<>();
    for (Expression operand : call.operands()) {
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

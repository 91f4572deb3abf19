package dev.freshet.planner.logical;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A scalar expression over a {@link LogicalPlan} node's input columns: a column, a literal, a
 * call of an {@link Operator}, or {@link Unsupported}, an expression no other engine computes
 * yet, which it refuses, naming it.
 *
 * <pre>{@code
 * // amount > 10 AND url LIKE 'a%'
 * new Call(Operator.AND, List.of(
 *     new Call(Operator.GREATER_THAN, List.of(new ColumnRef(2, integer), literal10), bool),
 *     new Call(Operator.LIKE, List.of(new ColumnRef(1, varchar), pattern), bool)), bool);
 * }</pre>
 */
public sealed interface Expression {
  /**
   * One column of the input, by position.
   *
   * @param index the column's position in the input (a join's: the left's, then the right's)
   * @param type its type
   */
  record ColumnRef(int index, LogicalType type) implements Expression {
    public ColumnRef {
      requireNonNull(type, "type");
    }

    @Override public String toString() {
      return "$" + index;
    }
  }

  /**
   * A constant.
   *
   * @param value null (SQL's NULL, of any type); a {@code String} (CHAR, VARCHAR); a
   *     {@code Boolean}; a {@code BigDecimal} (every numeric type); a {@code Long} of epoch
   *     milliseconds (TIMESTAMP); a {@code java.time.Duration} (INTERVAL DAY TO SECOND and its
   *     parts). A literal of another type is {@link Unsupported}.
   * @param type its type
   */
  record Literal(@Nullable Object value, LogicalType type) implements Expression {
    public Literal {
      requireNonNull(type, "type");
    }

    @Override public String toString() {
      return (value instanceof String s ? "'" + s + "'" : String.valueOf(value)) + ":" + type;
    }
  }

  /**
   * An operator applied to operands.
   *
   * @param operator what it computes
   * @param operands its operands, as {@link Operator} says for each
   * @param type its result's type, as the planner typed it (Spark's may differ, e.g. for
   *     {@code INTEGER / INTEGER})
   */
  record Call(Operator operator, List<Expression> operands, LogicalType type)
      implements Expression {
    public Call {
      requireNonNull(operator, "operator");
      operands = List.copyOf(operands);
      requireNonNull(type, "type");
    }

    /** {@code OPERATOR(operand, ...)}, or {@code CAST(operand AS type)}. */
    @Override public String toString() {
      if (operator == Operator.CAST) {
        return "CAST(" + operands.get(0) + " AS " + type + ")";
      }
      return operator + operands.stream().map(String::valueOf)
          .collect(Collectors.joining(", ", "(", ")"));
    }
  }

  /**
   * An expression that no other engine computes yet.
   *
   * @param construct what the query wrote, for the error that refuses it, e.g. {@code SIMILAR TO}
   *     or {@code a literal of type DATE}
   */
  record Unsupported(String construct) implements Expression {
    public Unsupported {
      requireNonNull(construct, "construct");
    }

    @Override public String toString() {
      return "Unsupported[" + construct + "]";
    }
  }

  /** What a {@link Call} computes; SQL's meaning, NULL in gives NULL out unless said. */
  enum Operator {
    EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL,
    /** {@code IS NOT DISTINCT FROM}: equal, NULL equal to NULL; never NULL. */
    IS_NOT_DISTINCT_FROM,
    /** {@code IS DISTINCT FROM}. */
    IS_DISTINCT_FROM,
    /** Two or more operands. */
    AND,
    /** Two or more operands. */
    OR,
    NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE,
    /** The first operand that is not NULL. */
    COALESCE,
    PLUS, MINUS, TIMES, DIVIDE, MOD,
    /** Unary minus. */
    NEGATE,
    /** Unary plus: the operand, typed as the call. */
    UNARY_PLUS,
    /** The operand as the call's type. */
    CAST,
    /** {@code CASE WHEN c1 THEN v1 [WHEN c2 THEN v2 ...] ELSE e}: c1, v1, c2, v2, ..., e. */
    CASE,
    /** The value, then the pattern: a {@link Literal} (% and _, no ESCAPE). */
    LIKE,
    /** As {@link #LIKE}. */
    NOT_LIKE,
    /** As {@link #LIKE}, ignoring case. */
    ILIKE,
    /** As {@link #ILIKE}. */
    NOT_ILIKE,
    UPPER, LOWER, CHAR_LENGTH,
    /** {@code ||} of two strings. */
    CONCAT,
    /** The string, the start (from 1), and the length if given. */
    SUBSTRING,
    /** {@code TRIM(BOTH chars FROM string)}: the characters, then the string. */
    TRIM_BOTH,
    /** As {@link #TRIM_BOTH}, at the start only. */
    TRIM_LEADING,
    /** As {@link #TRIM_BOTH}, at the end only. */
    TRIM_TRAILING;

    /** Whether it is arithmetic, whose result another engine may type wider than SQL does. */
    public boolean isArithmetic() {
      return this == PLUS || this == MINUS || this == TIMES || this == DIVIDE || this == MOD
          || this == NEGATE || this == UNARY_PLUS;
    }
  }
}

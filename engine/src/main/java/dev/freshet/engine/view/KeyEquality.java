package dev.freshet.engine.view;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The value that a scan's filters require of one column: a conjunct {@code column = value} with a
 * literal or a parameter ({@code ?}) as the value, anywhere in an AND of filters.
 *
 * <pre>{@code
 * // WHERE k = 7 AND n > 1: filters [=($0, 7), >($1, 1)]
 * KeyEquality.integral(filters, 0, root);   // 7L
 * KeyEquality.integral(filters, 1, root);   // null: no equality on column 1
 * }</pre>
 *
 * <p>Each conjunct is necessary, so the rows whose column has the value are a superset of those
 * that pass every filter, whichever equality is picked. Anything else (OR, a cast of the column,
 * a value of another type, NULL) yields null: the caller then reads every row.
 */
final class KeyEquality {
  private KeyEquality() {
  }

  /** The integral value that {@code filters} require of {@code column}, or null. */
  static @Nullable Long integral(List<RexNode> filters, int column, DataContext root) {
    for (RexNode filter : filters) {
      for (RexNode conjunct : RelOptUtil.conjunctions(filter)) {
        Object value = asLong(valueOf(conjunct, column, root));
        if (value != null) {
          return (Long) value;
        }
      }
    }
    return null;
  }

  /** The character string that {@code filters} require of {@code column}, or null. */
  static @Nullable String string(List<RexNode> filters, int column, DataContext root) {
    for (RexNode filter : filters) {
      for (RexNode conjunct : RelOptUtil.conjunctions(filter)) {
        Object value = valueOf(conjunct, column, root);
        if (value instanceof String) {
          return (String) value;
        }
      }
    }
    return null;
  }

  /**
   * The value compared with {@code column} if {@code conjunct} is {@code column = value}: a
   * literal's ({@code Long} for an exact number without fraction, {@code String} for a character
   * string) or a parameter's, as the statement's context holds it; else null.
   */
  private static @Nullable Object valueOf(RexNode conjunct, int column, DataContext root) {
    if (conjunct.getKind() != SqlKind.EQUALS) {
      return null;
    }
    List<RexNode> operands = ((RexCall) conjunct).getOperands();
    for (int side = 0; side < 2; side++) {
      RexNode ref = operands.get(side);
      RexNode other = operands.get(1 - side);
      if (ref instanceof RexInputRef && ((RexInputRef) ref).getIndex() == column) {
        if (other instanceof RexLiteral) {
          return literal((RexLiteral) other);
        }
        if (other instanceof RexDynamicParam) {
          return root.get("?" + ((RexDynamicParam) other).getIndex());
        }
      }
    }
    return null;
  }

  private static @Nullable Object literal(RexLiteral literal) {
    if (literal.isNull()) {
      return null;
    }
    SqlTypeFamily family = literal.getType().getSqlTypeName().getFamily();
    if (family == SqlTypeFamily.NUMERIC) {
      return literal.getValueAs(BigDecimal.class);
    }
    if (family == SqlTypeFamily.CHARACTER) {
      return literal.getValueAs(String.class);
    }
    return null;
  }

  /** {@code value} as a {@code Long} if it is a number without fraction within range; else null. */
  private static @Nullable Long asLong(@Nullable Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal) {
      try {
        return ((BigDecimal) value).longValueExact();
      } catch (ArithmeticException e) {
        // A fraction, or beyond a BIGINT: no key equals it; left to the full scan.
        return null;
      }
    }
    return null;
  }
}

package dev.freshet.engine.query;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.SqlTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The values of a query's parameter markers ({@code ?}) as Calcite's generated code reads them:
 * from the statement's {@code DataContext} under {@code "?0"}, {@code "?1"}, ... in Calcite's
 * internal representation of the marker's type. A query planned with its markers is compiled
 * once and runs with any values, where a query with the values written in as literals is a new
 * text, planned and compiled again, for every value.
 *
 * <pre>{@code
 * // SELECT c FROM v WHERE k = ?   (k BIGINT)
 * DynamicParameters.values(prepared.parameterTypes(), List.of(42L));   // {?0=42}
 * DynamicParameters.values(prepared.parameterTypes(), List.of("42"));  // null: bind as text
 * }</pre>
 *
 * <p>A value is taken only where it means exactly what the literal it would otherwise be written
 * as means: a marker only as an operand of a comparison with something that is not a marker
 * ({@link #comparedOnly}), whose result is a BOOLEAN whatever the operand's type, and a value only
 * of the marker's own kind that fits it exactly ({@link #values}). Anything else (a NULL, a string
 * for a number, a value out of the type's range, more digits than the DECIMAL holds) is left to
 * the literal path, which gives the result, SQLSTATE and message it always gave.
 */
public final class DynamicParameters {
  private static final long MAX_EXACT_DOUBLE = 1L << 53;

  private DynamicParameters() {
  }

  /**
   * Whether every marker of {@code query} is an operand of a comparison ({@code =}, {@code <>},
   * {@code <}, {@code <=}, {@code >}, {@code >=}) whose other operand is not a marker, and there
   * is at least one marker.
   */
  public static boolean comparedOnly(SqlNode query) {
    int[] markers = {0};
    boolean[] ok = {true};
    query.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlDynamicParam param) {
        // Reached only where no comparison took the marker as its operand.
        ok[0] = false;
        return null;
      }

      @Override public Void visit(SqlCall call) {
        boolean comparison = call.isA(SqlKind.BINARY_COMPARISON) && call.operandCount() == 2
            && !(call.operand(0) instanceof SqlDynamicParam
                && call.operand(1) instanceof SqlDynamicParam);
        for (SqlNode operand : call.getOperandList()) {
          if (operand == null) {
            continue;
          }
          if (comparison && operand instanceof SqlDynamicParam) {
            markers[0]++;
          } else {
            operand.accept(this);
          }
        }
        return null;
      }
    });
    return ok[0] && markers[0] > 0;
  }

  /**
   * The values for the generated code, by {@code "?index"}, or null if one of them does not fit
   * its marker's type exactly (the statement is then bound as text).
   *
   * @param types each marker's type as the validator inferred it, in marker order
   * @param values one Java value per marker, as {@code StatementParameters#bind} takes them
   */
  public static @Nullable Map<String, Object> values(List<RelDataType> types,
      List<?> values) {
    if (types.size() != values.size()) {
      return null;
    }
    Map<String, Object> internal = new HashMap<>(2 * values.size());
    for (int i = 0; i < values.size(); i++) {
      Object value = internal(types.get(i), values.get(i));
      if (value == null) {
        return null;
      }
      internal.put("?" + i, value);
    }
    return internal;
  }

  /** {@code value} as the generated code reads a marker of {@code type}, or null if it differs. */
  private static @Nullable Object internal(RelDataType type, @Nullable Object value) {
    if (value == null) {
      // The literal path writes CAST(NULL AS type); a NOT NULL marker's code would not take it.
      return null;
    }
    SqlType descriptor = SqlTypes.of(type);
    if (descriptor == null) {
      return null;
    }
    if (descriptor.isWholeNumber()) {
      // An integer of any class JDBC gives, as the type's class if it fits.
      return integer(value, Long.MIN_VALUE, Long.MAX_VALUE)
          ? descriptor.wholeNumber(((Number) value).longValue()) : null;
    }
    return switch (descriptor) {
      // DOUBLE and FLOAT, which has double precision.
      case DOUBLE -> doubleValue(value);
      case DECIMAL -> decimal(type, value);
      // Only a value of the class JDBC gives for the type: the literal path writes a DATE,
      // TIME or TIMESTAMP literal in milliseconds, wall-clock UTC, as the descriptor converts.
      case VARCHAR, BOOLEAN, DATE, TIME, TIMESTAMP -> descriptor.fromJdbc(value);
      // CHAR (padding), REAL (a float's rounding), BINARY, intervals, ...: as text.
      default -> null;
    };
  }

  /**
   * A DOUBLE value: a double or float, or an integer literal compared with a DOUBLE, which is
   * the same number where a double holds it exactly; else null.
   */
  private static @Nullable Object doubleValue(Object value) {
    if (value instanceof Double || value instanceof Float) {
      return ((Number) value).doubleValue();
    }
    return integer(value, -MAX_EXACT_DOUBLE, MAX_EXACT_DOUBLE)
        ? (Object) ((Number) value).doubleValue() : null;
  }

  /** Whether {@code value} is an integer from {@code min} to {@code max}. */
  private static boolean integer(Object value, long min, long max) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      long v = ((Number) value).longValue();
      return v >= min && v <= max;
    }
    if (value instanceof BigInteger b) {
      return b.bitLength() < 64 && b.longValue() >= min && b.longValue() <= max;
    }
    return false;
  }

  /**
   * A DECIMAL value that the marker's precision and scale hold without rounding, or null: an
   * integer or a {@code BigDecimal}, never a double (whose literal is a DOUBLE).
   */
  private static @Nullable BigDecimal decimal(RelDataType type, Object value) {
    BigDecimal d;
    if (value instanceof BigDecimal b) {
      d = b;
    } else if (integer(value, Long.MIN_VALUE, Long.MAX_VALUE)) {
      d = BigDecimal.valueOf(((Number) value).longValue());
    } else if (value instanceof BigInteger b) {
      d = new BigDecimal(b);
    } else {
      return null;
    }
    int scale = Math.max(type.getScale(), 0);
    if (d.scale() > scale) {
      // More fractional digits than the type: the literal compares them, the marker would not.
      BigDecimal stripped = d.stripTrailingZeros();
      if (stripped.scale() > scale) {
        return null;
      }
      d = stripped;
    }
    if (d.precision() - d.scale() > type.getPrecision() - scale) {
      return null;
    }
    return d;
  }
}

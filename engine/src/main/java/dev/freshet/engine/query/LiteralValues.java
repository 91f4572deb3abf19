package dev.freshet.engine.query;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTimeLiteral;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of {@code INSERT INTO stream [(columns)] VALUES (...), ...} read straight from the
 * parsed statement when every value is a literal that its column takes as it is: an integer
 * for an integer column it fits, a string for a {@code VARCHAR} it fits, a {@code TIMESTAMP}
 * literal for a {@code TIMESTAMP} column, NULL for a nullable column, and so on.
 *
 * <pre>{@code
 * LiteralValues.rows(insert, rowType);   // INSERT INTO clicks VALUES ('ann', 3): [["ann", 3L]]
 * LiteralValues.rows(insert, rowType);   // INSERT INTO clicks VALUES ('ann', 3 + 1): empty
 * }</pre>
 *
 * <p>Most INSERTs look like this: a client's literals, or a prepared statement's values bound
 * as literals ({@code StatementParameters#bind}). Validating and converting each of them with
 * Calcite cost more than everything else an INSERT does. Any statement outside this shape
 * (an expression, a value its column must convert, a NULL for a NOT NULL column, a column
 * list that does not name the stream's columns exactly) is left to Calcite, which gives the
 * same rows, or the error, as before. {@code LiteralValuesTest} holds the two paths to the
 * same values for every type and literal this class takes.
 */
public final class LiteralValues {
  private LiteralValues() {
  }

  /**
   * The statement's rows in the stream's column order and Calcite's internal representation
   * (a {@code TIMESTAMP} as {@code Long} milliseconds, a {@code DATE} as {@code Integer} days),
   * or empty if a value is not a literal its column takes as it is.
   *
   * @param insert a parsed INSERT
   * @param rowType the stream's columns
   */
  public static Optional<List<Object[]>> rows(SqlInsert insert, RelDataType rowType) {
    if (insert.isUpsert() || !(insert.getSource() instanceof SqlBasicCall values)
        || values.getKind() != SqlKind.VALUES) {
      return Optional.empty();
    }
    List<RelDataTypeField> fields = rowType.getFieldList();
    int[] target = targetColumns(insert.getTargetColumnList(), fields);
    if (target == null) {
      return Optional.empty();
    }
    List<Object[]> rows = new ArrayList<>(values.operandCount());
    for (SqlNode tuple : values.getOperandList()) {
      if (!(tuple instanceof SqlCall row) || row.getKind() != SqlKind.ROW
          || row.operandCount() != target.length) {
        return Optional.empty();
      }
      Object[] values1 = new Object[fields.size()];
      boolean[] given = new boolean[fields.size()];
      for (int i = 0; i < target.length; i++) {
        RelDataType type = fields.get(target[i]).getType();
        Object value = value(row.operand(i), type);
        if (value == NOT_TAKEN) {
          return Optional.empty();
        }
        values1[target[i]] = value;
        given[target[i]] = true;
      }
      for (int c = 0; c < given.length; c++) {
        // A column the list leaves out is NULL, which only a nullable column takes.
        if (!given[c] && !fields.get(c).getType().isNullable()) {
          return Optional.empty();
        }
      }
      rows.add(values1);
    }
    return Optional.of(rows);
  }

  /** The digits of the longest exact literal the validator takes (Calcite's default). */
  private static final int MAX_EXACT_DIGITS = 19;

  /** Stands for a value this class leaves to Calcite. */
  private static final Object NOT_TAKEN = new Object();

  /**
   * The index of the stream's column each value goes to, or null if the list names a column
   * other than exactly as the stream has it (case and all), or one twice.
   */
  private static int @Nullable [] targetColumns(@Nullable SqlNodeList columns,
      List<RelDataTypeField> fields) {
    if (columns == null) {
      int[] all = new int[fields.size()];
      for (int i = 0; i < all.length; i++) {
        all[i] = i;
      }
      return all;
    }
    int[] target = new int[columns.size()];
    boolean[] named = new boolean[fields.size()];
    for (int i = 0; i < target.length; i++) {
      if (!(columns.get(i) instanceof SqlIdentifier id) || !id.isSimple()) {
        return null;
      }
      int index = indexOf(fields, id.getSimple());
      if (index < 0 || named[index]) {
        return null;
      }
      named[index] = true;
      target[i] = index;
    }
    return target;
  }

  private static int indexOf(List<RelDataTypeField> fields, String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The value of {@code node} for a column of {@code type}, or {@link #NOT_TAKEN}. */
  private static @Nullable Object value(SqlNode node, RelDataType type) {
    if (isNull(node, type)) {
      return type.isNullable() ? null : NOT_TAKEN;
    }
    if (node instanceof SqlNumericLiteral number) {
      return number(number.getValueAs(BigDecimal.class), number.isExact(), type);
    }
    if (node.getKind() == SqlKind.MINUS_PREFIX
        && ((SqlCall) node).operand(0) instanceof SqlNumericLiteral number) {
      return number(number.getValueAs(BigDecimal.class).negate(), number.isExact(), type);
    }
    SqlTypeName column = type.getSqlTypeName();
    if (node instanceof SqlCharStringLiteral text) {
      return column == SqlTypeName.VARCHAR ? varchar(text.getValueAs(NlsString.class), type)
          : NOT_TAKEN;
    }
    if (node instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.BOOLEAN) {
      // UNKNOWN is a BOOLEAN literal too, without a value.
      return column == SqlTypeName.BOOLEAN && literal.getValue() != null
          ? literal.getValueAs(Boolean.class) : NOT_TAKEN;
    }
    if (node instanceof SqlUnknownLiteral unknown) {
      // How the parser leaves TIMESTAMP '...' and its kin until the validator resolves them.
      SqlLiteral resolved = resolve(unknown);
      return resolved == null ? NOT_TAKEN : value(resolved, type);
    }
    if (node instanceof SqlTimestampLiteral timestamp) {
      return column == SqlTypeName.TIMESTAMP
          && timestamp.getPrec() <= Math.min(type.getPrecision(), 3)
          ? (Object) timestamp.getValueAs(TimestampString.class).getMillisSinceEpoch()
          : NOT_TAKEN;
    }
    if (node instanceof SqlDateLiteral date) {
      return column == SqlTypeName.DATE
          ? (Object) date.getValueAs(DateString.class).getDaysSinceEpoch() : NOT_TAKEN;
    }
    if (node instanceof SqlTimeLiteral time) {
      return column == SqlTypeName.TIME && time.getPrec() <= Math.min(type.getPrecision(), 3)
          ? (Object) time.getValueAs(TimeString.class).getMillisOfDay() : NOT_TAKEN;
    }
    return NOT_TAKEN;
  }

  /**
   * A {@code TIMESTAMP}, {@code DATE} or {@code TIME} literal as the validator resolves it, or
   * null for any other tag, or a value that is not one (which Calcite then reports).
   */
  private static @Nullable SqlLiteral resolve(SqlUnknownLiteral unknown) {
    SqlTypeName typeName = switch (unknown.tag) {
      case "TIMESTAMP" -> SqlTypeName.TIMESTAMP;
      case "DATE" -> SqlTypeName.DATE;
      case "TIME" -> SqlTypeName.TIME;
      default -> null;
    };
    if (typeName == null) {
      return null;
    }
    try {
      SqlLiteral resolved = unknown.resolve(typeName);
      return resolved instanceof SqlUnknownLiteral ? null : resolved;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Whether {@code node} is {@code NULL}, or {@code CAST(NULL AS t)} with {@code t} the
   * column's own type name (how a prepared statement's NULL is bound).
   */
  private static boolean isNull(SqlNode node, RelDataType type) {
    if (node instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.NULL) {
      return true;
    }
    return node.getKind() == SqlKind.CAST
        && ((SqlCall) node).operand(0) instanceof SqlLiteral literal
        && literal.getTypeName() == SqlTypeName.NULL
        && ((SqlCall) node).operand(1) instanceof SqlDataTypeSpec spec
        && spec.getTypeName().isSimple()
        && spec.getTypeName().getSimple().equals(type.getSqlTypeName().getName());
  }

  /** A numeric literal for a numeric column it fits without rounding, or {@link #NOT_TAKEN}. */
  private static Object number(BigDecimal value, boolean exact, RelDataType type) {
    if (exact && value.precision() > MAX_EXACT_DIGITS) {
      // The validator refuses it as out of range.
      return NOT_TAKEN;
    }
    switch (type.getSqlTypeName()) {
    case TINYINT:
      return exact && isInteger(value, Byte.MIN_VALUE, Byte.MAX_VALUE)
          ? (Object) value.byteValue() : NOT_TAKEN;
    case SMALLINT:
      return exact && isInteger(value, Short.MIN_VALUE, Short.MAX_VALUE)
          ? (Object) value.shortValue() : NOT_TAKEN;
    case INTEGER:
      return exact && isInteger(value, Integer.MIN_VALUE, Integer.MAX_VALUE)
          ? (Object) value.intValue() : NOT_TAKEN;
    case BIGINT:
      return exact && isInteger(value, Long.MIN_VALUE, Long.MAX_VALUE)
          ? (Object) value.longValue() : NOT_TAKEN;
    case DOUBLE:
    case FLOAT:
      return value.doubleValue();
    case DECIMAL:
      return exact && value.scale() >= 0 && value.scale() <= type.getScale()
          && value.precision() - value.scale() <= type.getPrecision() - type.getScale()
          ? value.setScale(type.getScale()) : NOT_TAKEN;
    default:
      return NOT_TAKEN;
    }
  }

  private static boolean isInteger(BigDecimal value, long min, long max) {
    return value.scale() == 0 && value.compareTo(BigDecimal.valueOf(min)) >= 0
        && value.compareTo(BigDecimal.valueOf(max)) <= 0;
  }

  /** A string for a VARCHAR it fits, in the default character set, or {@link #NOT_TAKEN}. */
  private static Object varchar(NlsString text, RelDataType type) {
    String value = text.getValue();
    if (text.getCharsetName() != null || text.getCollation() != null
        || type.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
        && value.length() > type.getPrecision()) {
      return NOT_TAKEN;
    }
    return value;
  }
}

package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlAlter;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Parse tree node of a statement that sets or resets a property whose value
 * is a string.
 *
 * <pre>
 * SET 'state.partitions' = '4'
 * SET state.partitions = '4'
 * RESET 'state.partitions'
 * </pre>
 *
 * <p>The parser makes this node when the key is a character string literal,
 * or when the key is an identifier and the value a character string literal.
 * The key keeps its spelling as written: an unquoted identifier is
 * <em>not</em> upper-cased, quoted parts and strings lose their quotes.
 * {@link #value()} is null for {@code RESET}.
 *
 * <p>Every other form keeps Calcite's meaning and yields a core
 * {@link org.apache.calcite.sql.SqlSetOption}: {@code SET x = 1},
 * {@code SET x = ON}, {@code SET x = y}, {@code RESET x}, {@code RESET ALL}.
 * The same rules apply after {@code ALTER SYSTEM} or {@code ALTER SESSION},
 * whose scope is then {@link #getScope()}.
 */
public class SqlSetProperty extends SqlAlter {
  /** Operator of every {@code SqlSetProperty}; operands are the key and the
   * value (null for {@code RESET}), each a character string literal. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("SET PROPERTY", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlSetProperty(pos, null,
              (SqlCharStringLiteral) requireNonNull(operands[0], "key"),
              (SqlCharStringLiteral) operands[1]);
        }
      };

  private final SqlCharStringLiteral key;
  private final @Nullable SqlCharStringLiteral value;

  /**
   * Creates a {@code SqlSetProperty}.
   *
   * @param pos   position of the statement
   * @param scope {@code SYSTEM} or {@code SESSION} after {@code ALTER}, or
   *              null for a plain {@code SET} or {@code RESET}
   * @param key   property key
   * @param value property value, or null for {@code RESET}
   */
  public SqlSetProperty(SqlParserPos pos, @Nullable String scope,
      SqlCharStringLiteral key, @Nullable SqlCharStringLiteral value) {
    super(pos, scope);
    this.key = requireNonNull(key, "key");
    this.value = value;
  }

  /** Returns the property key. */
  public String key() {
    return requireNonNull(key.getValueAs(String.class), "key");
  }

  /** Returns the property value, or null if this is a {@code RESET}. */
  public @Nullable String value() {
    return value == null ? null : value.getValueAs(String.class);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(key, value);
  }

  /** {@inheritDoc}
   *
   * <p>Unlike {@link SqlOperator#createCall}, keeps the scope, which is not
   * an operand. */
  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlSetProperty(pos, getScope(), key, value);
  }

  @Override protected void unparseAlterOperation(SqlWriter writer, int leftPrec,
      int rightPrec) {
    if (value == null) {
      writer.keyword("RESET");
      key.unparse(writer, 0, 0);
    } else {
      writer.keyword("SET");
      key.unparse(writer, 0, 0);
      writer.keyword("=");
      value.unparse(writer, 0, 0);
    }
  }
}

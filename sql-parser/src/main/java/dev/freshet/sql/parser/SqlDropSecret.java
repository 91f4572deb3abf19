package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Parse tree node of a {@code DROP SECRET} statement.
 *
 * <pre>
 * DROP SECRET IF EXISTS pg_pass
 * </pre>
 */
public class SqlDropSecret extends SqlDropNamed {
  /** Operator of every {@code SqlDropSecret}; the only operand is the name. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("DROP SECRET", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlDropSecret(pos, false,
              (SqlIdentifier) requireNonNull(operands[0], "name"));
        }
      };

  /** Creates a {@code SqlDropSecret}. */
  public SqlDropSecret(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
    super(OPERATOR, pos, ifExists, name, "SECRET");
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  /** {@inheritDoc}
   *
   * <p>Unlike {@link SqlOperator#createCall}, keeps {@code IF EXISTS}, which
   * is not an operand. */
  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlDropSecret(pos, ifExists, name());
  }
}

package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

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
      operator("DROP SECRET", (pos, name) -> new SqlDropSecret(pos, false, name));

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

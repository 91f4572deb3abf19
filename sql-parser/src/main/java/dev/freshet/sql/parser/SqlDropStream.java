package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Parse tree node of a {@code DROP STREAM} statement.
 *
 * <pre>
 * DROP STREAM IF EXISTS clicks
 * </pre>
 */
public class SqlDropStream extends SqlDropNamed {
  /** Operator of every {@code SqlDropStream}; the only operand is the name. */
  public static final SqlSpecialOperator OPERATOR =
      operator("DROP STREAM", (pos, name) -> new SqlDropStream(pos, false, name));

  /** Creates a {@code SqlDropStream}. */
  public SqlDropStream(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
    super(OPERATOR, pos, ifExists, name, "STREAM");
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  /** {@inheritDoc}
   *
   * <p>Unlike {@link SqlOperator#createCall}, keeps {@code IF EXISTS}, which
   * is not an operand. */
  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlDropStream(pos, ifExists, name());
  }
}

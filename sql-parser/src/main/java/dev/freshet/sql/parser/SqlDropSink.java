package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Parse tree node of a {@code DROP SINK} statement.
 *
 * <pre>
 * DROP SINK IF EXISTS totals_out
 * </pre>
 */
public class SqlDropSink extends SqlDropNamed {
  /** Operator of every {@code SqlDropSink}; the only operand is the name. */
  public static final SqlSpecialOperator OPERATOR =
      operator("DROP SINK", (pos, name) -> new SqlDropSink(pos, false, name));

  /** Creates a {@code SqlDropSink}. */
  public SqlDropSink(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
    super(OPERATOR, pos, ifExists, name, "SINK");
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  /** {@inheritDoc}
   *
   * <p>Unlike {@link SqlOperator#createCall}, keeps {@code IF EXISTS}, which
   * is not an operand. */
  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlDropSink(pos, ifExists, name());
  }
}

package dev.freshet.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Parse tree node of {@code SHOW SECRETS}, which lists the secrets' names and owners, never
 * their values.
 *
 * <pre>
 * SHOW SECRETS
 * </pre>
 */
public class SqlShowSecrets extends SqlCall {
  /** Operator of every {@code SqlShowSecrets}; it has no operands. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("SHOW SECRETS", SqlKind.OTHER) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          return new SqlShowSecrets(pos);
        }
      };

  /** Creates a {@code SqlShowSecrets}. */
  public SqlShowSecrets(SqlParserPos pos) {
    super(pos);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of();
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SHOW");
    writer.keyword("SECRETS");
  }
}

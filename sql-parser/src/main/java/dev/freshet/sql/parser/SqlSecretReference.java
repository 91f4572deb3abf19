package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Parse tree node of an option value written {@code SECRET name} in a {@code WITH} clause: the
 * value of the secret {@code name} ({@link SqlCreateSecret}), which the statement's text never
 * holds.
 *
 * <pre>
 * CREATE SINK out FROM totals WITH (connector = 'jdbc', 'url' = 'jdbc:postgresql://db/app',
 *   'table-name' = 'totals', 'username' = 'app', 'password' = SECRET pg_pass)
 * </pre>
 *
 * <p>Its position spans {@code SECRET} and the name, so that the text in it can be replaced.
 */
public class SqlSecretReference extends SqlCall {
  /** Operator of every {@code SqlSecretReference}; the only operand is the secret's name. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("SECRET", SqlKind.OTHER) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlSecretReference(pos,
              (SqlIdentifier) requireNonNull(operands[0], "name"));
        }
      };

  private final SqlIdentifier name;

  /** Creates a {@code SqlSecretReference} to the secret {@code name}. */
  public SqlSecretReference(SqlParserPos pos, SqlIdentifier name) {
    super(pos);
    this.name = requireNonNull(name, "name");
  }

  /** Returns the secret's name as parsed: upper case unless it was quoted. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns the secret's name as a string. */
  public String secretName() {
    return name.getSimple();
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SECRET");
    name.unparse(writer, 0, 0);
  }
}

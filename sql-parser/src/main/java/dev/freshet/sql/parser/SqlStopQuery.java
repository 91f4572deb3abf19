package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Parse tree node of a {@code STOP QUERY} statement, which stops a running
 * continuous query.
 *
 * <pre>
 * STOP QUERY q1
 * STOP QUERY 'clicks-per-user'
 * STOP QUERY 42
 * </pre>
 *
 * <p>The id is an identifier, a character string literal or an unsigned
 * integer. {@link #queryId()} gives it as a string: an unquoted identifier
 * keeps its spelling as written (it is not upper-cased), a quoted identifier
 * or a string loses its quotes, an integer is given in decimal. The node
 * unparses a string id as a string literal and an integer id as an integer.
 */
public class SqlStopQuery extends SqlCall {
  /** Operator of every {@code SqlStopQuery}; the only operand is the id as
   * a character string or exact numeric literal. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("STOP QUERY", SqlKind.OTHER) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlStopQuery(pos,
              (SqlLiteral) requireNonNull(operands[0], "queryId"));
        }
      };

  private final SqlLiteral queryId;

  /**
   * Creates a {@code SqlStopQuery}.
   *
   * @param pos     position of the statement
   * @param queryId id of the query, a character string literal or an exact
   *                numeric literal
   */
  public SqlStopQuery(SqlParserPos pos, SqlLiteral queryId) {
    super(pos);
    this.queryId = requireNonNull(queryId, "queryId");
    if (!(queryId instanceof SqlCharStringLiteral)
        && !(queryId instanceof SqlNumericLiteral
            && ((SqlNumericLiteral) queryId).isExact())) {
      throw new IllegalArgumentException(
          "query id must be a character string or an integer: " + queryId);
    }
  }

  /** Returns the id of the query to stop. */
  public String queryId() {
    return requireNonNull(queryId.toValue(), "queryId");
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(queryId);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("STOP");
    writer.keyword("QUERY");
    queryId.unparse(writer, 0, 0);
  }
}

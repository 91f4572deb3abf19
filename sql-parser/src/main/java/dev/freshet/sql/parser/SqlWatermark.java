package dev.freshet.sql.parser;

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

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Parse tree node of the {@code WATERMARK FOR} element of a
 * {@code CREATE STREAM} column list.
 *
 * <pre>
 * CREATE STREAM clicks (ts TIMESTAMP, k VARCHAR,
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
 * </pre>
 *
 * <p>The parser keeps the expression after {@code AS} as written and checks
 * nothing about it; the planner checks that it has the form
 * {@code column - interval literal} and that the column exists.
 *
 * @see SqlCreateStream#watermark()
 */
public class SqlWatermark extends SqlCall {
  /** Operator of every {@code SqlWatermark}; operands are the column and the
   * delay expression. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("WATERMARK", SqlKind.OTHER) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlWatermark(pos,
              (SqlIdentifier) requireNonNull(operands[0], "column"),
              requireNonNull(operands[1], "delayExpression"));
        }
      };

  private final SqlIdentifier column;
  private final SqlNode delayExpression;

  /** Creates a {@code SqlWatermark}. */
  public SqlWatermark(SqlParserPos pos, SqlIdentifier column,
      SqlNode delayExpression) {
    super(pos);
    this.column = requireNonNull(column, "column");
    this.delayExpression = requireNonNull(delayExpression, "delayExpression");
  }

  /** Returns the event-time column that the watermark tracks. */
  public SqlIdentifier column() {
    return column;
  }

  /** Returns the expression after {@code AS}, for example the call
   * {@code ts - INTERVAL '5' SECOND}. */
  public SqlNode delayExpression() {
    return delayExpression;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(column, delayExpression);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("WATERMARK");
    writer.keyword("FOR");
    column.unparse(writer, 0, 0);
    writer.keyword("AS");
    delayExpression.unparse(writer, 0, 0);
  }
}

package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlCall;
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
 * Parse tree node of a query with a trailing {@code EMIT} clause, which sets
 * the output mode of a continuous query.
 *
 * <pre>
 * SELECT k, COUNT(*) FROM clicks GROUP BY k EMIT UPDATE
 * </pre>
 *
 * <p>The parser accepts {@code EMIT} after a top-level query (including one
 * with {@code UNION}, {@code ORDER BY} or {@code LIMIT}), after the query of
 * {@code EXPLAIN PLAN FOR} and after the body of
 * {@code CREATE MATERIALIZED VIEW}. A query without {@code EMIT} is returned
 * as Calcite returns it, not wrapped in this node. Calcite's validator does
 * not know this node: validate {@link #query()} and keep {@link #mode()} as an
 * attribute of the statement.
 */
public class SqlEmit extends SqlCall {
  /** Operator of every {@code SqlEmit}; operands are the query and the mode
   * as a symbol literal. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("EMIT", SqlKind.OTHER) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          final SqlLiteral mode = (SqlLiteral) requireNonNull(operands[1], "mode");
          return new SqlEmit(pos, requireNonNull(operands[0], "query"),
              mode.getValueAs(EmitMode.class));
        }
      };

  private final SqlNode query;
  private final SqlLiteral mode;

  /** Creates a {@code SqlEmit}. */
  public SqlEmit(SqlParserPos pos, SqlNode query, EmitMode mode) {
    super(pos);
    this.query = requireNonNull(query, "query");
    this.mode = requireNonNull(mode, "mode").symbol(pos);
  }

  /** Returns the query whose output mode this clause sets. */
  public SqlNode query() {
    return query;
  }

  /** Returns the output mode. */
  public EmitMode mode() {
    return mode.getValueAs(EmitMode.class);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(query, mode);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    query.unparse(writer, 0, 0);
    writer.newlineAndIndent();
    writer.keyword("EMIT");
    writer.keyword(mode().name());
  }
}

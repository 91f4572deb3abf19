package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.Symbolizable;
import org.apache.calcite.sql.parser.SqlParserPos;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Parse tree node of a {@code SHOW} statement, which lists the streams,
 * materialized views or running queries.
 *
 * <pre>
 * SHOW STREAMS
 * SHOW VIEWS
 * SHOW QUERIES
 * </pre>
 */
public class SqlShow extends SqlCall {
  /** Operator of every {@code SqlShow}; the only operand is the kind as a
   * symbol literal. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("SHOW", SqlKind.OTHER) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          final SqlLiteral kind = (SqlLiteral) requireNonNull(operands[0], "kind");
          return new SqlShow(pos, kind.getValueAs(Kind.class));
        }
      };

  /** Kind of object that a {@code SHOW} statement lists, for example
   * {@code SHOW STREAMS}. */
  public enum Kind implements Symbolizable {
    /** {@code SHOW STREAMS}: the streams made by {@code CREATE STREAM}. */
    STREAMS,
    /** {@code SHOW VIEWS}: the materialized views. */
    VIEWS,
    /** {@code SHOW QUERIES}: the continuous queries that are running. */
    QUERIES,
    /** {@code SHOW SINKS}: the sinks made by {@code CREATE SINK}. */
    SINKS
  }

  private final SqlLiteral kind;

  /** Creates a {@code SqlShow}. */
  public SqlShow(SqlParserPos pos, Kind kind) {
    super(pos);
    this.kind = requireNonNull(kind, "kind").symbol(pos);
  }

  /** Returns what this statement lists. */
  public Kind kind() {
    return kind.getValueAs(Kind.class);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(kind);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SHOW");
    writer.keyword(kind().name());
  }
}

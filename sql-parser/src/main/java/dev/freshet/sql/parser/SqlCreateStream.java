package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Parse tree node of a {@code CREATE STREAM} statement.
 *
 * <pre>
 * CREATE STREAM IF NOT EXISTS clicks (
 *   id BIGINT NOT NULL,
 *   ts TIMESTAMP,
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
 * WITH (connector = 'kafka', 'topic' = 'clicks')
 * </pre>
 *
 * <p>The column list may be left out, for sources that make their own
 * columns: {@code CREATE STREAM ticks WITH (connector = 'rate')}; then
 * {@link #columns()} is empty.
 *
 * <p>Option keys are identifiers (simple or dotted, such as
 * {@code kafka.topic}) or character string literals; values are character
 * string literals. Keys keep their spelling as written: an unquoted
 * identifier is <em>not</em> upper-cased, a quoted identifier or a string
 * loses its quotes. The parser rejects a key given twice.
 */
public class SqlCreateStream extends SqlCreate implements SqlWithOptions {
  /** Operator of every {@code SqlCreateStream}; operands are the name, the
   * columns, the watermark (may be null) and the options as a flat list of
   * key and value literals. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("CREATE STREAM", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlCreateStream(pos, false, false,
              (SqlIdentifier) requireNonNull(operands[0], "name"),
              (SqlNodeList) requireNonNull(operands[1], "columns"),
              (SqlWatermark) operands[2],
              (SqlNodeList) requireNonNull(operands[3], "options"));
        }
      };

  private final SqlIdentifier name;
  private final SqlNodeList columns;
  private final @Nullable SqlWatermark watermark;
  private final SqlNodeList options;

  /**
   * Creates a {@code SqlCreateStream}.
   *
   * @param pos         position of the statement
   * @param replace     whether {@code OR REPLACE} was given
   * @param ifNotExists whether {@code IF NOT EXISTS} was given
   * @param name        stream name
   * @param columns     column declarations
   *                    ({@link org.apache.calcite.sql.ddl.SqlColumnDeclaration}),
   *                    empty if the column list was left out
   * @param watermark   watermark definition, or null
   * @param options     options as key, value, key, value, ...; each a
   *                    character string literal
   */
  public SqlCreateStream(SqlParserPos pos, boolean replace, boolean ifNotExists,
      SqlIdentifier name, SqlNodeList columns, @Nullable SqlWatermark watermark,
      SqlNodeList options) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = requireNonNull(name, "name");
    this.columns = requireNonNull(columns, "columns");
    this.watermark = watermark;
    this.options = SqlOptions.check(options);
  }

  /** Returns the stream name. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns the column declarations, each a
   * {@link org.apache.calcite.sql.ddl.SqlColumnDeclaration}; empty if the
   * statement has no column list. */
  public SqlNodeList columns() {
    return columns;
  }

  /** Returns the {@code WATERMARK FOR} definition, or null if there is none. */
  public @Nullable SqlWatermark watermark() {
    return watermark;
  }

  @Override public SqlNodeList optionList() {
    return options;
  }

  /** Returns whether {@code IF NOT EXISTS} was given. */
  public boolean ifNotExists() {
    return ifNotExists;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, columns, watermark, options);
  }

  /** {@inheritDoc}
   *
   * <p>Unlike {@link SqlOperator#createCall}, keeps {@code OR REPLACE} and
   * {@code IF NOT EXISTS}, which are not operands. */
  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlCreateStream(pos, getReplace(), ifNotExists, name, columns,
        watermark, options);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    SqlOptions.unparseCreate(writer, getReplace(), "STREAM", ifNotExists, name, leftPrec,
        rightPrec);
    if (!columns.isEmpty() || watermark != null) {
      final SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode column : columns) {
        writer.sep(",");
        column.unparse(writer, 0, 0);
      }
      if (watermark != null) {
        writer.sep(",");
        watermark.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    SqlOptions.unparseIfAny(writer, options);
  }
}

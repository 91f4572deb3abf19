package dev.freshet.sql.parser;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedViewBase;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Parse tree node of Freshet's {@code CREATE MATERIALIZED VIEW}: Calcite's statement with the
 * options of a {@code WITH} clause, such as the engine that runs the view's query.
 *
 * <pre>
 * CREATE MATERIALIZED VIEW IF NOT EXISTS counts (k, n)
 * WITH ('engine' = 'spark')
 * AS SELECT k, COUNT(*) FROM clicks GROUP BY k EMIT UPDATE
 * </pre>
 *
 * <p>It is a {@link org.apache.calcite.sql.ddl.SqlCreateMaterializedView}, so code that reads
 * the name, columns and query reads them as before. Without {@code WITH}, {@link #options()} is
 * empty. Keys are identifiers or character strings, kept as written, as in
 * {@link SqlCreateStream}; the parser rejects a key given twice. Which keys mean something is
 * for the engine to say.
 */
public class SqlCreateFreshetMaterializedView extends SqlCreateMaterializedViewBase
    implements SqlWithOptions {
  /** Operator of every {@code SqlCreateFreshetMaterializedView}; operands are the name, the
   * column list (may be null), the query and the options as a flat list of key and value
   * literals. Its kind is Calcite's, {@link SqlKind#CREATE_MATERIALIZED_VIEW}. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("CREATE MATERIALIZED VIEW", SqlKind.CREATE_MATERIALIZED_VIEW) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlCreateFreshetMaterializedView(pos, false, false,
              (SqlIdentifier) requireNonNull(operands[0], "name"),
              (SqlNodeList) operands[1],
              requireNonNull(operands[2], "query"),
              (SqlNodeList) requireNonNull(operands[3], "options"));
        }
      };

  private final SqlNodeList options;

  /**
   * Creates a {@code SqlCreateFreshetMaterializedView}.
   *
   * @param pos         position of the statement
   * @param replace     whether {@code OR REPLACE} was given
   * @param ifNotExists whether {@code IF NOT EXISTS} was given
   * @param name        view name
   * @param columnList  the view's column names, or null if not given
   * @param query       the view's query, maybe a {@link SqlEmit}
   * @param options     options as key, value, key, value, ...; each a character string
   *                    literal; empty without {@code WITH}
   */
  public SqlCreateFreshetMaterializedView(SqlParserPos pos, boolean replace,
      boolean ifNotExists, SqlIdentifier name, @Nullable SqlNodeList columnList, SqlNode query,
      SqlNodeList options) {
    super(pos, replace, ifNotExists, name, columnList, query);
    this.options = SqlOptions.check(options);
  }

  @Override public SqlNodeList optionList() {
    return options;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, columnList, query, options);
  }

  /** {@inheritDoc}
   *
   * <p>Unlike {@link SqlOperator#createCall}, keeps {@code OR REPLACE} and
   * {@code IF NOT EXISTS}, which are not operands. */
  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlCreateFreshetMaterializedView(pos, getReplace(), ifNotExists, name,
        columnList, query, options);
  }

  /** Writes the statement with its {@code WITH} clause, which Calcite's own unparse would
   * leave out, and with {@code OR REPLACE}, so that the text means what was parsed. */
  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    SqlOptions.unparseCreate(writer, getReplace(), "MATERIALIZED VIEW", ifNotExists, name,
        leftPrec, rightPrec);
    if (columnList != null) {
      final SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode column : columnList) {
        writer.sep(",");
        column.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    SqlOptions.unparseIfAny(writer, options);
    writer.keyword("AS");
    writer.newlineAndIndent();
    query.unparse(writer, 0, 0);
  }
}

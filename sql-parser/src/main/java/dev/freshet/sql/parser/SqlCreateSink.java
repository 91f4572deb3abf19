package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.List;
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

/**
 * Parse tree node of a {@code CREATE SINK} statement: a continuous query whose result goes to an
 * external system, from a materialized view or from a query of its own.
 *
 * <pre>
 * CREATE SINK IF NOT EXISTS totals_out FROM totals
 * WITH (connector = 'jdbc', 'url' = 'jdbc:postgresql://db/app', 'table-name' = 'totals')
 *
 * CREATE SINK big_orders AS SELECT * FROM orders WHERE amount &gt; 100
 * WITH (connector = 'kafka', 'topic' = 'big-orders',
 *       'properties.bootstrap.servers' = 'localhost:9092')
 * </pre>
 *
 * <p>Exactly one of {@link #view()} and {@link #query()} is set. Options are as in
 * {@link SqlCreateStream}.
 */
public class SqlCreateSink extends SqlCreate implements SqlWithOptions {
  /** Operator of every {@code SqlCreateSink}; operands are the name, the view (may be null), the
   * query (may be null) and the options as a flat list of key and value literals. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("CREATE SINK", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlCreateSink(pos, false,
              (SqlIdentifier) requireNonNull(operands[0], "name"),
              (SqlIdentifier) operands[1], operands[2],
              (SqlNodeList) requireNonNull(operands[3], "options"));
        }
      };

  private final SqlIdentifier name;
  private final @Nullable SqlIdentifier view;
  private final @Nullable SqlNode query;
  private final SqlNodeList options;

  /**
   * Creates a {@code SqlCreateSink}.
   *
   * @param ifNotExists whether {@code IF NOT EXISTS} was given
   * @param name the sink's name
   * @param view the view after {@code FROM}, or null
   * @param query the query after {@code AS} (maybe a {@link SqlEmit}), or null
   * @param options key, value, key, value, ...; each a character string literal
   */
  public SqlCreateSink(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name,
      @Nullable SqlIdentifier view, @Nullable SqlNode query, SqlNodeList options) {
    super(OPERATOR, pos, false, ifNotExists);
    this.name = requireNonNull(name, "name");
    if ((view == null) == (query == null)) {
      throw new IllegalArgumentException("a sink reads a view or a query, exactly one");
    }
    this.view = view;
    this.query = query;
    this.options = SqlOptions.check(options);
  }

  /** Returns the sink's name. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns the view of {@code FROM view}, or null. */
  public @Nullable SqlIdentifier view() {
    return view;
  }

  /** Returns the query of {@code AS query}, or null. */
  public @Nullable SqlNode query() {
    return query;
  }

  /** Returns whether {@code IF NOT EXISTS} was given. */
  public boolean ifNotExists() {
    return ifNotExists;
  }

  @Override public SqlNodeList optionList() {
    return options;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, view, query, options);
  }

  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlCreateSink(pos, ifNotExists, name, view, query, options);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    SqlOptions.unparseCreate(writer, false, "SINK", ifNotExists, name, leftPrec, rightPrec);
    if (view != null) {
      writer.keyword("FROM");
      view.unparse(writer, leftPrec, rightPrec);
    } else {
      writer.keyword("AS");
      requireNonNull(query, "query").unparse(writer, 0, 0);
    }
    SqlOptions.unparse(writer, options);
  }
}

package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
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
 * Parse tree node of a {@code CREATE TABLE} statement: a reference table, kept in the engine's
 * database or read from another one.
 *
 * <pre>
 * CREATE TABLE products (id BIGINT PRIMARY KEY, category VARCHAR)
 * CREATE TABLE prices (sku VARCHAR, region VARCHAR, price DECIMAL(10, 2),
 *   PRIMARY KEY (sku, region))
 * CREATE TABLE customers (id BIGINT, name VARCHAR)
 *   WITH (connector = 'jdbc', 'url' = 'jdbc:postgresql://db/shop', 'table-name' = 'customers')
 * </pre>
 *
 * <p>{@link #primaryKeys()} holds one list per {@code PRIMARY KEY} written (on a column or for
 * the table); the engine refuses more than one. A column with {@code PRIMARY KEY} is NOT NULL.
 * Options are as in {@link SqlCreateStream}.
 */
public class SqlCreateTable extends SqlCreate implements SqlWithOptions {
  /** Operator of every {@code SqlCreateTable}; operands are the name, the columns, the primary
   * keys and the options as a flat list of key and value literals. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("CREATE TABLE", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlCreateTable(pos, false,
              (SqlIdentifier) requireNonNull(operands[0], "name"),
              (SqlNodeList) requireNonNull(operands[1], "columns"),
              (SqlNodeList) requireNonNull(operands[2], "keys"),
              (SqlNodeList) requireNonNull(operands[3], "options"));
        }
      };

  private final SqlIdentifier name;
  private final SqlNodeList columns;
  private final SqlNodeList keys;
  private final SqlNodeList options;

  /**
   * Creates a {@code SqlCreateTable}.
   *
   * @param pos         position of the statement
   * @param ifNotExists whether {@code IF NOT EXISTS} was given
   * @param name        table name
   * @param columns     column declarations
   *                    ({@link org.apache.calcite.sql.ddl.SqlColumnDeclaration})
   * @param keys        one {@link SqlNodeList} of column identifiers per {@code PRIMARY KEY}
   * @param options     options as key, value, key, value, ...
   */
  public SqlCreateTable(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name,
      SqlNodeList columns, SqlNodeList keys, SqlNodeList options) {
    super(OPERATOR, pos, false, ifNotExists);
    this.name = requireNonNull(name, "name");
    this.columns = requireNonNull(columns, "columns");
    this.keys = requireNonNull(keys, "keys");
    this.options = SqlOptions.check(options);
  }

  /** Returns the table name. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns the column declarations. */
  public SqlNodeList columns() {
    return columns;
  }

  /** Returns the column names of each {@code PRIMARY KEY} written, in order. */
  public List<List<String>> primaryKeys() {
    List<List<String>> result = new ArrayList<>();
    for (SqlNode key : keys) {
      List<String> names = new ArrayList<>();
      for (SqlNode column : (SqlNodeList) key) {
        names.add(((SqlIdentifier) column).getSimple());
      }
      result.add(Collections.unmodifiableList(names));
    }
    return Collections.unmodifiableList(result);
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
    return ImmutableNullableList.of(name, columns, keys, options);
  }

  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlCreateTable(pos, ifNotExists, name, columns, keys, options);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    SqlOptions.unparseCreate(writer, false, "TABLE", ifNotExists, name, leftPrec, rightPrec);
    final SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode column : columns) {
      writer.sep(",");
      column.unparse(writer, 0, 0);
    }
    for (SqlNode key : keys) {
      writer.sep(",");
      writer.keyword("PRIMARY KEY");
      final SqlWriter.Frame k = writer.startList("(", ")");
      for (SqlNode column : (SqlNodeList) key) {
        writer.sep(",");
        column.unparse(writer, 0, 0);
      }
      writer.endList(k);
    }
    writer.endList(frame);
    SqlOptions.unparseIfAny(writer, options);
  }
}

package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDrop;
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
 * A {@code DROP kind [IF EXISTS] name} of one of Freshet's objects: the name, {@code IF EXISTS}
 * and the unparsed text, which {@link SqlDropStream}, {@link SqlDropSink} and
 * {@link SqlDropSecret} share; each says its kind and its operator.
 *
 * <pre>
 * DROP SINK IF EXISTS totals_out
 * </pre>
 */
public abstract class SqlDropNamed extends SqlDrop {
  private final SqlIdentifier name;
  private final String kind;

  /**
   * Creates the node.
   *
   * @param kind the kind as SQL writes it after {@code DROP}, e.g. {@code SINK}
   */
  protected SqlDropNamed(SqlOperator operator, SqlParserPos pos, boolean ifExists,
      SqlIdentifier name, String kind) {
    super(operator, pos, ifExists);
    this.name = requireNonNull(name, "name");
    this.kind = requireNonNull(kind, "kind");
  }

  /**
   * The operator of one kind of DROP, named e.g. {@code DROP SINK}, whose only operand is the
   * name; {@code create} makes its nodes (without {@code IF EXISTS}, which is not an operand).
   *
   * <pre>{@code
   * OPERATOR = operator("DROP SINK", (pos, name) -> new SqlDropSink(pos, false, name));
   * }</pre>
   */
  protected static SqlSpecialOperator operator(String name, Factory create) {
    requireNonNull(create, "create");
    return new SqlSpecialOperator(name, SqlKind.OTHER_DDL) {
      @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
          SqlParserPos pos, @Nullable SqlNode... operands) {
        requireNonNull(operands, "operands");
        return create.create(pos, (SqlIdentifier) requireNonNull(operands[0], "name"));
      }
    };
  }

  /** Makes a DROP node of one kind from its position and name. */
  @FunctionalInterface
  protected interface Factory {
    /** The node dropping {@code name}, written at {@code pos}. */
    SqlDropNamed create(SqlParserPos pos, SqlIdentifier name);
  }

  /** Returns the name of the object to drop. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns whether {@code IF EXISTS} was given. */
  public boolean ifExists() {
    return ifExists;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    SqlOptions.unparseDrop(writer, kind, ifExists, name, leftPrec, rightPrec);
  }
}

package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

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
    writer.keyword("DROP");
    writer.keyword(kind);
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
  }
}

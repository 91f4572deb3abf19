package dev.freshet.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Parse tree node of {@code SHOW GRANTS}, which lists the privileges granted on the objects the
 * user may see, or on one object.
 *
 * <pre>
 * SHOW GRANTS
 * SHOW GRANTS ON totals
 * </pre>
 */
public class SqlShowGrants extends SqlCall {
  /** Operator of every {@code SqlShowGrants}. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("SHOW GRANTS", SqlKind.OTHER);

  private final @Nullable SqlIdentifier object;

  /** Creates a {@code SqlShowGrants}; {@code object} is null for all objects. */
  public SqlShowGrants(SqlParserPos pos, @Nullable SqlIdentifier object) {
    super(pos);
    this.object = object;
  }

  /** The object whose grants are listed; null for all. */
  public @Nullable SqlIdentifier object() {
    return object;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return object == null ? List.of() : List.of(object);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SHOW GRANTS");
    if (object != null) {
      writer.keyword("ON");
      object.unparse(writer, 0, 0);
    }
  }
}

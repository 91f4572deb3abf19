package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlCreate;
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
 * Parse tree node of a {@code CREATE SECRET} statement: a value, such as a password, stored once
 * under a name, which {@code WITH} options use as {@code SECRET name}
 * ({@link SqlSecretReference}).
 *
 * <pre>
 * CREATE SECRET IF NOT EXISTS pg_pass AS 'correct horse battery staple'
 * </pre>
 *
 * <p>Unparsing never writes the value back out: it writes {@code AS '***'}, so that the text of
 * this node, wherever it ends up (a log, a message), does not hold the secret.
 */
public class SqlCreateSecret extends SqlCreate {
  /** What unparsing writes in place of the value. */
  public static final String HIDDEN_VALUE = "***";

  /** Operator of every {@code SqlCreateSecret}; operands are the name and the value. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("CREATE SECRET", SqlKind.OTHER_DDL) {
        @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
            SqlParserPos pos, @Nullable SqlNode... operands) {
          requireNonNull(operands, "operands");
          return new SqlCreateSecret(pos, false,
              (SqlIdentifier) requireNonNull(operands[0], "name"),
              (SqlCharStringLiteral) requireNonNull(operands[1], "value"));
        }
      };

  private final SqlIdentifier name;
  private final SqlCharStringLiteral value;

  /**
   * Creates a {@code SqlCreateSecret}.
   *
   * @param ifNotExists whether {@code IF NOT EXISTS} was given
   * @param name the secret's name
   * @param value the secret, a character string literal whose position is that of its text
   */
  public SqlCreateSecret(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name,
      SqlCharStringLiteral value) {
    super(OPERATOR, pos, false, ifNotExists);
    this.name = requireNonNull(name, "name");
    this.value = requireNonNull(value, "value");
  }

  /** Returns the secret's name. */
  public SqlIdentifier name() {
    return name;
  }

  /** Returns the secret's value. */
  public String value() {
    return requireNonNull(value.getValueAs(String.class), "value");
  }

  /** Returns the literal of the value, whose position says where the value is written. */
  public SqlCharStringLiteral valueLiteral() {
    return value;
  }

  /** Returns whether {@code IF NOT EXISTS} was given. */
  public boolean ifNotExists() {
    return ifNotExists;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(name, value);
  }

  @Override public SqlNode clone(SqlParserPos pos) {
    return new SqlCreateSecret(pos, ifNotExists, name, value);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    SqlOptions.unparseCreate(writer, false, "SECRET", ifNotExists, name, leftPrec, rightPrec);
    writer.keyword("AS");
    writer.literal("'" + HIDDEN_VALUE + "'");
  }
}

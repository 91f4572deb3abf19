package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * Parse tree node of {@code GRANT} and {@code REVOKE}, with PostgreSQL's syntax: privileges on an
 * object, or the right to create objects with an external connector.
 *
 * <pre>
 * GRANT SELECT ON MATERIALIZED VIEW totals TO alice
 * GRANT SELECT, INSERT ON STREAM clicks TO PUBLIC
 * REVOKE ALL ON totals FROM alice
 * GRANT CREATE CONNECTOR TO bob
 * </pre>
 */
public class SqlGrant extends SqlCall {
  /** Operator of every {@code SqlGrant}. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("GRANT", SqlKind.OTHER_DDL);

  /** What a grant is on: the kind its statement names, or {@link #ANY} if it names none. */
  public enum ObjectKind {
    /** {@code ON name}: whatever object has that name. */
    ANY(""),
    /** {@code ON STREAM name}. */
    STREAM("STREAM"),
    /** {@code ON TABLE name}. */
    TABLE("TABLE"),
    /** {@code ON MATERIALIZED VIEW name}. */
    MATERIALIZED_VIEW("MATERIALIZED VIEW");

    private final String sql;

    ObjectKind(String sql) {
      this.sql = sql;
    }

    /** The kind as SQL writes it; empty for {@link #ANY}. */
    public String sql() {
      return sql;
    }
  }

  /** The privilege of creating streams, tables and sinks with an external connector. */
  public static final String CREATE_CONNECTOR = "CREATE CONNECTOR";

  private final boolean grant;
  private final List<String> privileges;
  private final ObjectKind kind;
  private final @Nullable SqlIdentifier object;
  private final @Nullable SqlIdentifier grantee;

  /**
   * Creates a {@code SqlGrant}.
   *
   * @param grant true for {@code GRANT}, false for {@code REVOKE}
   * @param privileges {@code SELECT}, {@code INSERT}, {@code ALL} or {@link #CREATE_CONNECTOR}
   * @param kind the kind of object the statement names
   * @param object the object, null for {@code CREATE CONNECTOR}
   * @param grantee the user, null for {@code PUBLIC}
   */
  public SqlGrant(SqlParserPos pos, boolean grant, List<String> privileges, ObjectKind kind,
      @Nullable SqlIdentifier object, @Nullable SqlIdentifier grantee) {
    super(pos);
    this.grant = grant;
    this.privileges = List.copyOf(privileges);
    this.kind = requireNonNull(kind, "kind");
    this.object = object;
    this.grantee = grantee;
    if (this.privileges.isEmpty()) {
      throw new IllegalArgumentException("a grant needs a privilege");
    }
  }

  /** Whether this is {@code GRANT} (else {@code REVOKE}). */
  public boolean isGrant() {
    return grant;
  }

  /** The privileges as written, upper case: {@code SELECT}, {@code INSERT}, {@code ALL}, or
   * {@link #CREATE_CONNECTOR}. */
  public List<String> privileges() {
    return privileges;
  }

  /** Whether this grants or revokes the right to create objects with external connectors. */
  public boolean isCreateConnector() {
    return privileges.contains(CREATE_CONNECTOR);
  }

  /** The kind of object the statement names. */
  public ObjectKind kind() {
    return kind;
  }

  /** The object, null for {@code CREATE CONNECTOR}. */
  public @Nullable SqlIdentifier object() {
    return object;
  }

  /** The user, null for {@code PUBLIC}. */
  public @Nullable SqlIdentifier grantee() {
    return grantee;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public SqlKind getKind() {
    return SqlKind.OTHER_DDL;
  }

  @Override public List<SqlNode> getOperandList() {
    List<SqlNode> operands = new ArrayList<>();
    if (object != null) {
      operands.add(object);
    }
    if (grantee != null) {
      operands.add(grantee);
    }
    return operands;
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(grant ? "GRANT" : "REVOKE");
    writer.keyword(String.join(", ", privileges).toUpperCase(Locale.ROOT));
    if (object != null) {
      writer.keyword("ON");
      if (kind != ObjectKind.ANY) {
        writer.keyword(kind.sql());
      }
      object.unparse(writer, 0, 0);
    }
    writer.keyword(grant ? "TO" : "FROM");
    if (grantee == null) {
      writer.keyword("PUBLIC");
    } else {
      grantee.unparse(writer, 0, 0);
    }
  }
}

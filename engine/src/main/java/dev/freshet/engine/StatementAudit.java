package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.security.AuditEvent;
import dev.freshet.engine.security.AuditLog;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.security.Redaction;
import dev.freshet.sql.parser.SqlGrant;
import dev.freshet.sql.parser.SqlSetProperty;
import dev.freshet.sql.parser.SqlStopQuery;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/**
 * What of a session's statements goes into the audit log: who ran which DDL, GRANT, REVOKE and
 * STOP QUERY, and every refusal for want of a privilege, whatever the statement. Never the
 * statement's text, which may hold secrets: the action, the object's name and the outcome.
 *
 * <pre>{@code
 * StatementAudit audit = StatementAudit.of(engine.audit(), alice, node, sql);
 * try { ...; audit.ok(); } catch (SQLException e) { audit.failed(e); throw e; }
 * }</pre>
 */
final class StatementAudit {
  private final AuditLog log;
  private final Principal user;
  private final String action;
  private final String object;
  /** Whether the statement is audited when it succeeds (else only when refused). */
  private final boolean audited;
  /** The statement's text, whose secrets no recorded message may hold. */
  private final String sql;

  private StatementAudit(AuditLog log, Principal user, String action, String object,
      boolean audited, String sql) {
    this.sql = sql;
    this.log = log;
    this.user = user;
    this.action = action;
    this.object = object;
    this.audited = audited;
  }

  /** The audit of {@code node}, parsed from {@code sql}, run by {@code user}. */
  static StatementAudit of(AuditLog log, Principal user, SqlNode node, String sql) {
    String action = node instanceof SqlGrant grant ? (grant.isGrant() ? "GRANT" : "REVOKE")
        : node instanceof SqlCall call ? call.getOperator().getName().toUpperCase(Locale.ROOT)
        : node.getKind().sql;
    boolean audited = node instanceof SqlGrant || node instanceof SqlStopQuery
        || (node.isA(SqlKind.DDL) && !(node instanceof SqlSetProperty));
    return new StatementAudit(log, user, action, object(node).orElse(null), audited, sql);
  }

  private static Optional<String> object(SqlNode node) {
    Optional<String> created = StatementPrivileges.createdName(node);
    if (created.isPresent()) {
      return created;
    }
    Optional<String> dropped = StatementPrivileges.droppedName(node);
    if (dropped.isPresent()) {
      return dropped;
    }
    if (node instanceof SqlGrant grant) {
      return Optional.ofNullable(grant.object()).map(StreamDdl::simpleName);
    }
    if (node instanceof SqlStopQuery stop) {
      return Optional.of(stop.queryId());
    }
    return Optional.empty();
  }

  /** Records the statement's success, if it is one that is audited. */
  void ok() {
    if (audited) {
      log.record(AuditEvent.ok(user.name(), action, object));
    }
  }

  /** Records the statement's failure if it was refused, or if it is audited. */
  void failed(SQLException error) {
    boolean refused = SqlState.INSUFFICIENT_PRIVILEGE.code().equals(error.getSQLState());
    if (refused || audited) {
      // A message may quote the statement: never a secret it holds.
      log.record(AuditEvent.refused(user.name(), refused ? AuditEvent.REFUSED + " " + action
          : action, object, Redaction.scrub(error, Redaction.hiddenValues(sql))));
    }
  }
}

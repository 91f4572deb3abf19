package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;

/**
 * One line of the {@link AuditLog}: who did what to which object, and whether it was allowed.
 * It never holds a statement's text, which may hold a password: only the action's name (the
 * statement's kind), the object's name and the outcome.
 *
 * <pre>{@code
 * engine.audit().record(AuditEvent.ok("alice", "CREATE STREAM", "clicks"));
 * engine.audit().record(AuditEvent.refused("bob", "DROP VIEW", "totals", e));   // e: 42501
 * engine.audit().record(AuditEvent.refused(null, AuditEvent.REFUSED_HTTP, null, "42501",
 *     "Cross-site request refused: ...").from("127.0.0.1"));
 * }</pre>
 *
 * @param user who did it: a user's name, or null when not known (a request refused before its
 *     user was authenticated)
 * @param action what was done, e.g. {@code CREATE STREAM}, {@code GRANT}, {@code STOP QUERY},
 *     {@value #REFUSED}, {@value #REFUSED_HTTP}
 * @param object the name of the object it was done to, or null (e.g. for a request refused
 *     before it was read)
 * @param allowed whether it was done ({@code "outcome": "ok"}) or refused ({@code "refused"})
 * @param sqlState the SQLSTATE of a refusal; null for an allowed action
 * @param message why it was refused; null for an allowed action
 * @param remoteAddress the client's address, or null when not known
 */
public record AuditEvent(String user, String action, String object, boolean allowed,
    String sqlState, String message, String remoteAddress) {
  /** The action of a statement refused before it was known what it would do. */
  public static final String REFUSED = "REFUSED";
  /**
   * The action of an HTTP request that the server refused before reading it: a page of another
   * site, a foreign {@code Host}, a body that is not Avatica's protobuf, wrong credentials.
   */
  public static final String REFUSED_HTTP = "REFUSED HTTP";

  public AuditEvent {
    requireNonNull(action, "action");
    if (action.isBlank()) {
      throw new IllegalArgumentException("an audited action needs a name");
    }
  }

  /** {@code user} did {@code action} to {@code object} (null for none). */
  public static AuditEvent ok(String user, String action, String object) {
    return new AuditEvent(user, action, object, true, null, null, null);
  }

  /** {@code user} was refused {@code action} on {@code object} with {@code sqlState}. */
  public static AuditEvent refused(String user, String action, String object, String sqlState,
      String message) {
    return new AuditEvent(user, action, object, false, sqlState, message, null);
  }

  /** {@code user} was refused {@code action} on {@code object} with {@code error}. */
  public static AuditEvent refused(String user, String action, String object,
      SQLException error) {
    return refused(user, action, object, error.getSQLState(), error.getMessage());
  }

  /** This event, of a client at {@code remoteAddress}. */
  public AuditEvent from(String remoteAddress) {
    return new AuditEvent(user, action, object, allowed, sqlState, message, remoteAddress);
  }
}

package dev.freshet.engine.security;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;

/**
 * The refusals of statements a user may not run: SQLSTATE 42501 (PostgreSQL's
 * {@code insufficient_privilege}), naming the object and the privilege, and who can grant it.
 *
 * <pre>{@code
 * throw PrivilegeErrors.denied(alice, "materialized view", "TOTALS", Privilege.SELECT, "BOB");
 * // Permission denied: user alice needs SELECT on materialized view TOTALS. Its owner (BOB)
 * // or an administrator can run GRANT SELECT ON TOTALS TO alice
 * }</pre>
 */
public final class PrivilegeErrors {
  private PrivilegeErrors() {
  }

  /** {@code user} lacks {@code privilege} on an object. */
  public static SQLException denied(Principal user, String kind, String name,
      Privilege privilege, String owner) {
    return Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, "Permission denied: user " + user.name()
        + " needs " + privilege + " on " + kind + " " + name + ". Its owner (" + owner
        + ") or an administrator can run GRANT " + privilege + " ON " + name + " TO "
        + user.name());
  }

  /** {@code user} may not {@code action} an object it does not own. */
  public static SQLException notOwner(Principal user, String action, String kind, String name,
      String owner) {
    return Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, "Permission denied: user " + user.name()
        + " may not " + action + " " + kind + " " + name + "; only its owner (" + owner
        + ") or an administrator may");
  }

  /** {@code user} may not create an object that reaches outside the server. */
  public static SQLException connectorDenied(Principal user, String what, String connector) {
    return Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, "Permission denied: user " + user.name()
        + " may not create " + what + " with connector '" + connector + "': connectors that"
        + " reach outside the server need the administrator role, or an administrator's GRANT"
        + " CREATE CONNECTOR TO " + user.name());
  }

  /** {@code user} may not run a statement only administrators may. */
  public static SQLException adminOnly(Principal user, String statement) {
    return Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, "Permission denied: user " + user.name()
        + " may not run " + statement + "; only administrators (the server's --admin-role)"
        + " may");
  }
}

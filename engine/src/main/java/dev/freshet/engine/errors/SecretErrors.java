package dev.freshet.engine.errors;

import dev.freshet.common.errors.SqlState;
import java.sql.SQLException;
import java.util.List;

/**
 * The errors of {@code CREATE SECRET}, {@code DROP SECRET} and of option values written
 * {@code SECRET name}: each names the secret, never its value.
 *
 * <pre>{@code
 * throw SecretErrors.notFound("PG_PASS");   // SQLSTATE 42704
 * }</pre>
 */
public final class SecretErrors {
  private SecretErrors() {
  }

  /** A secret that does not exist. */
  public static SQLException notFound(String name) {
    return Errors.of(SqlState.UNDEFINED_OBJECT, "Secret '" + name + "' does not exist. Create it"
        + " with CREATE SECRET " + name + " AS '...', or see SHOW SECRETS for the secrets you"
        + " own");
  }

  /** A secret that exists already. */
  public static SQLException exists(String name) {
    return Errors.of(SqlState.OBJECT_EXISTS, "Secret '" + name + "' already exists. Use CREATE"
        + " SECRET IF NOT EXISTS, or DROP SECRET " + name + " first");
  }

  /** A secret that {@code user} may not use or drop. */
  public static SQLException notOwner(String name, String action, String user) {
    return Errors.of(SqlState.INSUFFICIENT_PRIVILEGE, "Permission denied to " + action
        + " secret '" + name + "': only its owner or an administrator may, and " + user
        + " is neither. Create a secret of your own with CREATE SECRET");
  }

  /** A secret that streams, tables or sinks use. */
  public static SQLException inUse(String name, List<String> objects) {
    return Errors.of(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "Cannot drop secret '" + name
        + "': " + String.join(", ", objects) + (objects.size() == 1 ? " uses" : " use") + " it."
        + " Drop " + (objects.size() == 1 ? "it" : "them") + " first");
  }

  /** A name that only anonymous secrets have. */
  public static SQLException reservedName(String name) {
    return Errors.of(SqlState.SYNTAX_ERROR, "Secret name '" + name + "' contains '$', which"
        + " only the names Freshet gives to passwords written in a WITH clause (object$key)"
        + " contain. Choose a name without '$'");
  }
}

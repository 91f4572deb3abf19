package dev.freshet.engine.security;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * Who runs a session's statements: a user of the server's users file, or the process itself.
 *
 * <pre>{@code
 * Session alice = engine.openSession(Principal.user("alice", false));
 * Session admin = engine.openSession(Principal.LOCAL);   // the embedded driver, or no --auth
 * }</pre>
 *
 * <p>User names are matched ignoring case ({@link #key}), as an unquoted name in {@code GRANT ...
 * TO alice} is folded by the parser: {@code alice} and {@code ALICE} are one user.
 *
 * @param name the user's name as the users file spells it
 * @param admin whether the user administers the engine (the server's {@code --admin-role}): an
 *     administrator may do everything to every object
 */
public record Principal(String name, boolean admin) {
  /**
   * The process's own user: the embedded driver's, and the one anonymous user of a server
   * without {@code --auth} (loopback only). It administers the engine.
   */
  public static final Principal LOCAL = new Principal("freshet", true);

  public Principal {
    requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a user's name must not be blank");
    }
  }

  /** A user of the users file. */
  public static Principal user(String name, boolean admin) {
    return new Principal(name, admin);
  }

  /** The name by which grants and owners are matched: upper case, as the parser folds. */
  public String key() {
    return key(name);
  }

  /** {@code name} as grants and owners are matched. */
  public static String key(String name) {
    return name.toUpperCase(Locale.ROOT);
  }

  @Override public String toString() {
    return name + (admin ? " (administrator)" : "");
  }
}

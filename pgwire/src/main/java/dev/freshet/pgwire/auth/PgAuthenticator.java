package dev.freshet.pgwire.auth;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.security.Principal;
import java.util.Map;
import java.util.Optional;

/**
 * Who may connect to the PostgreSQL endpoint: either everyone (the server without
 * {@code --auth}, which listens on loopback only) as the process's own user, or the users of a
 * users file, each proving a password.
 *
 * <pre>{@code
 * PgAuthenticator.trust();                                          // no --auth
 * PgAuthenticator.users(name -> Optional.of(PgUser.plain(Principal.user(name, false), "pw")));
 * }</pre>
 *
 * <p>A user whose password is known in plain text authenticates by SCRAM-SHA-256, so the password
 * never crosses the wire; any other (a users file holding a hash) only by a cleartext password,
 * which the endpoint asks for over TLS only.
 */
public interface PgAuthenticator {
  /** Whether clients must prove a password; false: every client is {@link Principal#LOCAL}. */
  boolean required();

  /**
   * The user called {@code name} (as the client's start-up packet spells it), or empty if there is
   * none or they may not connect (e.g. lacking the server's {@code --role}).
   */
  Optional<PgUser> user(String name);

  /** Everyone, as {@link Principal#LOCAL}: the server without {@code --auth}, on loopback only. */
  static PgAuthenticator trust() {
    return new PgAuthenticator() {
      @Override public boolean required() {
        return false;
      }

      @Override public Optional<PgUser> user(String name) {
        return Optional.of(PgUser.trusted(Principal.LOCAL));
      }
    };
  }

  /** The users {@code users} finds by name. */
  static PgAuthenticator users(UserDirectory users) {
    requireNonNull(users, "users");
    return new PgAuthenticator() {
      @Override public boolean required() {
        return true;
      }

      @Override public Optional<PgUser> user(String name) {
        return users.find(name);
      }
    };
  }

  /** The users of {@code plainPasswords}, by name, none administering: for tests and examples. */
  static PgAuthenticator plainPasswords(Map<String, String> plainPasswords) {
    Map<String, String> copy = Map.copyOf(plainPasswords);
    return users(name -> Optional.ofNullable(copy.get(name))
        .map(password -> PgUser.plain(Principal.user(name, false), password)));
  }

  /** Looks users up by name. */
  @FunctionalInterface
  interface UserDirectory {
    /** The user called {@code name}, or empty. */
    Optional<PgUser> find(String name);
  }
}

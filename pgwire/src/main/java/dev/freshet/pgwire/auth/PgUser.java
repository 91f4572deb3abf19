package dev.freshet.pgwire.auth;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.security.Principal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A user who may connect, with what the endpoint knows of their password: the password itself
 * (then SCRAM-SHA-256 proves it), or only a check of a password the client sends (then a
 * cleartext password, over TLS only).
 *
 * <pre>{@code
 * PgUser.plain(Principal.user("alice", false), "secret");
 * PgUser.checked(Principal.user("bob", true), password -> hash(password).equals(stored));
 * }</pre>
 */
public final class PgUser {
  private final Principal principal;
  private final Optional<String> plainPassword;
  private final Predicate<String> check;
  private final boolean trusted;

  private PgUser(Principal principal, Optional<String> plainPassword, Predicate<String> check,
      boolean trusted) {
    this.principal = requireNonNull(principal, "principal");
    this.plainPassword = plainPassword;
    this.check = check;
    this.trusted = trusted;
  }

  /** A user whose password is {@code password}. */
  public static PgUser plain(Principal principal, String password) {
    requireNonNull(password, "password");
    byte[] expected = password.getBytes(StandardCharsets.UTF_8);
    return new PgUser(principal, Optional.of(password),
        given -> MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8)), false);
  }

  /** A user whose password only {@code check} can tell (a hash in the users file). */
  public static PgUser checked(Principal principal, Predicate<String> check) {
    return new PgUser(principal, Optional.empty(), requireNonNull(check, "check"), false);
  }

  /** A user who proves nothing: every client of an endpoint without authentication. */
  static PgUser trusted(Principal principal) {
    return new PgUser(principal, Optional.empty(), password -> true, true);
  }

  /** Who the user's sessions run as. */
  public Principal principal() {
    return principal;
  }

  /** The password, if the users file holds it in plain text (SCRAM needs it). */
  public Optional<String> plainPassword() {
    return plainPassword;
  }

  /** Whether {@code password} is the user's. */
  public boolean checkPassword(String password) {
    return check.test(password);
  }

  /** Whether the user needs no password. */
  public boolean trusted() {
    return trusted;
  }
}

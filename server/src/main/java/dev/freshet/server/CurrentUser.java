package dev.freshet.server;

import dev.freshet.engine.security.Principal;
import java.util.function.Supplier;

/**
 * The authenticated user of the request a server thread is serving, for the Meta, which owns each
 * connection to the user who opened it: the HTTP handler sets it around each request.
 *
 * <pre>{@code
 * Response response = CurrentUser.as(Principal.user("alice", false), () -> request.accept(service));
 * CurrentUser.get();   // alice inside, null outside
 * }</pre>
 */
final class CurrentUser {
  private static final ThreadLocal<Principal> USER = new ThreadLocal<>();

  private CurrentUser() {
  }

  /** The user of the request this thread serves; null without authentication. */
  static Principal get() {
    return USER.get();
  }

  /** Runs {@code action} as {@code user} (null: anonymous) and returns its result. */
  static <T> T as(Principal user, Supplier<T> action) {
    USER.set(user);
    try {
      return action.get();
    } finally {
      USER.remove();
    }
  }
}

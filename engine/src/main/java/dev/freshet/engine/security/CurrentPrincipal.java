package dev.freshet.engine.security;

import java.util.concurrent.Callable;

/**
 * The user whose statement the current thread runs, for what Calcite computes without a
 * session at hand: the rows of {@code sys.queries}, {@code sys.privileges} and
 * {@code INFORMATION_SCHEMA}, which show each user only what it may see. A session sets it around
 * each statement; a thread outside any statement is the process's own ({@link Principal#LOCAL}).
 *
 * <pre>{@code
 * StatementResult r = CurrentPrincipal.as(alice, () -> run(sql));
 * CurrentPrincipal.get();   // alice inside, LOCAL outside
 * }</pre>
 */
public final class CurrentPrincipal {
  private static final ThreadLocal<Principal> CURRENT = new ThreadLocal<>();

  private CurrentPrincipal() {
  }

  /** The user of the statement this thread runs; {@link Principal#LOCAL} outside one. */
  public static Principal get() {
    Principal principal = CURRENT.get();
    return principal == null ? Principal.LOCAL : principal;
  }

  /** Runs {@code action} as {@code principal}, restoring what was set before. */
  public static <T> T as(Principal principal, Callable<T> action) throws Exception {
    Principal before = CURRENT.get();
    CURRENT.set(principal);
    try {
      return action.call();
    } finally {
      if (before == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(before);
      }
    }
  }
}

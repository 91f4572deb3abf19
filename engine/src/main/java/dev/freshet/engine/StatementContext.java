package dev.freshet.engine;

import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.query.CancelSignal;
import dev.freshet.engine.security.Principal;

/**
 * What a {@link StatementHandler} runs with: the session, the statement as the user wrote it,
 * and the signal that cancels it.
 *
 * @param session the session that executes the statement
 * @param sql the statement's text (recorded in the catalog, shown by SHOW QUERIES)
 * @param cancel cancelled by {@code Statement.cancel()}; a plain query stops with 57014
 */
record StatementContext(Session session, String sql, CancelSignal cancel) {
  /** The engine the session runs on. */
  Engine engine() {
    return session.engine();
  }

  /** Who runs the statement. */
  Principal principal() {
    return session.principal();
  }

  /** The session's options ({@code SET 'key' = 'value'}). */
  SessionOptions options() {
    return session.options();
  }
}

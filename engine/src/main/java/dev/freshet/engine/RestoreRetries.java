package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOptions;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.executor.runtime.RestartStrategy;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares again, with backoff, the recorded objects that a starting engine could not declare
 * because something outside it was away: a sink's or JDBC table's database that is restarting
 * or failing over, say. As a running query restarts after such an error
 * ({@link RestartStrategy}), so does a restore: after the restart policy the object was created
 * with ({@code 'restart.max-attempts'}, {@code 'restart.backoff'} as the session had them;
 * 10 attempts from 1 s, doubling up to a minute, by default). Once one comes back, the objects
 * whose restore failed after it (a view over that table, say) are tried again too.
 *
 * <pre>{@code
 * // restoreCatalog: sink TOTALS_PG failed with 08001 (PostgreSQL is restarting)
 * RestoreRetries.scheduleIfRecoverable(engine, entry, error);   // tries again in 1 s, 2 s, ...
 * }</pre>
 *
 * <p>Until it is back, statements that name the object fail with why ({@link NotRestoredObjects})
 * and {@code DROP} removes it; a retry finds it gone and stops.
 */
final class RestoreRetries {
  private static final Logger LOG = LoggerFactory.getLogger(RestoreRetries.class);

  private RestoreRetries() {
  }

  /**
   * Schedules the first retry of {@code entry}, whose restore failed with {@code error}, if the
   * error is one a retry may cure; does nothing otherwise.
   */
  static void scheduleIfRecoverable(Engine engine, CatalogStore.Entry entry,
      SQLException error) {
    RestartStrategy strategy = strategy(entry);
    if (strategy.maxAttempts() > 0 && strategy.isRecoverable(error)) {
      schedule(engine, entry, strategy, 1);
    }
  }

  /** The restart policy {@code entry} was created with, the defaults where it set none. */
  private static RestartStrategy strategy(CatalogStore.Entry entry) {
    SessionOptions options = new SessionOptions();
    for (Map.Entry<String, String> option : entry.options().entrySet()) {
      try {
        options.set(option.getKey(), option.getValue());
      } catch (SQLException e) {
        // An option this version no longer knows: its default applies, as at the restore.
      }
    }
    return options.restartStrategy();
  }

  private static void schedule(Engine engine, CatalogStore.Entry entry, RestartStrategy strategy,
      int attempt) {
    long delayMs = strategy.backoff(attempt).toMillis();
    LOG.warn("Engine {}: {} {} could not be declared again; attempt {} of {} in {} ms",
        engine.name(), entry.kind(), entry.name(), attempt, strategy.maxAttempts(), delayMs);
    try {
      engine.resources().scheduler().schedule(() -> attempt(engine, entry, strategy, attempt), delayMs,
          TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      // The engine closed meanwhile: nothing to restore into.
    }
  }

  private static void attempt(Engine engine, CatalogStore.Entry entry, RestartStrategy strategy,
      int attempt) {
    SQLException error;
    // Under the DDL lock, so that a DROP of the object or a CREATE of its name does not race it.
    synchronized (engine.ddlLock()) {
      if (!stillMissing(engine, entry)) {
        return;
      }
      error = declare(engine, entry);
      if (error == null) {
        LOG.info("Engine {}: {} {} declared again, at attempt {}", engine.name(), entry.kind(),
            entry.name(), attempt);
        declareLaterFailures(engine, entry);
        return;
      }
      engine.notRestored().put(entry.name(), new CatalogRestore.NotRestored(entry.kind(), error));
    }
    if (attempt < strategy.maxAttempts() && strategy.isRecoverable(error)) {
      schedule(engine, entry, strategy, attempt + 1);
    } else {
      LOG.warn("Engine {}: {} {} could not be declared again after {} attempts; it stays left"
          + " out until it is dropped or the engine restarts: {}", engine.name(), entry.kind(),
          entry.name(), attempt, error.getMessage());
    }
  }

  /** Whether {@code entry} is still recorded, not declared, and not dropped or replaced. */
  private static boolean stillMissing(Engine engine, CatalogStore.Entry entry) {
    return !engine.isClosed() && engine.notRestored().containsKey(entry.name())
        && !engine.catalog().contains(entry.name())
        && !engine.queryRegistry().sinks().containsKey(entry.name());
  }

  /** Declares {@code entry} again; null on success, else why not. Call with the DDL lock. */
  private static SQLException declare(Engine engine, CatalogStore.Entry entry) {
    try {
      new Session(engine, Principal.LOCAL).recreate(entry);
      engine.notRestored().remove(entry.name());
      return null;
    } catch (SQLException e) {
      return e;
    } catch (RuntimeException e) {
      return Errors.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, String.valueOf(e.getMessage()),
          e);
    }
  }

  /**
   * Tries once more, in creation order, the objects recorded after {@code back} whose restore
   * failed: a view over a table that was away failed because the table did.
   */
  private static void declareLaterFailures(Engine engine, CatalogStore.Entry back) {
    List<CatalogStore.Entry> entries;
    try {
      entries = engine.catalogStore().entries();
    } catch (SQLException e) {
      LOG.warn("Engine {}: cannot read the catalog to declare what depends on {}",
          engine.name(), back.name(), e);
      return;
    }
    boolean after = false;
    for (CatalogStore.Entry entry : entries) {
      if (entry.name().equals(back.name())) {
        after = true;
      } else if (after && stillMissing(engine, entry)) {
        SQLException error = declare(engine, entry);
        if (error == null) {
          LOG.info("Engine {}: {} {} declared again after {}", engine.name(), entry.kind(),
              entry.name(), back.name());
        }
      }
    }
  }
}

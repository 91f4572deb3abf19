package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.store.CatalogStore;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares again, when an engine starts, the streams, tables, views and sinks its catalog
 * recorded, and remembers those it could not: statements naming them get that error, not "not
 * found" ({@link NotRestoredObjects}), and those that failed because something outside the
 * engine was away are tried again ({@link RestoreRetries}).
 *
 * <pre>{@code
 * restore.restoreAll(engine, catalogStore.entries());
 * restore.notRestored().get("clicks");   // why CLICKS is not there, if it is not
 * }</pre>
 */
final class CatalogRestore {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** A recorded stream or view that could not be declared again, and why. */
  record NotRestored(CatalogStore.Kind kind, SQLException error) {
  }

  /** By name; entries leave once declared again or dropped. */
  private final Map<String, NotRestored> notRestored = new ConcurrentHashMap<>();

  /**
   * Declares {@code entries} again, in creation order; each view's query resumes from its
   * checkpoint. An object that cannot be declared again (its statement is no longer valid, say)
   * is left out with a warning and stays recorded.
   */
  void restoreAll(Engine engine, List<CatalogStore.Entry> entries) {
    for (CatalogStore.Entry entry : entries) {
      try {
        new Session(engine, Principal.LOCAL).recreate(entry);
      } catch (SQLException | RuntimeException e) {
        LOG.warn("Engine {}: cannot declare {} {} again from the catalog; it is left out: {}",
            engine.name(), entry.kind(), entry.name(), e.getMessage(), e);
        SQLException error = e instanceof SQLException sql ? sql
            : Errors.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, String.valueOf(e.getMessage()),
                e);
        notRestored.put(entry.name(), new NotRestored(entry.kind(), error));
        // A database or broker that is away now may be back soon: tried again with backoff.
        RestoreRetries.scheduleIfRecoverable(engine, entry, error);
      }
    }
  }

  /** The recorded objects that could not be declared again, by name. */
  Map<String, NotRestored> notRestored() {
    return notRestored;
  }
}

package dev.freshet.engine;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.CatalogErrors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.engine.query.QueryCheckpoints;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.store.LegacyResults;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamLogException;
import dev.freshet.sql.parser.SqlCreateSink;
import dev.freshet.sql.parser.SqlCreateStream;
import dev.freshet.sql.parser.SqlDropSink;
import dev.freshet.sql.parser.SqlDropStream;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropMaterializedView;
import org.apache.calcite.sql.ddl.SqlDropTable;

/**
 * What statements do with a stream or view that the catalog records but that a restarted engine
 * could not declare again (a damaged stream log or checkpoint, say): a statement that names it
 * fails with why, not with "not found"; {@code DROP} removes its record and files; declaring it
 * again once the cause is fixed brings it back.
 *
 * <pre>{@code
 * // rows.log of CLICKS lost acknowledged records while the engine was down:
 * session.execute("INSERT INTO clicks VALUES ('a', 1)");
 * // SQLException XX001: Stream CLICKS could not be declared again when the engine started:
 * //   Stream log .../rows.log ends after offset 3 (byte 120), but offsets up to 4 ...
 * }</pre>
 */
final class NotRestoredObjects {
  /** The SQLSTATEs of "no such object", which the object's own error replaces. */
  private static final Set<String> NOT_FOUND = Set.of(SqlState.OBJECT_NOT_FOUND.code(),
      SqlState.UNDEFINED_OBJECT.code());

  private NotRestoredObjects() {
  }

  /**
   * Runs {@code node} if it drops an object that was not declared again: deletes its catalog
   * record and its files, and returns its name; empty for any other statement.
   */
  static Optional<String> drop(Engine engine, SqlNode node) throws SQLException {
    String name;
    CatalogStore.Kind kind;
    if (node instanceof SqlDropStream drop) {
      name = StreamDdl.simpleName(drop.name());
      kind = CatalogStore.Kind.STREAM;
    } else if (node instanceof SqlDropMaterializedView drop) {
      name = StreamDdl.simpleName(drop.name);
      kind = CatalogStore.Kind.MATERIALIZED_VIEW;
    } else if (node instanceof SqlDropSink drop) {
      // A sink whose target database was away at the restart, say.
      name = StreamDdl.simpleName(drop.name());
      kind = CatalogStore.Kind.SINK;
    } else if (node instanceof SqlDropTable drop) {
      // A JDBC table whose database was down at the restart, say.
      name = StreamDdl.simpleName(drop.name);
      kind = CatalogStore.Kind.TABLE;
    } else {
      return Optional.empty();
    }
    synchronized (engine.ddlLock()) {
      CatalogRestore.NotRestored entry = engine.notRestored().get(name);
      if (entry == null || entry.kind() != kind || engine.catalog().contains(name)
          || engine.queryRegistry().sinks().containsKey(name)) {
        return Optional.empty();
      }
      engine.catalogStore().remove(name);
      engine.secrets().dropped(name);
      if (kind == CatalogStore.Kind.TABLE) {
        engine.localTables().drop(name);
      } else if (kind == CatalogStore.Kind.STREAM) {
        try {
          engine.resources().streamDirectory(name).ifPresent(MemoryStream::delete);
        } catch (StreamLogException e) {
          throw StreamErrors.streamLogError(e);
        }
      } else if (kind == CatalogStore.Kind.SINK) {
        engine.dataDir().ifPresent(dir -> QueryCheckpoints.delete(dir, name));
      } else {
        engine.dataDir().ifPresent(dir -> QueryCheckpoints.delete(dir, name));
        LegacyResults.drop(engine.results(), name);
      }
      engine.notRestored().remove(name);
    }
    return Optional.of(name);
  }

  /** Forgets the failure of an object that {@code node}, which succeeded, declared again. */
  static void declared(Engine engine, SqlNode node) {
    String name = node instanceof SqlCreateStream create ? StreamDdl.simpleName(create.name())
        : node instanceof SqlCreateMaterializedView create ? StreamDdl.simpleName(create.name)
        : node instanceof SqlCreateSink create ? StreamDdl.simpleName(create.name())
        : null;
    if (name != null && (engine.catalog().contains(name) || engine.queryRegistry().sinks().containsKey(name))) {
      engine.notRestored().remove(name);
    }
  }

  /**
   * {@code e}, or, if it says that an object does not exist and {@code node} names one that was
   * not declared again, why that object is missing.
   */
  static SQLException explain(Engine engine, SqlNode node, SQLException e) {
    if (!NOT_FOUND.contains(e.getSQLState())) {
      return e;
    }
    Set<String> identifiers = ViewReferences.identifiers(node);
    for (Map.Entry<String, CatalogRestore.NotRestored> entry : engine.notRestored().entrySet()) {
      if (identifiers.contains(entry.getKey()) && !engine.catalog().contains(entry.getKey())) {
        CatalogStore.Kind kind = entry.getValue().kind();
        return CatalogErrors.notRestored(kind == CatalogStore.Kind.STREAM ? "Stream"
            : kind == CatalogStore.Kind.TABLE ? "Table"
            : kind == CatalogStore.Kind.SINK ? "Sink" : "Materialized view", entry.getKey(),
            entry.getValue().error());
      }
    }
    return e;
  }
}

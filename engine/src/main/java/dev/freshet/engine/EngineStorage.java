package dev.freshet.engine;

import dev.freshet.engine.security.SecretStore;
import dev.freshet.engine.security.SecretsKey;
import dev.freshet.engine.store.CatalogStore;
import dev.freshet.engine.store.LocalTables;
import dev.freshet.engine.store.OwnerOnlyFiles;
import dev.freshet.engine.store.PrivilegeStore;
import dev.freshet.engine.store.ResultDatabase;
import dev.freshet.engine.store.SecretTable;
import dev.freshet.executor.source.MemoryStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an engine keeps in its data directory, or in memory without one: the lock on the
 * directory, and the database of the catalog, the owners and grants, the secrets, the engine's
 * own tables and the views' results. The directory's layout:
 * <pre>
 * lock                     locked (an OS file lock) while an engine uses the directory
 * catalog.mv.db            H2: the catalog, the secrets and the views' results (mode 0600)
 * streams/NAME/metadata    the stream's columns
 * streams/NAME/rows.log    its rows, one record per INSERT (see {@link MemoryStream#open})
 * checkpoints/NAME/        a view's or a sink's checkpoint: offsets, commits, state
 * </pre>
 * A stream's directory is its name with every character but {@code A-Z}, {@code 0-9} and
 * {@code _} written as {@code %XX} (its UTF-8 bytes), so that any quoted name is a safe file name,
 * and names that differ only in case stay apart on case-insensitive file systems. The directory
 * is its owner's alone (mode {@code 0700}, {@link OwnerOnlyFiles}).
 *
 * <pre>{@code
 * EngineStorage storage = EngineStorage.open("demo", Optional.of(dir), Optional.empty());
 * storage.catalogStore().entries();   // what to declare again
 * }</pre>
 */
final class EngineStorage {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  private final String engineName;
  private final @Nullable DataDirectoryLock lock;
  private final ResultDatabase results;
  private final CatalogStore catalogStore;
  private final PrivilegeStore privileges;
  private final SecretStore secrets;
  private final LocalTables localTables;

  private EngineStorage(String engineName, @Nullable DataDirectoryLock lock, ResultDatabase results,
      CatalogStore catalogStore, PrivilegeStore privileges, SecretStore secrets) {
    this.engineName = engineName;
    this.lock = lock;
    this.results = results;
    this.catalogStore = catalogStore;
    this.privileges = privileges;
    this.secrets = secrets;
    this.localTables = new LocalTables(results);
  }

  /**
   * Locks {@code dataDir} (creating it if needed) and opens its database; in memory if it is
   * empty. Nothing stays open if it fails.
   *
   * @param dataDir absolute and normalized
   * @param secretsKeyFile the key that encrypts the stored secrets, if the operator gave one
   * @throws UncheckedIOException if the directory is another engine's, or cannot be created or
   *     read; its message says which and what to do
   */
  static EngineStorage open(String engineName, Optional<Path> dataDir,
      Optional<Path> secretsKeyFile) {
    DataDirectoryLock lock = dataDir.isPresent() ? DataDirectoryLock.acquire(dataDir.get()) : null;
    ResultDatabase results = null;
    try {
      Optional<SecretsKey> secretsKey = secretsKeyFile.map(file -> SecretsKey.read(file, dataDir));
      String where = dataDir.map(Path::toString).orElse("memory");
      try {
        results = ResultDatabase.open(dataDir);
      } catch (SQLException e) {
        throw cannot("open the database of the views' results", where, e);
      }
      CatalogStore catalogStore;
      PrivilegeStore privileges;
      try {
        catalogStore = new CatalogStore(results);
        privileges = new PrivilegeStore(results);
      } catch (SQLException e) {
        throw cannot("open the catalog", where, e);
      }
      String database = dataDir.map(d -> d.resolve("catalog.mv.db").toString())
          .orElse("the engine's in-memory database");
      try {
        return new EngineStorage(engineName, lock, results, catalogStore, privileges,
            SecretStore.open(new SecretTable(results), secretsKey, database));
      } catch (SQLException e) {
        throw cannot("open the secrets", database, e);
      }
    } catch (RuntimeException e) {
      closeResults(engineName, results);
      if (lock != null) {
        lock.release();
      }
      throw e;
    }
  }

  /** Why the engine cannot start: it cannot do {@code what} in {@code where}. */
  static UncheckedIOException cannot(String what, String where, Exception e) {
    String message = "Cannot " + what + " in " + where + ": " + e.getMessage();
    return new UncheckedIOException(message, new IOException(message, e));
  }

  /** The views' results (and, with a data directory, the catalog). */
  ResultDatabase results() {
    return results;
  }

  /** The declared streams, tables, views and sinks, kept across restarts. */
  CatalogStore catalogStore() {
    return catalogStore;
  }

  /** The owners and grants of the engine's objects. */
  PrivilegeStore privileges() {
    return privileges;
  }

  /** The secrets of CREATE SECRET and of WITH clauses. */
  SecretStore secrets() {
    return secrets;
  }

  /** The engine's own reference tables. */
  LocalTables localTables() {
    return localTables;
  }

  /** Closes the database and releases the directory; once the engine's queries stopped. */
  void close() {
    closeResults(engineName, results);
    if (lock != null) {
      lock.release();
    }
  }

  private static void closeResults(String engineName, @Nullable ResultDatabase results) {
    if (results == null) {
      return;
    }
    try {
      results.close();
    } catch (SQLException e) {
      // Every view's batch was made durable when it committed; nothing is lost here.
      LOG.warn("Engine {}: closing the results database failed", engineName, e);
    }
  }
}

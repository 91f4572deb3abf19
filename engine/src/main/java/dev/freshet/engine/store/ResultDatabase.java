package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.storage.DurableFiles;
import dev.freshet.executor.storage.StorageException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The engine's H2 database: the results of its materialized views, one table each
 * ({@link LegacyResults}, only dropped now), its catalog of declared streams and views
 * ({@link CatalogStore}) and its own tables ({@link LocalTables}).
 *
 * <pre>{@code
 * try (ResultDatabase db = ResultDatabase.open(Optional.of(dataDir))) {   // <dataDir>/catalog.mv.db
 *   try (Connection c = db.connect()) { ... }
 * }
 * }</pre>
 *
 * <p>With a data directory the database is the file {@code <dataDir>/catalog.mv.db}, so a view's
 * result lives outside the heap (only H2's page cache is in memory) and survives restarts;
 * without one it is a private in-memory database that ends with the engine.
 *
 * <p><b>Durability.</b> H2 writes committed transactions to its file in the background, up to
 * half a second later, and forces the file to disk only when told, so a power loss right after a
 * commit could lose it. A sink's batch must be on disk before the checkpoint records the batch as
 * committed, or a restart would skip the lost batch by its id; so writers call {@link #persist}
 * after committing: H2's {@code CHECKPOINT SYNC}, which writes everything committed and forces
 * the file.
 *
 * <p><b>Accounts.</b> The engine's own bookkeeping connects as H2's administrator
 * ({@link #connect}); the INSERT, UPDATE and DELETE statements of its tables, which come from
 * users, run through {@link #connectForDml}, as an account that reaches those tables and nothing
 * else ({@link DmlAccount}).
 *
 * <p>The files are opened on the data directory's own file system: H2 names a file on another
 * file system than the default one by that file system's scheme ({@link DurableFiles#h2FileName}),
 * which a test uses to simulate power loss.
 */
public final class ResultDatabase implements AutoCloseable {
  /** The database file's name in the data directory. */
  private static final String FILE_NAME = "catalog.mv.db";
  /** The start of the names of the database's files: catalog.mv.db, catalog.trace.db. */
  private static final String FILE_PREFIX = "catalog.";
  /** H2's page cache for the file, in KB: small, because the state stores have their own. */
  private static final int CACHE_SIZE_KB = 8 * 1024;

  /** The administrator, the user of the engine's own connections; the password is empty. */
  public static final String USER = "sa";

  private final String url;
  /**
   * The URL of the same database for the DML account: without the settings of {@link #url},
   * which only an administrator may give, and never creating a database.
   */
  private final String dmlUrl;
  private final boolean persistent;
  /**
   * Kept open while the engine runs: it holds an in-memory database alive, and lets a file
   * database skip re-opening for every connection.
   */
  private final Connection keeper;
  private final DmlAccount dmlAccount;
  /** The data directory of a file database, whose files only their owner reads; else null. */
  private final @Nullable Path directory;

  private ResultDatabase(String database, String settings, @Nullable Path directory)
      throws SQLException {
    this.url = database + settings;
    this.dmlUrl = database + ";IFEXISTS=TRUE";
    this.persistent = directory != null;
    this.directory = directory;
    this.keeper = DriverManager.getConnection(url, USER, "");
    try {
      this.dmlAccount = DmlAccount.create(keeper, LocalTables.SCHEMA);
    } catch (SQLException | RuntimeException e) {
      try {
        keeper.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * Opens the database of an engine: the file {@code <dataDir>/catalog.mv.db}, or a private
   * in-memory database if {@code dataDir} is empty.
   */
  public static ResultDatabase open(Optional<Path> dataDir) throws SQLException {
    requireNonNull(dataDir, "dataDir");
    if (dataDir.isEmpty()) {
      return new ResultDatabase("jdbc:h2:mem:freshet-" + UUID.randomUUID(), "", null);
    }
    // The engine's own lock on the data directory keeps other processes away; H2's file lock
    // would be a second lock with its own error messages. The engine closes the database, so
    // H2's shutdown hook must not close it under running queries.
    Path directory = dataDir.get();
    boolean existed = Files.exists(directory.resolve(FILE_NAME));
    String file = DurableFiles.h2FileName(directory.resolve("catalog"));
    // On the default file system, "file:" keeps H2 from reading a drive letter as a scheme.
    String prefix = directory.getFileSystem() == FileSystems.getDefault() ? "file:" : "";
    // H2 writes its trace file with java.io, outside another file system: there it would land
    // in the working directory under the other system's path, so it is off.
    String trace = prefix.isEmpty() ? ";TRACE_LEVEL_FILE=0" : "";
    ResultDatabase db = new ResultDatabase("jdbc:h2:" + prefix + file, ";CACHE_SIZE="
        + CACHE_SIZE_KB + ";DB_CLOSE_ON_EXIT=FALSE" + trace, directory);
    try {
      db.restrictFiles();
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
    if (!existed) {
      // H2 forces the file's bytes, never its name: without this a power loss could take the
      // new database, and every batch committed in it, away.
      try {
        DurableFiles.forceDirectory(directory);
      } catch (StorageException e) {
        db.close();
        throw Errors.of(SqlState.IO_ERROR, "Cannot make the new database "
            + directory.resolve(FILE_NAME) + " durable: " + e.getMessage(), e);
      }
    }
    return db;
  }

  /** A new connection to the database as its administrator; the caller closes it. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url, USER, "");
  }

  /**
   * A new connection as the DML account, which may read and change the engine's own tables and
   * nothing else ({@link DmlAccount}); the caller closes it. It cannot {@link #persist}.
   */
  Connection connectForDml() throws SQLException {
    return DriverManager.getConnection(dmlUrl, DmlAccount.USER, dmlAccount.password());
  }

  /** Grants the DML account its rights on a new table of the engine's own, e.g. {@code S."T"}. */
  void grantDml(Statement admin, String qualifiedTable) throws SQLException {
    dmlAccount.grant(admin, qualifiedTable);
  }

  /**
   * Writes every committed transaction to the file and forces it to disk, so that it survives a
   * power loss; nothing to do in memory. A sink calls it before its batch may be recorded as
   * committed ({@code commits/N}), which the executor writes only after the sink returns.
   */
  void persist(Connection connection) throws SQLException {
    if (persistent) {
      try (Statement statement = connection.createStatement()) {
        // SYNC: H2's plain CHECKPOINT writes the file but leaves it in the OS's page cache.
        statement.execute("CHECKPOINT SYNC");
      }
    }
  }

  /**
   * {@link #persist(Connection)} through a connection of the administrator's own, for a change
   * committed through another account (which may not write checkpoints).
   */
  void persist() throws SQLException {
    if (persistent) {
      try (Connection connection = connect()) {
        persist(connection);
      }
    }
  }

  /** The database's H2 URL, which reaches it from this JVM only. */
  String url() {
    return url;
  }

  /** Whether the database outlives the engine (it is a file). */
  boolean persistent() {
    return persistent;
  }

  /**
   * Gives the database's files mode {@code 0600}: they hold the catalog's statements and the
   * secrets ({@link SecretTable}).
   */
  private void restrictFiles() {
    if (directory != null) {
      OwnerOnlyFiles.files(directory, FILE_PREFIX);
    }
  }

  /** Closes the database; connections still open fail afterwards. */
  @Override public void close() throws SQLException {
    try (Statement statement = keeper.createStatement()) {
      statement.execute("SHUTDOWN");
    } finally {
      keeper.close();
    }
    // H2 may have written a file anew on closing: it has its owner's mode too.
    restrictFiles();
  }
}

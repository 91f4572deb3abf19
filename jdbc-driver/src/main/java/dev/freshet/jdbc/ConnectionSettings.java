package dev.freshet.jdbc;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.EngineMetadata;
import dev.freshet.engine.Session;
import dev.freshet.engine.errors.Errors;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;
import org.apache.calcite.avatica.Meta;

/**
 * The JDBC settings of a connection that Avatica keeps on the server's side (auto-commit,
 * read-only, transaction isolation, catalog, schema), so that {@code Connection.getSchema()} and
 * friends answer, embedded and remotely; auto-commit and read-only are the session's own.
 *
 * <pre>{@code
 * ConnectionPropertiesImpl settings = ConnectionSettings.initial();
 * ConnectionSettings.sync(settings, new ConnectionPropertiesImpl().setAutoCommit(false), session);
 * ConnectionSettings.sync(settings, new ConnectionPropertiesImpl().setSchema("SYS"), session);
 * // throws: only FRESHET can be the default schema
 * }</pre>
 *
 * <p>A connection starts in schema {@code FRESHET}, where unqualified names resolve, with
 * auto-commit on (every statement commits on its own), not read-only (it can INSERT and create
 * streams), and transaction isolation {@code READ_COMMITTED}: a read sees the rows committed
 * before it (the streams' appended offsets, the views' latest completed batch) and never another
 * connection's uncommitted INSERTs, but two reads in one transaction may see different data. Asking
 * for {@code NONE} or {@code READ_UNCOMMITTED} gets {@code READ_COMMITTED}, a stronger level, as
 * JDBC allows. Freshet's drivers refuse {@code REPEATABLE_READ} and {@code SERIALIZABLE} (0A000,
 * {@link #checkIsolation}); here, where a stock Avatica client's request arrives late (with its
 * next statement, which a refusal would fail, again and again), they get READ_COMMITTED too. The
 * schema cannot change, as names would still resolve in {@code FRESHET}; a catalog is ignored,
 * as JDBC asks of a driver without catalogs.
 */
final class ConnectionSettings {
  /** The one isolation level Freshet provides. */
  static final int ISOLATION = Connection.TRANSACTION_READ_COMMITTED;

  private ConnectionSettings() {
  }

  /**
   * Refuses an isolation level above READ_COMMITTED, which Freshet does not provide (0A000).
   *
   * @param level a {@code Connection.TRANSACTION_*} constant
   */
  static void checkIsolation(int level) throws SQLException {
    if (level > ISOLATION) {
      throw Errors.of(SqlState.FEATURE_NOT_SUPPORTED, "Transaction isolation " + level
          + " is not supported: Freshet provides READ_COMMITTED (" + ISOLATION + "); call"
          + " setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED)");
    }
  }

  /** The settings of a new connection. */
  static ConnectionPropertiesImpl initial() {
    return new ConnectionPropertiesImpl(true, false, ISOLATION, null,
        EngineMetadata.DEFAULT_SCHEMA);
  }

  /**
   * Applies the settings {@code requested} sets to {@code session} and {@code current}, and
   * returns the result.
   *
   * @throws SQLException if {@code requested} names another schema than {@code FRESHET}, or
   *     turns auto-commit on and the commit of the pending INSERTs fails
   */
  static Meta.ConnectionProperties sync(ConnectionPropertiesImpl current,
      Meta.ConnectionProperties requested, Session session) throws SQLException {
    String schema = requested.getSchema();
    if (schema != null && !schema.equals(EngineMetadata.DEFAULT_SCHEMA)) {
      throw Errors.of(SqlState.INVALID_SCHEMA_NAME, "Schema '" + schema + "' cannot be the"
          + " connection's schema:"
          + " Freshet resolves names in " + EngineMetadata.DEFAULT_SCHEMA + ", which holds the"
          + " streams and views. Qualify the names of system tables instead, e.g."
          + " SELECT * FROM " + EngineMetadata.SYSTEM_SCHEMA + ".QUERIES");
    }
    synchronized (current) {
      // The session first: turning auto-commit on commits, which may fail.
      if (requested.isReadOnly() != null) {
        session.setReadOnly(requested.isReadOnly());
      }
      if (requested.isAutoCommit() != null) {
        session.setAutoCommit(requested.isAutoCommit());
      }
      current.merge(new ConnectionPropertiesImpl(session.autoCommit(), session.readOnly(),
          ISOLATION, null, null));
      current.setDirty(false);
      return new ConnectionPropertiesImpl(current.isAutoCommit(), current.isReadOnly(),
          current.getTransactionIsolation(), current.getCatalog(), current.getSchema());
    }
  }
}

package dev.freshet.jdbc;

import dev.freshet.engine.EngineMetadata;
import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.errors.SqlState;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;
import org.apache.calcite.avatica.Meta;

/**
 * The JDBC settings of a connection that Avatica keeps on the server's side (auto-commit,
 * read-only, transaction isolation, catalog, schema), so that {@code Connection.getSchema()} and
 * friends answer, embedded and remotely.
 *
 * <pre>{@code
 * ConnectionPropertiesImpl settings = ConnectionSettings.initial();
 * ConnectionSettings.sync(settings, new ConnectionPropertiesImpl().setSchema("SYS"));
 * // throws: only FRESHET can be the default schema
 * }</pre>
 *
 * <p>A connection starts in schema {@code FRESHET}, where unqualified names resolve, with
 * auto-commit on (every statement commits on its own), not read-only (it can INSERT and create
 * streams), and transaction isolation {@code NONE}. Other values of the first three are kept
 * and reported, as Avatica does, though Freshet behaves the same. The schema cannot change, as
 * names would still resolve in {@code FRESHET}; a catalog is ignored, as JDBC asks of a driver
 * without catalogs.
 */
final class ConnectionSettings {
  private ConnectionSettings() {
  }

  /** The settings of a new connection. */
  static ConnectionPropertiesImpl initial() {
    return new ConnectionPropertiesImpl(true, false, Connection.TRANSACTION_NONE, null,
        EngineMetadata.DEFAULT_SCHEMA);
  }

  /**
   * Applies the settings {@code requested} sets to {@code current}, and returns the result.
   *
   * @throws SQLException if {@code requested} names another schema than {@code FRESHET}
   */
  static Meta.ConnectionProperties sync(ConnectionPropertiesImpl current,
      Meta.ConnectionProperties requested) throws SQLException {
    String schema = requested.getSchema();
    if (schema != null && !schema.equals(EngineMetadata.DEFAULT_SCHEMA)) {
      throw Errors.of(SqlState.INVALID_SCHEMA_NAME, "Schema '" + schema + "' cannot be the"
          + " connection's schema:"
          + " Freshet resolves names in " + EngineMetadata.DEFAULT_SCHEMA + ", which holds the"
          + " streams and views. Qualify the names of system tables instead, e.g."
          + " SELECT * FROM " + EngineMetadata.SYSTEM_SCHEMA + ".QUERIES");
    }
    synchronized (current) {
      current.merge(new ConnectionPropertiesImpl(requested.isAutoCommit(),
          requested.isReadOnly(), requested.getTransactionIsolation(), null, null));
      current.setDirty(false);
      return new ConnectionPropertiesImpl(current.isAutoCommit(), current.isReadOnly(),
          current.getTransactionIsolation(), current.getCatalog(), current.getSchema());
    }
  }
}

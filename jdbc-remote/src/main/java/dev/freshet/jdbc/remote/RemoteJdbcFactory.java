package dev.freshet.jdbc.remote;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * Creates the JDBC objects of {@link FreshetRemoteDriver}: Avatica's, except that a result set
 * reads its rows without look-ahead ({@link FrameRowIterable}), errors keep the server's
 * SQLSTATE, and {@code Statement.cancel()} stops the query on the server at once.
 */
public class RemoteJdbcFactory implements AvaticaFactory {
  /** Called by Avatica, which instantiates the factory by name. */
  public RemoteJdbcFactory() {
  }

  @Override public int getJdbcMajorVersion() {
    return 4;
  }

  @Override public int getJdbcMinorVersion() {
    return 1;
  }

  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info) {
    return new RemoteConnection(driver, factory, url, info);
  }

  @Override public AvaticaStatement newStatement(AvaticaConnection connection,
      Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) {
    return new RemoteStatement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new RemotePreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  @Override public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(
      AvaticaConnection connection) {
    return new RemoteDatabaseMetaData(connection);
  }

  @Override public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) {
    return new AvaticaResultSetMetaData(statement, null, signature);
  }

  @Override public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    ResultSetMetaData metaData = newResultSetMetaData(statement, signature);
    return new RemoteResultSet(statement, state, signature, metaData, timeZone, firstFrame);
  }

  /** Connection whose Meta (Avatica's remote one) the result sets fetch from. */
  static final class RemoteConnection extends AvaticaConnection {
    RemoteConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
        Properties info) {
      super(driver, factory, url, info);
    }

    Meta meta() {
      return meta;
    }

    /**
     * Avatica lets the server's refusal (e.g. a connection the server closed when it was idle)
     * out as an unchecked exception; this makes it a SQLException with the server's SQLSTATE.
     */
    @Override public AvaticaStatement createStatement(int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) throws SQLException {
      try {
        return super.createStatement(resultSetType, resultSetConcurrency, resultSetHoldability);
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Creating a statement", e);
      }
    }

    // Transactions. Avatica's client only records a setting and sends it with the next
    // request; these send it at once (the getter makes the round trip), so that e.g.
    // setAutoCommit(true) commits before a close() that would otherwise drop the rows, and a
    // failure is reported by the call that caused it.

    @Override public void setAutoCommit(boolean autoCommit) throws SQLException {
      try {
        super.setAutoCommit(autoCommit);
        super.getAutoCommit();
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Setting auto-commit", e);
      }
    }

    @Override public void setReadOnly(boolean readOnly) throws SQLException {
      try {
        super.setReadOnly(readOnly);
        super.isReadOnly();
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Setting read-only", e);
      }
    }

    /** Freshet provides READ_COMMITTED: a stronger level is refused (0A000), a weaker raised. */
    @Override public void setTransactionIsolation(int level) throws SQLException {
      if (level > TRANSACTION_READ_COMMITTED) {
        throw new SQLException("Transaction isolation " + level + " is not supported: Freshet"
            + " provides READ_COMMITTED (" + TRANSACTION_READ_COMMITTED + "); call"
            + " setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED)", "0A000");
      }
      try {
        super.setTransactionIsolation(level);
        super.getTransactionIsolation();
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Setting the transaction isolation", e);
      }
    }

    @Override public void commit() throws SQLException {
      try {
        super.commit();
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Committing", e);
      }
    }

    @Override public void rollback() throws SQLException {
      try {
        super.rollback();
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Rolling back", e);
      }
    }

    /**
     * Sets the schema now, so that a refused schema (3F000) is this call's error. Avatica's
     * remote client only records the change and sends it with the connection's next call, which
     * then fails with an unchecked exception, as does every call after it: the refused schema
     * stays recorded. Here it is put back to the server's, so the connection stays usable.
     */
    @Override public void setSchema(String schema) throws SQLException {
      String current;
      try {
        current = getSchema();
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Reading the schema", e);
      }
      try {
        super.setSchema(schema);
        meta.connectionSync(handle, new ConnectionPropertiesImpl());
      } catch (RuntimeException e) {
        super.setSchema(current);
        throw RemoteErrors.onCall("Setting the schema", e);
      }
    }
  }

  /** Statement whose cancel also closes it on the server, which stops its push query. */
  static final class RemoteStatement extends AvaticaStatement {
    RemoteStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) {
      super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    boolean isCancelled() {
      return cancelFlag.get();
    }

    @Override public ResultSet executeQuery(String sql) throws SQLException {
      // A new query is not cancelled; Avatica leaves the flag set after a cancel.
      cancelFlag.set(false);
      try {
        return super.executeQuery(sql);
      } catch (SQLException e) {
        throw RemoteErrors.statementFailed(e);
      }
    }

    @Override public boolean execute(String sql) throws SQLException {
      cancelFlag.set(false);
      try {
        return super.execute(sql);
      } catch (SQLException e) {
        throw RemoteErrors.statementFailed(e);
      }
    }

    @Override public long executeLargeUpdate(String sql) throws SQLException {
      try {
        return super.executeLargeUpdate(sql);
      } catch (SQLException e) {
        throw RemoteErrors.statementFailed(e);
      }
    }

    /**
     * Sets the cancel flag, then closes the statement on the server (Avatica's protocol has no
     * cancel request): its push query stops and a {@code next()} blocked in a long-poll fetch
     * returns now instead of after the poll. A later execute on this statement opens a new one
     * on the server.
     */
    @Override public void cancel() throws SQLException {
      super.cancel();
      try {
        ((RemoteConnection) connection).meta().closeStatement(handle);
      } catch (RuntimeException e) {
        // The flag alone still stops the reader, at its next fetch.
      }
    }
  }

  /** Database metadata, answered by the server. */
  static final class RemoteDatabaseMetaData extends AvaticaDatabaseMetaData {
    private final AvaticaConnection connection;

    RemoteDatabaseMetaData(AvaticaConnection connection) {
      super(connection);
      this.connection = connection;
    }

    // Transactions, as the server runs them: INSERTs only, at READ_COMMITTED; DDL inside a
    // transaction takes effect at once and leaves the pending INSERTs pending.

    @Override public boolean supportsTransactions() {
      return true;
    }

    @Override public boolean supportsTransactionIsolationLevel(int level) {
      return level == java.sql.Connection.TRANSACTION_READ_COMMITTED;
    }

    @Override public boolean supportsDataManipulationTransactionsOnly() {
      return true;
    }

    @Override public boolean dataDefinitionCausesTransactionCommit() {
      return false;
    }

    /**
     * A view's key columns. Avatica's protocol has no request for them (its client would answer
     * an empty result), so this reads the server's {@code SYS.PRIMARY_KEYS}; the statement
     * closes with the result set.
     */
    @Override public ResultSet getPrimaryKeys(String catalog, String schema, String table)
        throws SQLException {
      if (catalog != null && !catalog.isEmpty()) {
        // Freshet has no catalogs: a named one holds nothing.
        return query("SELECT * FROM (" + keysQuery() + ") k WHERE 1 = 0");
      }
      StringBuilder where = new StringBuilder(" WHERE 1 = 1");
      if (schema != null) {
        where.append(" AND TABLE_SCHEM = ").append(literal(schema));
      }
      if (table != null) {
        where.append(" AND TABLE_NAME = ").append(literal(table));
      }
      return query(keysQuery() + where + " ORDER BY COLUMN_NAME");
    }

    private static String keysQuery() {
      return "SELECT CAST(NULL AS VARCHAR(128)) AS TABLE_CAT, TABLE_SCHEM, TABLE_NAME,"
          + " COLUMN_NAME, KEY_SEQ, PK_NAME FROM SYS.PRIMARY_KEYS";
    }

    private static String literal(String value) {
      return "'" + value.replace("'", "''") + "'";
    }

    private ResultSet query(String sql) throws SQLException {
      Statement statement = connection.createStatement();
      try {
        statement.closeOnCompletion();
        return statement.executeQuery(sql);
      } catch (SQLException | RuntimeException e) {
        statement.close();
        throw e;
      }
    }
  }

  /** Result set that returns each row as soon as it arrives. */
  static final class RemoteResultSet extends AvaticaResultSet {
    RemoteResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
        throws SQLException {
      super(statement, state, signature, metaData, timeZone, firstFrame);
    }

    @Override protected AvaticaResultSet execute() throws SQLException {
      Iterable<Object> rows;
      if (firstFrame != null && firstFrame.done) {
        rows = firstFrame.rows;
      } else {
        RemoteConnection connection = (RemoteConnection) statement.connection;
        // Avatica's protocol has no query timeout, so the driver keeps it: once it has passed,
        // the reader closes the statement on the server, which stops its query.
        int timeoutSeconds = statement.getQueryTimeout();
        rows = new FrameRowIterable(connection.meta(), statement.handle, firstFrame,
            this::fetchSizeOrDefault, this::isCancelled,
            timeoutSeconds > 0 ? Duration.ofSeconds(timeoutSeconds) : null);
      }
      return execute2(MetaImpl.createCursor(signature.cursorFactory, rows), columnMetaDataList);
    }

    private int fetchSizeOrDefault() {
      try {
        return statement.getFetchSize();
      } catch (SQLException e) {
        return AvaticaStatement.DEFAULT_FETCH_SIZE;
      }
    }

    private boolean isCancelled() {
      return statement instanceof RemoteStatement && ((RemoteStatement) statement).isCancelled();
    }

    @Override public boolean next() throws SQLException {
      if (isCancelled()) {
        // Avatica's own check throws without a SQLSTATE.
        throw new SQLException("Statement canceled", ClientSqlState.OPERATION_CANCELED.code());
      }
      try {
        return super.next();
      } catch (RuntimeException e) {
        throw RemoteErrors.onCall("Reading the next row", e);
      }
    }
  }
}

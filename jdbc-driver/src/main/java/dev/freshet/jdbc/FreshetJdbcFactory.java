package dev.freshet.jdbc;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import java.io.InputStream;
import java.io.Reader;
import java.sql.NClob;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * Creates Freshet's JDBC objects: Avatica's, with errors surfaced as the engine reported them and
 * with {@code Statement.cancel()} stopping the continuous query behind a blocked {@code next()}.
 */
public class FreshetJdbcFactory implements AvaticaFactory {
  public FreshetJdbcFactory() {
  }

  @Override public int getJdbcMajorVersion() {
    return 4;
  }

  @Override public int getJdbcMinorVersion() {
    return 1;
  }

  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info) {
    return new FreshetConnection(driver, factory, url, info);
  }

  @Override public AvaticaStatement newStatement(AvaticaConnection connection,
      Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) {
    return new FreshetStatement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new FreshetPreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  @Override public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    ResultSetMetaData metaData = newResultSetMetaData(statement, signature);
    return new FreshetResultSet(statement, state, signature, metaData, timeZone, firstFrame);
  }

  @Override public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(
      AvaticaConnection connection) {
    return new FreshetDatabaseMetaData(connection);
  }

  @Override public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) {
    return new AvaticaResultSetMetaData(statement, null, signature);
  }

  /** Connection of the embedded driver. */
  static final class FreshetConnection extends AvaticaConnection {
    FreshetConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
        Properties info) {
      super(driver, factory, url, info);
    }

    Meta meta() {
      return meta;
    }

    @Override public java.sql.PreparedStatement prepareStatement(String sql, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) throws SQLException {
      try {
        return super.prepareStatement(sql, resultSetType, resultSetConcurrency,
            resultSetHoldability);
      } catch (SQLException e) {
        throw JdbcErrors.unwrap(e, sql);
      }
    }

    @Override public void setSchema(String schema) throws SQLException {
      try {
        super.setSchema(schema);
      } catch (RuntimeException e) {
        throw JdbcErrors.unwrap(e, "Cannot set schema " + schema);
      }
    }

    // Transactions: the Meta's refusals come as unchecked exceptions; these keep their SQLSTATE.

    @Override public void setAutoCommit(boolean autoCommit) throws SQLException {
      try {
        super.setAutoCommit(autoCommit);
      } catch (RuntimeException e) {
        throw JdbcErrors.unwrap(e, "Cannot set auto-commit " + autoCommit);
      }
    }

    @Override public void setReadOnly(boolean readOnly) throws SQLException {
      try {
        super.setReadOnly(readOnly);
      } catch (RuntimeException e) {
        throw JdbcErrors.unwrap(e, "Cannot set read-only " + readOnly);
      }
    }

    @Override public void setTransactionIsolation(int level) throws SQLException {
      ConnectionSettings.checkIsolation(level);
      try {
        super.setTransactionIsolation(level);
      } catch (RuntimeException e) {
        throw JdbcErrors.unwrap(e, "Cannot set transaction isolation " + level);
      }
    }

    @Override public void commit() throws SQLException {
      try {
        super.commit();
      } catch (RuntimeException e) {
        throw JdbcErrors.unwrap(e, "Cannot commit");
      }
    }

    @Override public void rollback() throws SQLException {
      try {
        super.rollback();
      } catch (RuntimeException e) {
        throw JdbcErrors.unwrap(e, "Cannot roll back");
      }
    }
  }

  /** Statement whose errors keep the engine's SQLSTATE. */
  static final class FreshetStatement extends AvaticaStatement {
    FreshetStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) {
      super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override public boolean execute(String sql) throws SQLException {
      try {
        return super.execute(sql);
      } catch (SQLException e) {
        throw JdbcErrors.unwrap(e, sql);
      }
    }

    @Override public java.sql.ResultSet executeQuery(String sql) throws SQLException {
      try {
        return super.executeQuery(sql);
      } catch (SQLException e) {
        throw JdbcErrors.unwrap(e, sql);
      }
    }

    @Override public long executeLargeUpdate(String sql) throws SQLException {
      try {
        return super.executeLargeUpdate(sql);
      } catch (SQLException e) {
        throw JdbcErrors.unwrap(e, sql);
      }
    }

    @Override public void cancel() throws SQLException {
      super.cancel();
      FreshetMeta.cancel(connection, handle);
    }

    /** The last execution's warnings, e.g. of a view whose state nothing bounds. */
    @Override public java.sql.SQLWarning getWarnings() throws SQLException {
      checkOpen();
      return FreshetMeta.warnings(connection, handle);
    }

    @Override public void clearWarnings() throws SQLException {
      FreshetMeta.clearWarnings(connection, handle);
    }
  }

  /** Prepared statement; LOB and stream parameters are not supported. */
  static final class FreshetPreparedStatement extends AvaticaPreparedStatement {
    FreshetPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
        Meta.Signature signature, int resultSetType, int resultSetConcurrency,
        int resultSetHoldability) throws SQLException {
      super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override public boolean execute() throws SQLException {
      try {
        return super.execute();
      } catch (SQLException e) {
        throw JdbcErrors.unwrap(e, "prepared statement");
      }
    }

    @Override public java.sql.ResultSet executeQuery() throws SQLException {
      try {
        return super.executeQuery();
      } catch (SQLException e) {
        throw JdbcErrors.unwrap(e, "prepared statement");
      }
    }

    @Override public long executeLargeUpdate() throws SQLException {
      try {
        return super.executeLargeUpdate();
      } catch (SQLException e) {
        throw JdbcErrors.unwrap(e, "prepared statement");
      }
    }

    @Override public void cancel() throws SQLException {
      super.cancel();
      FreshetMeta.cancel(connection, handle);
    }

    @Override public java.sql.SQLWarning getWarnings() throws SQLException {
      checkOpen();
      return FreshetMeta.warnings(connection, handle);
    }

    @Override public void clearWarnings() throws SQLException {
      FreshetMeta.clearWarnings(connection, handle);
    }

    private static SQLException unsupported(String what) {
      return Errors.of(SqlState.FEATURE_NOT_SUPPORTED,
          what + " parameters are not supported by Freshet");
    }

    @Override public void setRowId(int i, RowId x) throws SQLException {
      throw unsupported("ROWID");
    }

    @Override public void setNString(int i, String value) throws SQLException {
      setString(i, value);
    }

    @Override public void setNCharacterStream(int i, Reader value, long length)
        throws SQLException {
      throw unsupported("Character stream");
    }

    @Override public void setNClob(int i, NClob value) throws SQLException {
      throw unsupported("NCLOB");
    }

    @Override public void setClob(int i, Reader reader, long length) throws SQLException {
      throw unsupported("CLOB");
    }

    @Override public void setBlob(int i, InputStream inputStream, long length)
        throws SQLException {
      throw unsupported("BLOB");
    }

    @Override public void setNClob(int i, Reader reader, long length) throws SQLException {
      throw unsupported("NCLOB");
    }

    @Override public void setSQLXML(int i, SQLXML xmlObject) throws SQLException {
      throw unsupported("SQLXML");
    }

    @Override public void setAsciiStream(int i, InputStream x, long length) throws SQLException {
      throw unsupported("Stream");
    }

    @Override public void setBinaryStream(int i, InputStream x, long length) throws SQLException {
      throw unsupported("Stream");
    }

    @Override public void setCharacterStream(int i, Reader reader, long length)
        throws SQLException {
      throw unsupported("Character stream");
    }

    @Override public void setAsciiStream(int i, InputStream x) throws SQLException {
      throw unsupported("Stream");
    }

    @Override public void setBinaryStream(int i, InputStream x) throws SQLException {
      throw unsupported("Stream");
    }

    @Override public void setCharacterStream(int i, Reader reader) throws SQLException {
      throw unsupported("Character stream");
    }

    @Override public void setNCharacterStream(int i, Reader value) throws SQLException {
      throw unsupported("Character stream");
    }

    @Override public void setClob(int i, Reader reader) throws SQLException {
      throw unsupported("CLOB");
    }

    @Override public void setBlob(int i, InputStream inputStream) throws SQLException {
      throw unsupported("BLOB");
    }

    @Override public void setNClob(int i, Reader reader) throws SQLException {
      throw unsupported("NCLOB");
    }
  }

  /** Result set whose {@code next()} reports a failed continuous query as its SQLException. */
  static final class FreshetResultSet extends AvaticaResultSet {
    FreshetResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
        throws SQLException {
      super(statement, state, signature, metaData, timeZone, firstFrame);
    }

    @Override public boolean next() throws SQLException {
      try {
        return super.next();
      } catch (RuntimeException e) {
        throw JdbcErrors.unwrap(e, "Cannot read the next row");
      }
    }
  }

  /** Database metadata; the answers that Avatica asks the Meta for come from FreshetMetadata. */
  static final class FreshetDatabaseMetaData extends AvaticaDatabaseMetaData {
    FreshetDatabaseMetaData(AvaticaConnection connection) {
      super(connection);
    }

    /** Avatica says true; a Freshet connection creates streams and INSERTs rows. */
    @Override public boolean isReadOnly() {
      return false;
    }

    // Transactions (see ConnectionSettings): INSERTs only, at READ_COMMITTED; DDL inside a
    // transaction takes effect at once and leaves the pending INSERTs pending.

    @Override public boolean supportsTransactions() {
      return true;
    }

    @Override public boolean supportsTransactionIsolationLevel(int level) {
      return level == ConnectionSettings.ISOLATION;
    }

    @Override public boolean supportsDataManipulationTransactionsOnly() {
      return true;
    }

    @Override public boolean dataDefinitionCausesTransactionCommit() {
      return false;
    }

    // Freshet has no catalogs, so a tool must not qualify names with one.

    @Override public boolean supportsCatalogsInDataManipulation() {
      return false;
    }

    @Override public boolean supportsCatalogsInProcedureCalls() {
      return false;
    }

    @Override public boolean supportsCatalogsInTableDefinitions() {
      return false;
    }

    @Override public boolean supportsCatalogsInIndexDefinitions() {
      return false;
    }

    @Override public boolean supportsCatalogsInPrivilegeDefinitions() {
      return false;
    }
  }
}

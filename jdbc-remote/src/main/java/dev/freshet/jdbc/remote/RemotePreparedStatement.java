package dev.freshet.jdbc.remote;

import java.io.InputStream;
import java.io.Reader;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.Meta;

/**
 * Prepared statement of {@link FreshetRemoteDriver}. Avatica leaves the JDBC 4 setters abstract
 * (its own implementation is not public); each hands its value to Avatica's parameter site, which
 * sends what the protocol can carry and refuses the rest, as the stock client does. Errors carry
 * the server's message and SQLSTATE.
 */
final class RemotePreparedStatement extends AvaticaPreparedStatement {
  RemotePreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
      Meta.Signature signature, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  @Override public boolean execute() throws SQLException {
    try {
      return super.execute();
    } catch (SQLException e) {
      throw RemoteErrors.statementFailed(e);
    }
  }

  @Override public ResultSet executeQuery() throws SQLException {
    try {
      return super.executeQuery();
    } catch (SQLException e) {
      throw RemoteErrors.statementFailed(e);
    }
  }

  @Override public long executeLargeUpdate() throws SQLException {
    try {
      return super.executeLargeUpdate();
    } catch (SQLException e) {
      throw RemoteErrors.statementFailed(e);
    }
  }

  @Override public void setRowId(int i, RowId x) throws SQLException {
    getSite(i).setRowId(x);
  }

  @Override public void setNString(int i, String value) throws SQLException {
    getSite(i).setNString(value);
  }

  @Override public void setNCharacterStream(int i, Reader value, long length)
      throws SQLException {
    getSite(i).setNCharacterStream(value, length);
  }

  @Override public void setNClob(int i, NClob value) throws SQLException {
    getSite(i).setNClob(value);
  }

  @Override public void setClob(int i, Reader reader, long length) throws SQLException {
    getSite(i).setClob(reader, length);
  }

  @Override public void setBlob(int i, InputStream inputStream, long length)
      throws SQLException {
    getSite(i).setBlob(inputStream, length);
  }

  @Override public void setNClob(int i, Reader reader, long length) throws SQLException {
    getSite(i).setNClob(reader, length);
  }

  @Override public void setSQLXML(int i, SQLXML xmlObject) throws SQLException {
    getSite(i).setSQLXML(xmlObject);
  }

  @Override public void setAsciiStream(int i, InputStream x, long length) throws SQLException {
    getSite(i).setAsciiStream(x, length);
  }

  @Override public void setBinaryStream(int i, InputStream x, long length) throws SQLException {
    getSite(i).setBinaryStream(x, length);
  }

  @Override public void setCharacterStream(int i, Reader reader, long length)
      throws SQLException {
    getSite(i).setCharacterStream(reader, length);
  }

  @Override public void setAsciiStream(int i, InputStream x) throws SQLException {
    getSite(i).setAsciiStream(x);
  }

  @Override public void setBinaryStream(int i, InputStream x) throws SQLException {
    getSite(i).setBinaryStream(x);
  }

  @Override public void setCharacterStream(int i, Reader reader) throws SQLException {
    getSite(i).setCharacterStream(reader);
  }

  @Override public void setNCharacterStream(int i, Reader value) throws SQLException {
    getSite(i).setNCharacterStream(value);
  }

  @Override public void setClob(int i, Reader reader) throws SQLException {
    getSite(i).setClob(reader);
  }

  @Override public void setBlob(int i, InputStream inputStream) throws SQLException {
    getSite(i).setBlob(inputStream);
  }

  @Override public void setNClob(int i, Reader reader) throws SQLException {
    getSite(i).setNClob(reader);
  }
}

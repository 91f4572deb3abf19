package dev.freshet.jdbc.remote;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.remote.Driver;

/**
 * JDBC driver for a Freshet server: {@code jdbc:freshet:remote:url=http://host:8765}.
 *
 * <pre>{@code
 * Connection c = DriverManager.getConnection(
 *     "jdbc:freshet:remote:url=http://db.example.com:8765", "alice", "secret");
 * ResultSet rs = c.createStatement().executeQuery(
 *     "SELECT STREAM user_id, COUNT(*) FROM clicks GROUP BY user_id EMIT UPDATE");
 * while (rs.next()) { ... }   // each changed row as soon as the server has it
 * }</pre>
 *
 * <p>It is Avatica's remote driver speaking protobuf over HTTP, with three differences:
 * <ul>
 * <li>{@code ResultSet.next()} returns a row as soon as it arrives. Avatica's stock client
 *     returns a row only once the one after it (or the end) has been fetched, so a push query's
 *     rows would lag one row behind.
 * <li>{@code user} and {@code password} (in the URL, the {@code Properties} or
 *     {@code getConnection(url, user, password)}) are the HTTP credentials, sent with BASIC
 *     authentication unless {@code authentication=DIGEST}; they are not forwarded to the server
 *     as connection properties.
 * <li>Errors are {@link SQLException}s with the server's SQLSTATE; a refused login is 28000
 *     (the message names HTTP 401 or 403).
 * </ul>
 * Every other Avatica client property works as documented for Avatica (e.g. {@code truststore},
 * {@code truststore_password} for {@code https}, {@code fetch_size}).
 */
public class FreshetRemoteDriver extends Driver {
  /** Prefix of the URLs this driver accepts. */
  public static final String CONNECT_STRING_PREFIX = "jdbc:freshet:remote:";

  static {
    new FreshetRemoteDriver().register();
  }

  public FreshetRemoteDriver() {
  }

  @Override protected String getConnectStringPrefix() {
    return CONNECT_STRING_PREFIX;
  }

  @Override protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return RemoteJdbcFactory.class.getName();
  }

  @Override protected DriverVersion createDriverVersion() {
    return new DriverVersion("Freshet Remote JDBC Driver", "0.1.0", "Freshet", "0.1.0", true, 0,
        1, 0, 1);
  }

  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    RemoteConnectionProperties properties = RemoteConnectionProperties.parse(
        url.substring(CONNECT_STRING_PREFIX.length()), info == null ? new Properties() : info);
    try {
      return super.connect(properties.redactedUrl(), properties.properties());
    } catch (RuntimeException e) {
      // Avatica lets the HTTP client's unchecked exception out of connect.
      throw RemoteErrors.cannotConnect(properties.serverUrl(), e);
    }
  }
}

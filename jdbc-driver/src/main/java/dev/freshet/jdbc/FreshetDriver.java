package dev.freshet.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * JDBC driver that runs a Freshet engine inside the caller's JVM: {@code jdbc:freshet:}.
 *
 * <pre>{@code
 * Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=/var/lib/freshet");
 * }</pre>
 *
 * <p>Connections with the same {@code dataDir} (or, without one, the same {@code engine} name,
 * default {@code default}) share one engine, so one connection's INSERTs reach another's queries.
 * URLs of the remote driver, {@code jdbc:freshet:remote:}, are not accepted here.
 */
public class FreshetDriver extends UnregisteredDriver {
  /** Prefix of the URLs this driver accepts. */
  public static final String CONNECT_STRING_PREFIX = "jdbc:freshet:";

  private static final String REMOTE_PREFIX = CONNECT_STRING_PREFIX + "remote:";

  static {
    new FreshetDriver().register();
  }

  /** The engines of this JVM, shared by all connections this driver opens. */
  private final EngineRegistry engines = EngineRegistry.INSTANCE;

  public FreshetDriver() {
  }

  @Override protected String getConnectStringPrefix() {
    return CONNECT_STRING_PREFIX;
  }

  @Override public boolean acceptsURL(String url) {
    return url != null && url.startsWith(CONNECT_STRING_PREFIX) && !url.startsWith(REMOTE_PREFIX);
  }

  @Override protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return FreshetJdbcFactory.class.getName();
  }

  @Override protected DriverVersion createDriverVersion() {
    return new DriverVersion("Freshet JDBC Driver", "0.1.0", "Freshet", "0.1.0", true, 0, 1, 0,
        1);
  }

  @Override public Meta createMeta(AvaticaConnection connection) {
    return new FreshetMeta(connection, engines::resolve);
  }

  @Override public Connection connect(String url, Properties info) throws SQLException {
    AvaticaConnection connection = (AvaticaConnection) super.connect(url, info);
    if (connection == null) {
      return null;
    }
    try {
      // Hands the connection's properties to the Meta, which resolves the engine from them.
      connection.openConnection();
    } catch (RuntimeException e) {
      connection.close();
      throw JdbcErrors.unwrap(e, "Cannot connect to " + url);
    }
    return connection;
  }
}

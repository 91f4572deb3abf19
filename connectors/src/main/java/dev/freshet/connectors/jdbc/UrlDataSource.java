package dev.freshet.connectors.jdbc;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.security.UrlRedaction;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The connections of a JDBC URL, with a user and password, for a HikariCP pool that must not
 * show them: HikariCP logs its configuration at DEBUG, a URL as it is (its
 * {@code PASSWORD=} too), and this data source as {@link #toString}, which hides them.
 *
 * <pre>{@code
 * HikariConfig config = new HikariConfig();
 * config.setDataSource(new UrlDataSource(url, Optional.of("app"), Optional.of(password)));
 * }</pre>
 */
public final class UrlDataSource implements DataSource {
  private final String url;
  private final Optional<String> user;
  private final Optional<String> password;
  private volatile int loginTimeoutSeconds;

  /**
   * A data source of {@code url}, connecting as {@code user} with {@code password} if given
   * (else as the URL or the driver says).
   */
  public UrlDataSource(String url, Optional<String> user, Optional<String> password) {
    this.url = requireNonNull(url, "url");
    this.user = requireNonNull(user, "user");
    this.password = requireNonNull(password, "password");
  }

  @Override public Connection getConnection() throws SQLException {
    return connect(user, password);
  }

  @Override public Connection getConnection(String username, String password)
      throws SQLException {
    return connect(Optional.ofNullable(username), Optional.ofNullable(password));
  }

  private Connection connect(Optional<String> as, Optional<String> with) throws SQLException {
    Properties properties = new Properties();
    as.ifPresent(u -> properties.setProperty("user", u));
    with.ifPresent(p -> properties.setProperty("password", p));
    return DriverManager.getConnection(url, properties);
  }

  @Override public PrintWriter getLogWriter() {
    return null;
  }

  @Override public void setLogWriter(PrintWriter out) {
    // Drivers log through their own loggers; nothing to write here.
  }

  /** Kept for who asks; each driver applies its own connect timeout (HikariCP sets one). */
  @Override public void setLoginTimeout(int seconds) {
    loginTimeoutSeconds = seconds;
  }

  @Override public int getLoginTimeout() {
    return loginTimeoutSeconds;
  }

  @Override public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("UrlDataSource logs nothing");
  }

  @Override public <T> T unwrap(Class<T> type) throws SQLException {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new SQLException("UrlDataSource is not a " + type.getName());
  }

  @Override public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }

  /** The URL without its passwords ({@link UrlRedaction#url}), and the user. */
  @Override public String toString() {
    return "UrlDataSource[" + UrlRedaction.url(url) + user.map(u -> ", user " + u).orElse("") + "]";
  }
}

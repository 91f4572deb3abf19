package dev.freshet.jdbc.remote;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.ConnectStringParser;

/**
 * The connection properties of a {@code jdbc:freshet:remote:} URL, turned into Avatica's: JDBC's
 * {@code user} and {@code password} become Avatica's HTTP credentials, authentication defaults to
 * BASIC when a user is given, and serialization to PROTOBUF, which is what a Freshet server speaks.
 *
 * <pre>{@code
 * RemoteConnectionProperties p = RemoteConnectionProperties.parse(
 *     "url=http://db:8765;user=alice;password=secret", new Properties());
 * p.serverUrl();   // http://db:8765
 * }</pre>
 *
 * <p>It also tells the server that this driver long-polls push results ({@value #LONG_POLL}), so
 * that the server answers a fetch with no row with an empty frame, not with the PROGRESS row it
 * sends Avatica's stock client, which cannot wait for rows ({@code FreshetMeta.LONG_POLL}).
 *
 * <p>Credentials stay on the client: they are removed from the properties that Avatica forwards to
 * the server when it opens the connection, and never appear in a message.
 */
final class RemoteConnectionProperties {
  /** Properties whose values are secrets: no message may show them. */
  private static final Set<String> SECRETS = Set.of("password", "avatica_password",
      "truststore_password", "keystore_password", "key_password");

  /**
   * Sent to the server with the connection's properties: this driver reads push results without
   * look-ahead ({@link FrameRowIterable}) and fetches again after an empty frame.
   */
  static final String LONG_POLL = "freshet_long_poll";

  /** The {@code user:password@} of {@code http://user:password@host}. */
  private static final Pattern USER_INFO = Pattern.compile("//[^/@]*@");

  private final Properties properties;
  private final String serverUrl;

  private RemoteConnectionProperties(Properties properties, String serverUrl) {
    this.properties = properties;
    this.serverUrl = serverUrl;
  }

  /**
   * Parses the part of a URL after {@code jdbc:freshet:remote:} together with the properties the
   * caller passed (the URL's values win, as with any Avatica driver).
   *
   * @throws SQLException (08001) if the URL is malformed or names no server
   */
  static RemoteConnectionProperties parse(String urlSuffix, Properties info)
      throws SQLException {
    Properties p;
    try {
      p = ConnectStringParser.parse(urlSuffix, info);
    } catch (SQLException e) {
      // The parser's message quotes the URL, which may hold a password: say where, not what.
      throw new SQLException("Malformed jdbc:freshet:remote: URL (its values are not shown, as"
          + " they may hold a password): write key=value pairs separated by ';', quoting a value"
          + " that contains ';' with '...', e.g. jdbc:freshet:remote:url=http://localhost:8765",
          ClientSqlState.UNABLE_TO_CONNECT.code());
    }
    Properties avatica = new Properties();
    avatica.putAll(p);
    String url = avatica.getProperty("url");
    if (url == null || url.isBlank()) {
      throw new SQLException("jdbc:freshet:remote: needs the server's address, e.g."
          + " jdbc:freshet:remote:url=http://localhost:8765",
          ClientSqlState.UNABLE_TO_CONNECT.code());
    }
    moveIfAbsent(avatica, "user", "avatica_user");
    moveIfAbsent(avatica, "password", "avatica_password");
    String authentication = avatica.getProperty("authentication");
    if (authentication != null) {
      avatica.setProperty("authentication", authentication.toUpperCase(Locale.ROOT));
    } else if (avatica.getProperty("avatica_user") != null) {
      avatica.setProperty("authentication", "BASIC");
    }
    if (avatica.getProperty("serialization") == null) {
      avatica.setProperty("serialization", "PROTOBUF");
    }
    avatica.setProperty(LONG_POLL, "true");
    if (avatica.getProperty("httpclient_factory") == null) {
      // Its own connection pool: Avatica's 25 connections per server would be taken by push
      // results waiting for rows, and every other statement of the JVM would wait.
      avatica.setProperty("httpclient_factory", PushHttpClientFactory.class.getName());
    }
    return new RemoteConnectionProperties(avatica, url);
  }

  /**
   * Renames JDBC's standard key to Avatica's, unless the Avatica one is set; the JDBC key is
   * removed either way, because Avatica sends unknown keys to the server in clear.
   */
  private static void moveIfAbsent(Properties p, String jdbcKey, String avaticaKey) {
    Object value = p.remove(jdbcKey);
    if (value != null && p.getProperty(avaticaKey) == null) {
      p.setProperty(avaticaKey, value.toString());
    }
  }

  /** The properties for Avatica's remote driver. */
  Properties properties() {
    return properties;
  }

  /**
   * The server's address for messages, e.g. {@code http://localhost:8765}, without user
   * information ({@code http://user:password@host}) should the URL hold any.
   */
  String serverUrl() {
    return withoutUserInfo(serverUrl);
  }

  /** A URL for the connection that names the server and holds no secret. */
  String redactedUrl() {
    Properties shown = new Properties();
    for (String key : properties.stringPropertyNames()) {
      if (!SECRETS.contains(key.toLowerCase(Locale.ROOT))) {
        shown.setProperty(key, properties.getProperty(key));
      }
    }
    shown.setProperty("url", serverUrl());
    return FreshetRemoteDriver.CONNECT_STRING_PREFIX + ConnectStringParser.getParamString(shown);
  }

  private static String withoutUserInfo(String url) {
    return USER_INFO.matcher(url).replaceFirst("//");
  }
}

package dev.freshet.engine.security;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rule of a {@code jdbc:postgresql:} URL on a server: only the parameters of pgjdbc's
 * {@code PGProperty} that tune the connection pass. Refused are those that name a class for the
 * driver to load ({@code socketFactory}, {@code sslfactory}, {@code sslhostnameverifier},
 * {@code sslpasswordcallback}, {@code authenticationPluginClassName}, {@code xmlFactoryFactory}),
 * a file to read or write ({@code sslcert}, {@code sslkey}, {@code sslrootcert},
 * {@code loggerFile}, {@code service}, which reads {@code pg_service.conf}), the server's own
 * login ({@code jaasLogin}, {@code gsslib}, {@code kerberosServerName}, ...), server settings
 * ({@code options}), and every parameter pgjdbc may add later.
 *
 * <pre>{@code
 * PostgresUrlRule.check("Sink OUT", "jdbc:postgresql://db/app?sslmode=verify-full");   // allowed
 * PostgresUrlRule.check("Sink OUT", "jdbc:postgresql://db/app?socketFactory=x.Y");    // 42501
 * }</pre>
 *
 * <p>Names are compared ignoring case, so that no spelling of a refused name passes; a name
 * with {@code %} is refused, whatever it would decode to, since no allowed name has one. The
 * password belongs in the {@code 'password'} option, not the URL, where every user who may see
 * the statement would read it.
 */
final class PostgresUrlRule {
  /** The parameters that pass, as pgjdbc spells them. */
  static final List<String> ALLOWED = List.of("ApplicationName", "assumeMinServerVersion",
      "autosave", "binaryTransfer", "cancelSignalTimeout", "cleanupSavepoints",
      "connectTimeout", "currentSchema", "defaultRowFetchSize", "hostRecheckSeconds",
      "loadBalanceHosts", "loginTimeout", "logServerErrorDetail", "preferQueryMode",
      "prepareThreshold", "preparedStatementCacheQueries", "preparedStatementCacheSizeMiB",
      "readOnly", "readOnlyMode", "receiveBufferSize", "reWriteBatchedInserts",
      "sendBufferSize", "socketTimeout", "ssl", "sslmode", "sslResponseTimeout", "stringtype",
      "targetServerType", "tcpKeepAlive", "tcpNoDelay", "user");
  private static final Set<String> ALLOWED_LOWER = ALLOWED.stream()
      .map(name -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());

  private PostgresUrlRule() {
  }

  /**
   * Passes a {@code jdbc:postgresql:} URL whose parameters all tune the connection.
   *
   * @throws SQLException 42501 naming the first parameter that is refused
   */
  static void check(String object, String url) throws SQLException {
    if (url.indexOf(';') >= 0) {
      // pgjdbc reads no ';' settings: one here is meant for another driver, or to mislead.
      throw JdbcUrlRule.refused(object, "its 'url' has ';', which a jdbc:postgresql: URL does"
          + " not use", "Give parameters as ?name=value&name=value");
    }
    int query = url.indexOf('?');
    if (query < 0) {
      return;
    }
    for (String token : url.substring(query + 1).split("&", -1)) {
      if (token.isEmpty()) {
        continue;
      }
      int equals = token.indexOf('=');
      // A name without '=' is set to "" by pgjdbc: '?ssl' turns SSL on.
      String name = equals < 0 ? token : token.substring(0, equals);
      if (!ALLOWED_LOWER.contains(name.toLowerCase(Locale.ROOT))) {
        throw JdbcUrlRule.refused(object, "its 'url' has parameter '" + name + "', which this"
            + " server does not pass to PostgreSQL's driver (it could make the driver load a"
            + " class, read a file, or log in as the server). Allowed: "
            + String.join(", ", ALLOWED), name.equalsIgnoreCase("password")
                ? "Give the password in option 'password'" : "Leave it out");
      }
    }
  }
}

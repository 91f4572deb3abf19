package dev.freshet.engine.security;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the engine's connectors may reach outside the engine: which directories the
 * {@code filesystem} connector reads, which JDBC URLs tables and sinks open, which Kafka client
 * properties pass on. The operator sets it; no SQL statement can widen it.
 *
 * <pre>{@code
 * ConnectorPolicy.unrestricted();   // the embedded driver: its process's own
 * ConnectorPolicy policy = ConnectorPolicy.restricted(List.of(Path.of("/srv/data")));
 *     // freshet serve --allow-file-root /srv/data
 *
 * policy.fileDirectory("Stream ORDERS", Path.of("/srv/data/orders"));   // before it is read
 * policy.checkJdbcUrl("Table CUSTOMERS", "jdbc:postgresql://db/shop");  // before connecting
 * policy.checkKafkaProperties("Sink OUT", Map.of("security.protocol", "SASL_SSL"));
 * }</pre>
 *
 * <p>A restricted policy checks before anything is connected or read, and again when a
 * restarted engine declares its streams, tables and sinks anew, so that a directory the
 * operator no longer allows is not read again. Each check is a rule of its own:
 * {@link FileRootRule}, {@link JdbcUrlRule} ({@link PostgresUrlRule}, {@link H2UrlRule}),
 * {@link KafkaPropertyRule} ({@link JaasConfigRule}). Refusals are SQLSTATE {@code 42501}.
 *
 * @param trusted whether every statement is the process's own (an embedded engine), so nothing is
 *     restricted beyond what the process may do anyway
 * @param fileRoots the directories below which the {@code filesystem} connector may read, when
 *     not trusted; none by default
 */
public record ConnectorPolicy(boolean trusted, List<Path> fileRoots) {
  public ConnectorPolicy {
    fileRoots = fileRoots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
  }

  /** An embedded engine's: everything its process may do. */
  public static ConnectorPolicy unrestricted() {
    return new ConnectorPolicy(true, List.of());
  }

  /** A server's: files only below {@code fileRoots}, JDBC and Kafka only in the safe forms. */
  public static ConnectorPolicy restricted(List<Path> fileRoots) {
    return new ConnectorPolicy(false, fileRoots);
  }

  /**
   * The directory {@code object} reads for {@code directory}: as it is if trusted; otherwise
   * its real path, which must be below one of {@link #fileRoots}.
   *
   * @param object what reads, as messages name it, e.g. {@code Stream ORDERS}
   * @param directory an absolute path
   * @throws SQLException 42501 naming the path and {@code --allow-file-root}
   */
  public Path fileDirectory(String object, Path directory) throws SQLException {
    return trusted ? directory : new FileRootRule(fileRoots).check(object, directory);
  }

  /**
   * Passes a JDBC URL that {@code object} may connect to.
   *
   * @throws SQLException 42501 naming what in the URL is refused and what is allowed
   */
  public void checkJdbcUrl(String object, String url) throws SQLException {
    if (!trusted) {
      JdbcUrlRule.check(object, url);
    }
  }

  /**
   * The password to connect with: {@code password} if given; if not, on a restricted engine, an
   * empty one, since without one PostgreSQL's driver would look in the server's own
   * {@code ~/.pgpass} for a password of the host and user that the statement names.
   */
  public Optional<String> jdbcPassword(Optional<String> password) {
    return trusted || password.isPresent() ? password : Optional.of("");
  }

  /**
   * Passes Kafka client properties that {@code object} may set.
   *
   * @param properties without the {@code properties.} prefix
   * @throws SQLException 42501 naming the property refused and those allowed
   */
  public void checkKafkaProperties(String object, Map<String, String> properties)
      throws SQLException {
    if (!trusted) {
      KafkaPropertyRule.check(object, properties);
    }
  }
}

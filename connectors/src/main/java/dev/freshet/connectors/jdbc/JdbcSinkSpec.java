package dev.freshet.connectors.jdbc;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.security.UrlRedaction;
import dev.freshet.connectors.sink.SinkSpec;
import java.util.Optional;

/**
 * Where a JDBC sink writes: {@code WITH (connector = 'jdbc', 'url' = ..., 'table-name' = ...,
 * 'username' = ..., 'password' = ...)}, Flink SQL's option names.
 *
 * <pre>{@code
 * new JdbcSinkSpec("jdbc:postgresql://db/app", "totals", Optional.of("app"), Optional.of("s"));
 * }</pre>
 *
 * @param url the database's JDBC URL
 * @param table the table to write, created if missing
 * @param username the user, if the URL does not say
 * @param password the password, if any
 */
public record JdbcSinkSpec(String url, String table, Optional<String> username,
    Optional<String> password) implements SinkSpec {
  public JdbcSinkSpec {
    requireNonNull(url, "url");
    requireNonNull(table, "table");
    requireNonNull(username, "username");
    requireNonNull(password, "password");
  }

  @Override public String connector() {
    return "jdbc";
  }

  @Override public String target() {
    return table;
  }

  /** Without the password, and with the URL's hidden: a spec may end up in a message. */
  @Override public String toString() {
    return "JdbcSinkSpec[url=" + UrlRedaction.url(url) + ", table=" + table + ", username="
        + username + ", password=" + password.map(p -> UrlRedaction.HIDDEN) + "]";
  }
}

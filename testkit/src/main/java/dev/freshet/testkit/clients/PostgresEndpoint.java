package dev.freshet.testkit.clients;

import java.util.Objects;

/**
 * Where a PostgreSQL client connects: a real PostgreSQL or Freshet's endpoint. Hands the same
 * settings to every kind of client, as libpq's environment variables (which psql, psycopg,
 * psycopg2 and node-postgres all read) or as a pgjdbc URL.
 *
 * <pre>{@code
 * PostgresEndpoint freshet = PostgresEndpoint.local(port, "freshet", "alice", "secret");
 * freshet.applyTo(ExternalClient.of(PostgresClients.psql().toString(), "-X", "-c", "\\dt"))
 *     .run().requireSuccess();
 * DriverManager.getConnection(freshet.jdbcUrl(), freshet.user(), freshet.password());
 * }</pre>
 *
 * @param host the host name or address
 * @param port the port
 * @param database the database, {@code freshet} on Freshet's endpoint
 * @param user the user
 * @param password the password (any, where the server does not check it)
 * @param sslMode libpq's {@code sslmode}: {@code disable}, {@code require}, {@code verify-full}...
 */
public record PostgresEndpoint(String host, int port, String database, String user,
    String password, String sslMode) {

  public PostgresEndpoint {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(sslMode, "sslMode");
  }

  /** An endpoint on 127.0.0.1 without TLS. */
  public static PostgresEndpoint local(int port, String database, String user, String password) {
    return new PostgresEndpoint("127.0.0.1", port, database, user, password, "disable");
  }

  /**
   * Sets libpq's variables on the client ({@code PGHOST}, {@code PGPORT}, {@code PGDATABASE},
   * {@code PGUSER}, {@code PGPASSWORD}, {@code PGSSLMODE}).
   */
  public ExternalClient applyTo(ExternalClient client) {
    return client.env("PGHOST", host).env("PGPORT", Integer.toString(port))
        .env("PGDATABASE", database).env("PGUSER", user).env("PGPASSWORD", password)
        .env("PGSSLMODE", sslMode);
  }

  /** pgjdbc's URL, e.g. {@code jdbc:postgresql://127.0.0.1:5433/freshet?sslmode=disable}. */
  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database + "?sslmode=" + sslMode;
  }
}

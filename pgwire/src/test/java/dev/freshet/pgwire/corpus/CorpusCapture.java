package dev.freshet.pgwire.corpus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.testkit.clients.ClientResult;
import dev.freshet.testkit.clients.ExternalClient;
import dev.freshet.testkit.clients.PostgresClients;
import dev.freshet.testkit.clients.PostgresEndpoint;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regenerates the statement corpus: runs each real client's catalog actions against a real
 * PostgreSQL 15 that logs every statement, and writes what each client sent to
 * {@code src/test/resources/corpus/<client>.jsonl}. Not a test of Freshet, and never run by
 * {@code mvn verify} (its name matches no test pattern, and it needs the system property):
 *
 * <pre>
 * mvn -B -o test -pl testkit,common,sql-parser,executor,connectors,planner,engine,pgwire \
 *     -Dtest=CorpusCapture -Dfreshet.captureCorpus=true -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>The database is {@code freshet}, schema {@code public}, with what a Freshet catalog holds:
 * a stream-like table {@code clicks} (no key), a table {@code users} with a primary key, a
 * materialized view {@code clicks_by_user} grouping {@code clicks} (a unique index on its group
 * key, PostgreSQL's nearest to a view's primary key) and a plain view {@code big_clicks}. The
 * clients need what {@code ./run-tests} installs; the scripts are in {@code src/test/clients/}.
 */
class CorpusCapture {
  static final String SELF = "freshet-corpus-capture";
  private static final Duration CLIENT_DEADLINE = Duration.ofMinutes(2);

  /** psql's catalog commands, each run in one psql session in this order. */
  static final List<String> PSQL_COMMANDS = List.of("\\d", "\\dt", "\\dv", "\\dm", "\\dn", "\\l",
      "\\d clicks", "\\d users", "\\d clicks_by_user", "\\d big_clicks", "\\d+ clicks",
      "\\d+ clicks_by_user", "\\dt+", "\\du", "\\df");

  @TempDir Path work;

  @Test
  @EnabledIfSystemProperty(named = "freshet.captureCorpus", matches = "true")
  void capture() throws Exception {
    Path out = Path.of(System.getProperty("freshet.corpusDir", "src/test/resources/corpus"));
    capture(work, out);
  }

  /**
   * Starts PostgreSQL, runs every client, reads its log and writes the statements by client;
   * then replays every corpus file there, the ones read from source too, against the same
   * server, which must run each statement.
   */
  static void capture(Path work, Path out) throws Exception {
    Path logDir = Files.createDirectories(work.resolve("log"));
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
        .setDataDirectory(work.resolve("data"))
        .setCleanDataDirectory(true)
        // log_statement = all logs each Query message and each Execute with its parameters,
        // once; log_min_duration_statement = 0 would log them a second time, with Parse and
        // Bind too. jsonlog keeps a multi-line statement in one entry with its session's pid
        // and application_name, which tell the clients apart.
        .setServerConfig("log_statement", "all")
        .setServerConfig("log_parameter_max_length", "-1")
        .setServerConfig("logging_collector", "on")
        .setServerConfig("log_destination", "jsonlog")
        .setServerConfig("log_directory", logDir.toString())
        .setServerConfig("log_filename", "statements.log")
        .setServerConfig("log_rotation_age", "0")
        .setServerConfig("log_rotation_size", "0")
        .start()) {
      int port = pg.getPort();
      setUp(port);
      psql(port);
      pgjdbc(port);
      python(port, "sqlalchemy-psycopg2", "sqlalchemy_inspect.py");
      python(port, "psycopg", "psycopg_queries.py");
      node(port);
      Path log = logDir.resolve("statements.json");
      List<String> lines = readThrough(port, log);
      Map<String, List<CorpusStatement>> corpus = StatementLog.parse(lines, Set.of(SELF));
      for (String client : Corpus.CAPTURED) {
        List<CorpusStatement> statements = corpus.getOrDefault(client, List.of());
        assertTrue(!statements.isEmpty(), "Nothing captured from " + client);
        Corpus.write(statements, out.resolve(client + ".jsonl"));
        System.out.println(client + ": " + statements.size() + " statements");
      }
      replay(port, out);
    }
  }

  private static void replay(int port, Path out) throws IOException {
    replay(PostgresEndpoint.local(port, "freshet", "postgres", "unused"), out);
  }

  /**
   * Replays every corpus file of a directory with node-postgres (replay_corpus.js) against a
   * server, a real PostgreSQL or Freshet's endpoint; fails on any error.
   *
   * @return what replay_corpus.js printed: per file, the statements that ran and were skipped
   */
  static String replay(PostgresEndpoint endpoint, Path out) throws IOException {
    List<String> command = new ArrayList<>(List.of(PostgresClients.node().toString(),
        script("replay_corpus.js").toString()));
    for (String client : concat(Corpus.CAPTURED, Corpus.FROM_SOURCE)) {
      Path file = out.resolve(client + ".jsonl").toAbsolutePath();
      if (Files.exists(file)) {
        command.add(file.toString());
      }
    }
    ClientResult r = run(ExternalClient.of(command)
        .env("NODE_PATH", PostgresClients.nodeModules().toString()), endpoint, SELF);
    System.out.println("replayed on PostgreSQL: " + r.stdout().strip());
    return r.stdout().strip();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** Creates database {@code freshet} with the corpus' objects (see the class comment). */
  static void setUp(int port) throws SQLException {
    try (Connection admin = connect(port, "postgres", SELF);
         Statement s = admin.createStatement()) {
      s.execute("CREATE DATABASE freshet");
    }
    try (Connection c = connect(port, "freshet", SELF); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE clicks (user_id varchar(64), amount double precision,"
          + " ts timestamp with time zone)");
      s.execute("CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL,"
          + " signed_up date, score numeric(10, 2), active boolean)");
      s.execute("CREATE MATERIALIZED VIEW clicks_by_user AS SELECT user_id, count(*) AS n,"
          + " sum(amount) AS total FROM clicks GROUP BY user_id");
      s.execute("CREATE UNIQUE INDEX clicks_by_user_key ON clicks_by_user (user_id)");
      s.execute("CREATE VIEW big_clicks AS SELECT user_id, amount FROM clicks WHERE amount > 10");
      s.execute("INSERT INTO clicks VALUES ('alice', 1.0, now()), ('alice', 2.5, now()),"
          + " ('bob', 12.25, now())");
      s.execute("INSERT INTO users VALUES (1, 'alice', '2026-01-02', 10.50, true),"
          + " (2, 'bob', NULL, NULL, false), (3, 'carol', '2026-03-04', 0.25, true)");
      s.execute("REFRESH MATERIALIZED VIEW clicks_by_user");
    }
  }

  private static void psql(int port) {
    List<String> command = new ArrayList<>(List.of(PostgresClients.psql().toString(), "-X",
        "-v", "ON_ERROR_STOP=1", "-P", "pager=off"));
    for (String c : PSQL_COMMANDS) {
      command.add("-c");
      command.add("SELECT '" + StatementLog.ACTION_MARKER + c + "'");
      command.add("-c");
      command.add(c);
    }
    run(ExternalClient.of(command), port, "psql");
  }

  private static void python(int port, String client, String script) {
    run(ExternalClient.of(PostgresClients.python().toString(), script(script).toString()), port,
        client);
  }

  private static void node(int port) {
    run(ExternalClient.of(PostgresClients.node().toString(),
            script("node_pg_queries.js").toString())
        .env("NODE_PATH", PostgresClients.nodeModules().toString()), port, "node-postgres");
  }

  private static Path script(String name) {
    return Path.of("src", "test", "clients", name).toAbsolutePath();
  }

  private static ClientResult run(ExternalClient client, int port, String name) {
    return run(client, PostgresEndpoint.local(port, "freshet", "postgres", "unused"), name);
  }

  private static ClientResult run(ExternalClient client, PostgresEndpoint endpoint,
      String name) {
    ClientResult r = endpoint.applyTo(client).env("PGAPPNAME", name)
        .timeout(CLIENT_DEADLINE).run().requireSuccess();
    System.out.println(name + " printed " + r.stdout().length() + " characters");
    return r;
  }

  /** pgjdbc's DatabaseMetaData, as DBeaver, DataGrip and SchemaCrawler read a database. */
  private static void pgjdbc(int port) throws SQLException {
    try (Connection c = connect(port, "freshet", "pgjdbc")) {
      DatabaseMetaData md = c.getMetaData();
      action(c, "getCatalogs");
      drain(md.getCatalogs());
      action(c, "getSchemas");
      drain(md.getSchemas());
      drain(md.getSchemas(null, "public"));
      action(c, "getTableTypes");
      drain(md.getTableTypes());
      action(c, "getTables");
      drain(md.getTables(null, "public", "%", null));
      drain(md.getTables(null, null, "%", new String[] {"TABLE", "VIEW", "MATERIALIZED VIEW"}));
      action(c, "getColumns");
      drain(md.getColumns(null, "public", "clicks", "%"));
      drain(md.getColumns(null, "public", "%", "%"));
      action(c, "getPrimaryKeys");
      drain(md.getPrimaryKeys(null, "public", "users"));
      drain(md.getPrimaryKeys(null, "public", "clicks_by_user"));
      action(c, "getIndexInfo");
      drain(md.getIndexInfo(null, "public", "users", false, true));
      action(c, "getImportedKeys");
      drain(md.getImportedKeys(null, "public", "users"));
      action(c, "getTypeInfo");
      drain(md.getTypeInfo());
      action(c, "prepared");
      // Past prepareThreshold (5) pgjdbc names the statement on the server (S_1) and binds only.
      try (PreparedStatement p = c.prepareStatement("SELECT id, name FROM users WHERE id = ?")) {
        for (int id = 1; id <= 7; id++) {
          p.setInt(1, id);
          drain(p.executeQuery());
        }
      }
      action(c, "prepared text and numeric parameters");
      try (PreparedStatement p = c.prepareStatement(
          "SELECT user_id, amount FROM clicks WHERE user_id = ? AND amount > ?")) {
        p.setString(1, "alice");
        p.setDouble(2, 1.5);
        drain(p.executeQuery());
      }
      action(c, "fetch size");
      // Autocommit off and a fetch size: a portal read 2 rows at a time (PortalSuspended).
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.setFetchSize(2);
        drain(s.executeQuery("SELECT * FROM clicks"));
      }
      c.commit();
      c.setAutoCommit(true);
      action(c, "isValid");
      if (!c.isValid(10)) {
        throw new IllegalStateException("pgjdbc says its connection is not valid");
      }
    }
  }

  private static void action(Connection c, String name) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SELECT '" + StatementLog.ACTION_MARKER + name + "'");
    }
  }

  private static void drain(ResultSet rs) throws SQLException {
    try (rs) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  private static Connection connect(int port, String database, String application)
      throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("ApplicationName", application);
    return DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/" + database, p);
  }

  /**
   * The log's lines once everything the clients sent is in it: the logging collector writes
   * behind the sessions, so a last statement of this program's own is waited for.
   */
  private static List<String> readThrough(int port, Path log) throws Exception {
    String sync = "freshet-corpus-sync:" + UUID.randomUUID();
    try (Connection c = connect(port, "freshet", SELF); Statement s = c.createStatement()) {
      s.execute("SELECT '" + sync + "'");
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      if (Files.exists(log)) {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        if (lines.stream().anyMatch(l -> l.contains(sync))) {
          return lines;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("PostgreSQL's log " + log + " did not show " + sync + " in 60 s");
      }
      Thread.sleep(50);
    }
  }
}

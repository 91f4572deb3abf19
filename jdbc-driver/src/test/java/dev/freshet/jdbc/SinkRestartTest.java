package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.freshet.testkit.ExternalTest;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restart policy end to end: JDBC sinks to a real PostgreSQL that is stopped for 20 s and
 * started again (the same data directory and port, as a restart or a failover looks to a
 * client) restart from their checkpoints with backoff, show {@code RESTARTING} and the attempt
 * in {@code sys.queries} meanwhile, and catch up with no row lost and none written twice, with
 * no one doing anything; a password that stays wrong fails the sink after the attempts its
 * options allow, with PostgreSQL's authentication error. A view whose JDBC table's database is
 * away restarts the same way.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@ExternalTest
class SinkRestartTest {
  /** How long PostgreSQL stays down: the 20 s. */
  private static final Duration OUTAGE = Duration.ofSeconds(20);
  /** Generous: a restart attempt after the outage waits at most 6.4 s (200 ms doubled 5 times). */
  private static final Duration DEADLINE = Duration.ofSeconds(90);

  @TempDir Path pgData;
  @TempDir Path dataDir;
  private EmbeddedPostgres postgres;
  private int port;

  @AfterEach void stopPostgres() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  private void startPostgres() throws Exception {
    if (!java.nio.file.Files.exists(pgData.resolve("postgresql.conf"))) {
      // The first start: a copy of a cluster made once, not an initdb of its own.
      PostgresDataDirectory.copyTo(pgData);
    }
    postgres = EmbeddedPostgres.builder().setDataDirectory(pgData).setCleanDataDirectory(false)
        .setPort(port).start();
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test void shouldCatchUpExactlyOnceAfterPostgresqlWasDownFor20Seconds() throws Exception {
    port = freePort();
    startPostgres();
    String url = "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement();
         Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      s.execute("CREATE STREAM events (id BIGINT NOT NULL, k VARCHAR, v INTEGER)");
      oracle.execute("CREATE TABLE events (id BIGINT, k VARCHAR, v INT)");
      String restart = ", 'restart.max-attempts' = '20', 'restart.backoff' = '200 ms')";
      s.execute("CREATE SINK totals_pg AS SELECT k, COUNT(*) AS n, SUM(v) AS total FROM events"
          + " GROUP BY k WITH (connector = 'jdbc', 'url' = '" + url + "', 'table-name' ="
          + " 'totals'" + restart);
      s.execute("CREATE SINK events_pg AS SELECT id, k, v FROM events WITH (connector = 'jdbc',"
          + " 'url' = '" + url + "', 'table-name' = 'all_events'" + restart);
      int next = insert(s, oracle, 0, 40);
      awaitCaughtUp(oracle);

      postgres.close();
      postgres = null;
      long down = System.nanoTime();
      // Rows keep coming while PostgreSQL is away; both sinks wait for it, restarting.
      Map<String, Integer> attempts = new TreeMap<>();
      int rounds = 0;
      while (System.nanoTime() - down < OUTAGE.toNanos()) {
        if (rounds < 5 && System.nanoTime() - down > rounds * OUTAGE.toNanos() / 5) {
          next = insert(s, oracle, next, 25);
          rounds++;
        }
        for (List<Object> row : ViewResults.query(s, "SELECT name, status, restart_attempt"
            + " FROM sys.queries WHERE status = 'RESTARTING'")) {
          attempts.merge((String) row.get(0), ((Number) row.get(2)).intValue(), Math::max);
        }
        // Far more often than the attempts (200 ms apart and more) change.
        ViewResults.betweenPolls();
      }
      assertEquals(5, rounds);
      assertEquals(List.of("EVENTS_PG", "TOTALS_PG"), new ArrayList<>(attempts.keySet()),
          "both sinks showed RESTARTING while PostgreSQL was down: " + attempts);
      for (int attempt : attempts.values()) {
        assertTrue(attempt >= 3, "attempts while down: " + attempts);
      }

      startPostgres();
      next = insert(s, oracle, next, 40);
      awaitCaughtUp(oracle);
      // Every batch each sink's query committed is the one PostgreSQL recorded last for it.
      try (Connection pg = DriverManager.getConnection(url); Statement p = pg.createStatement()) {
        List<List<Object>> queries = ViewResults.normalized(ViewResults.query(s,
            "SELECT name, query_id, last_batch_id, status, restart_attempt FROM sys.queries"
            + " ORDER BY name"));
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object> q : queries) {
          assertEquals(List.of("ACTIVE", 0L), q.subList(3, 5), "after the catch-up: " + q);
          expected.add(q.subList(0, 3));
        }
        assertEquals(expected, ViewResults.normalized(ViewResults.query(p, "SELECT"
            + " UPPER(sink_name), query_id, batch_id FROM freshet_sink_batches ORDER BY 1")));
      }
      List<List<Object>> restarts = ViewResults.query(s, "SELECT restarts, last_error"
          + " FROM sys.queries");
      for (List<Object> row : restarts) {
        assertTrue(((Number) row.get(0)).longValue() >= 3, "restarts: " + restarts);
        assertTrue(row.get(1) != null, "the error it recovered from: " + restarts);
      }
      assertEquals(40 + 5 * 25 + 40, next);
    }
  }

  @Test void shouldFailAfterTheAttemptsWhenThePasswordStaysWrong() throws Exception {
    port = freePort();
    startPostgres();
    try (Connection admin = DriverManager.getConnection(postgres.getJdbcUrl("postgres",
        "postgres")); Statement a = admin.createStatement()) {
      a.execute("CREATE ROLE writer LOGIN PASSWORD 'right'");
      a.execute("GRANT ALL ON SCHEMA public TO writer");
    }
    // Passwords are checked: zonky's server trusts local connections by default.
    List<String> hba = List.of("host all postgres 127.0.0.1/32 trust",
        "host all postgres ::1/128 trust", "host all all 127.0.0.1/32 scram-sha-256",
        "host all all ::1/128 scram-sha-256");
    java.nio.file.Files.write(pgData.resolve("pg_hba.conf"), hba);
    try (Connection admin = DriverManager.getConnection(postgres.getJdbcUrl("postgres",
        "postgres")); Statement a = admin.createStatement()) {
      a.execute("SELECT pg_reload_conf()");
    }
    String url = "jdbc:postgresql://localhost:" + port + "/postgres";
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM events (id BIGINT NOT NULL, k VARCHAR, v INTEGER)");
      s.execute("CREATE SINK events_pg AS SELECT id, k FROM events WITH (connector = 'jdbc',"
          + " 'url' = '" + url + "', 'username' = 'writer', 'password' = 'right',"
          + " 'table-name' = 'out', 'restart.max-attempts' = '2',"
          + " 'restart.backoff' = '500 ms')");
      s.executeUpdate("INSERT INTO events VALUES (1, 'a', 1)");
      try (Connection pg = DriverManager.getConnection(postgres.getJdbcUrl("postgres",
          "postgres")); Statement p = pg.createStatement()) {
        ViewResults.awaitNormalized(p, "SELECT id, k FROM out", List.of(List.of(1L, "a")));
        // The password changes under the sink and its connections are cut: every reconnect
        // is refused from now on.
        p.execute("ALTER ROLE writer PASSWORD 'changed'");
        p.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            + " WHERE usename = 'writer'");
      }
      s.executeUpdate("INSERT INTO events VALUES (2, 'b', 2)");
      List<Integer> seen = new ArrayList<>();
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      List<Object> row = List.of();
      while (System.nanoTime() < deadline) {
        row = ViewResults.query(s, "SELECT status, restart_attempt, restarts, last_error"
            + " FROM sys.queries WHERE name = 'EVENTS_PG'").get(0);
        int attempt = ((Number) row.get(1)).intValue();
        if (row.get(0).equals("RESTARTING") && !seen.contains(attempt)) {
          seen.add(attempt);
        }
        if (row.get(0).equals("FAILED")) {
          break;
        }
        ViewResults.betweenPolls();
      }
      assertEquals("FAILED", row.get(0), "status: " + row);
      assertEquals(2, ((Number) row.get(1)).intValue(), "attempts: " + row);
      assertEquals(2L, ((Number) row.get(2)).longValue(), "restarts: " + row);
      assertTrue(!seen.isEmpty() && List.of(1, 2).containsAll(seen),
          "RESTARTING with its attempt was visible: " + seen);
      String error = (String) row.get(3);
      assertTrue(error.startsWith("28P01: JdbcSink[out] cannot connect again: FATAL: password"
          + " authentication failed for user \"writer\""), error);
    }
  }

  @Test void shouldRestartAViewWhenTheDatabaseOfItsJdbcTableIsAway() throws Exception {
    port = freePort();
    startPostgres();
    String admin = "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    try (Connection pg = DriverManager.getConnection(admin); Statement p = pg.createStatement()) {
      p.execute("CREATE TABLE customers (id BIGINT PRIMARY KEY, tier VARCHAR(10))");
      p.execute("INSERT INTO customers VALUES (1, 'silver'), (2, 'gold'), (3, 'gold')");
    }
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement();
         Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      s.execute("CREATE TABLE customers (id BIGINT, tier VARCHAR(10)) WITH (connector = 'jdbc',"
          + " 'url' = 'jdbc:postgresql://localhost:" + port + "/postgres', 'table-name' ="
          + " 'customers', 'username' = 'postgres')");
      oracle.execute("CREATE TABLE customers (id BIGINT, tier VARCHAR(10))");
      oracle.execute("INSERT INTO customers VALUES (1, 'silver'), (2, 'gold'), (3, 'gold')");
      s.execute("CREATE STREAM events (id BIGINT NOT NULL, k VARCHAR, v INTEGER)");
      oracle.execute("CREATE TABLE events (id BIGINT, k VARCHAR, v INT)");
      s.execute("CREATE MATERIALIZED VIEW per_tier WITH ('restart.backoff' = '200 ms') AS"
          + " SELECT c.tier, COUNT(*) AS n, SUM(e.v) AS total FROM events e JOIN customers c"
          + " ON MOD(e.id, 4) = c.id GROUP BY c.tier");
      String oracleSql = "SELECT c.tier, COUNT(*), SUM(e.v) FROM events e JOIN customers c"
          + " ON MOD(e.id, 4) = c.id GROUP BY c.tier";
      int next = insert(s, oracle, 0, 30);
      ViewResults.awaitNormalized(s, "SELECT * FROM per_tier",
          ViewResults.normalized(ViewResults.query(oracle, oracleSql)));

      postgres.close();
      postgres = null;
      next = insert(s, oracle, next, 30);
      // The batch cannot read the table: the view's query waits for its database, restarting.
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      List<List<Object>> status = List.of();
      while (System.nanoTime() < deadline) {
        status = ViewResults.query(s, "SELECT status, restart_attempt, last_error"
            + " FROM sys.queries WHERE name = 'PER_TIER'");
        if (status.get(0).get(0).equals("RESTARTING")) {
          break;
        }
        ViewResults.betweenPolls();
      }
      assertEquals("RESTARTING", status.get(0).get(0), "status: " + status);
      assertTrue(((Number) status.get(0).get(1)).intValue() >= 1, "attempt: " + status);
      assertTrue(((String) status.get(0).get(2)).contains("Cannot read table CUSTOMERS"),
          "last error: " + status);

      startPostgres();
      next = insert(s, oracle, next, 30);
      ViewResults.awaitNormalized(s, "SELECT * FROM per_tier",
          ViewResults.normalized(ViewResults.query(oracle, oracleSql)));
      List<Object> after = ViewResults.query(s, "SELECT status, restart_attempt, restarts"
          + " FROM sys.queries WHERE name = 'PER_TIER'").get(0);
      assertEquals("ACTIVE", after.get(0));
      assertEquals(0, ((Number) after.get(1)).intValue());
      assertTrue(((Number) after.get(2)).longValue() >= 1, "restarts: " + after);
      assertEquals(90, next);
    }
  }

  @Test void shouldEndTheBackoffAtOnceOnStopQueryAndDropSink() throws Exception {
    port = freePort();
    startPostgres();
    String url = "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM events (id BIGINT NOT NULL, k VARCHAR, v INTEGER)");
      String options = " WITH (connector = 'jdbc', 'url' = '" + url + "', 'restart.backoff' ="
          + " '10 minutes', 'table-name' = ";
      s.execute("CREATE SINK stopped_pg AS SELECT id FROM events" + options + "'a')");
      s.execute("CREATE SINK dropped_pg AS SELECT id FROM events" + options + "'b')");
      s.executeUpdate("INSERT INTO events VALUES (1, 'a', 1)");
      awaitStatus(s, "RESTARTING", 0);
      postgres.close();
      postgres = null;
      s.executeUpdate("INSERT INTO events VALUES (2, 'b', 2)");
      awaitStatus(s, "RESTARTING", 2);

      long started = System.nanoTime();
      s.execute("STOP QUERY stopped_pg");
      s.execute("DROP SINK dropped_pg");
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "stopping took " + took);
      assertEquals(List.of(List.of("STOPPED_PG", "STOPPED")), ViewResults.query(s,
          "SELECT name, status FROM sys.queries"));
      List<List<Object>> sinks = ViewResults.query(s, "SHOW SINKS");
      assertEquals(List.of(List.of("STOPPED_PG", "STOPPED")),
          List.of(List.of(sinks.get(0).get(0), sinks.get(0).get(5))), "sinks: " + sinks);
      assertEquals(1, sinks.size(), "sinks: " + sinks);
    }
  }

  /**
   * Re-reads {@code sys.queries} until {@code count} queries have status {@code status}, or
   * none other than ACTIVE if {@code count} is 0 and every query committed a batch.
   */
  private static void awaitStatus(Statement s, String status, int count) throws SQLException {
    String sql = count == 0
        ? "SELECT COUNT(*) FROM sys.queries WHERE status <> 'ACTIVE' OR last_batch_id < 0"
        : "SELECT COUNT(*) FROM sys.queries WHERE status = '" + status + "'";
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (((Number) ViewResults.query(s, sql).get(0).get(0)).intValue() != count) {
      if (System.nanoTime() > deadline) {
        fail("after " + DEADLINE + ": " + ViewResults.query(s, "SELECT name, status,"
            + " last_batch_id FROM sys.queries"));
      }
      ViewResults.betweenPolls();
    }
  }

  @Test void shouldRefuseARestartOptionOfASinkThatIsNotValid() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:freshet:engine=" + UUID.randomUUID());
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM events (id BIGINT NOT NULL, k VARCHAR, v INTEGER)");
      SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          () -> s.execute("CREATE SINK events_out AS SELECT id FROM events WITH (connector = 'jdbc',"
              + " 'url' = 'jdbc:h2:mem:" + UUID.randomUUID() + "', 'table-name' = 'out',"
              + " 'restart.backoff' = '-1 s')"));
      assertEquals("42000", e.getSQLState());
      assertEquals("Option 'restart.backoff' must be a duration such as '1 second', '500 ms' or"
          + " '2 minutes', or '0' to restart at once; not '-1 s'", e.getMessage());
      assertEquals(List.of(), ViewResults.query(s, "SHOW SINKS"));
    }
  }

  /**
   * Inserts rows {@code from} to {@code from + n - 1} ({@code id, k, v}) into both; returns the
   * next id. Also SinkRestoreRetryTest's.
   */
  static int insert(Statement freshet, Statement oracle, int from, int n)
      throws SQLException {
    StringBuilder values = new StringBuilder();
    for (int i = from; i < from + n; i++) {
      values.append(values.length() == 0 ? "" : ", ").append("(").append(i).append(", 'k")
          .append(i % 7).append("', ").append(i % 11).append(")");
    }
    freshet.executeUpdate("INSERT INTO events VALUES " + values);
    oracle.executeUpdate("INSERT INTO events VALUES " + values);
    return from + n;
  }

  /**
   * Re-reads PostgreSQL until both tables equal H2's answers over every row inserted: the
   * totals its GROUP BY, the rows themselves (a row written twice would show).
   */
  private void awaitCaughtUp(Statement oracle) throws Exception {
    String url = "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    try (Connection pg = DriverManager.getConnection(url); Statement p = pg.createStatement()) {
      await(p, "SELECT k, n, total FROM totals", ViewResults.normalized(ViewResults.query(
          oracle, "SELECT k, COUNT(*), SUM(v) FROM events GROUP BY k")));
      await(p, "SELECT id, k, v FROM all_events", ViewResults.normalized(ViewResults.query(
          oracle, "SELECT id, k, v FROM events")));
    }
  }

  private static void await(Statement pg, String sql, List<List<Object>> expected)
      throws SQLException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<List<Object>> rows = List.of();
    while (System.nanoTime() < deadline) {
      try {
        rows = ViewResults.normalized(ViewResults.query(pg, sql));
      } catch (SQLException notYetMade) {
        ViewResults.betweenPolls();
        continue;
      }
      if (ViewResults.sameRows(rows, expected)) {
        return;
      }
      ViewResults.betweenPolls();
    }
    fail(sql + " returned " + rows + ", not " + expected);
  }
}

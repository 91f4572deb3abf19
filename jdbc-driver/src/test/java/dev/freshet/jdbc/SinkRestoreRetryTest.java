package dev.freshet.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink whose PostgreSQL is down when the engine restarts: it is left out at the start, tried
 * again with its restart policy's backoff, and once PostgreSQL is back it is declared again and
 * catches up with the rows inserted meanwhile, exactly once, with no one doing anything; and
 * {@code DROP SINK} removes a sink that is left out, for good.
 */
@ExternalTest
class SinkRestoreRetryTest {
  private static final Duration DEADLINE = Duration.ofSeconds(90);

  @TempDir Path pgData;
  @TempDir Path dataDir;
  private EmbeddedPostgres postgres;
  private int port;

  @AfterEach void stop() throws Exception {
    closeEngine();
    if (postgres != null) {
      postgres.close();
    }
  }

  private void closeEngine() throws SQLException {
    EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir.toString())).close();
  }

  private void startPostgres() throws Exception {
    if (!java.nio.file.Files.exists(pgData.resolve("postgresql.conf"))) {
      // The first start: a copy of a cluster made once, not an initdb of its own.
      PostgresDataDirectory.copyTo(pgData);
    }
    postgres = EmbeddedPostgres.builder().setDataDirectory(pgData).setCleanDataDirectory(false)
        .setPort(port).start();
  }

  private void stopPostgres() throws Exception {
    postgres.close();
    postgres = null;
  }

  private Connection freshet() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
  }

  private String pgUrl() {
    return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
  }

  /** Starts PostgreSQL and declares a stream and a sink of its totals, 40 rows through it. */
  private void declareSink(Statement s, Statement oracle) throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    startPostgres();
    s.execute("CREATE STREAM events (id BIGINT NOT NULL, k VARCHAR, v INTEGER)");
    oracle.execute("CREATE TABLE events (id BIGINT, k VARCHAR, v INT)");
    s.execute("CREATE SINK totals_pg AS SELECT k, COUNT(*) AS n, SUM(v) AS total FROM events"
        + " GROUP BY k WITH (connector = 'jdbc', 'url' = '" + pgUrl() + "', 'table-name' ="
        + " 'totals')");
    SinkRestartTest.insert(s, oracle, 0, 40);
    awaitTotals(oracle);
  }

  @Test void shouldDeclareTheSinkAgainOncePostgresqlIsBackAndCatchUp() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      try (Connection c = freshet(); Statement s = c.createStatement()) {
        // The restart policy the sink is restored with: the session's when it was created.
        s.execute("SET 'restart.backoff' = '200 ms'");
        s.execute("SET 'restart.max-attempts' = '30'");
        declareSink(s, oracle);
      }
      closeEngine();
      stopPostgres();

      try (Connection c = freshet(); Statement s = c.createStatement()) {
        assertEquals(List.of(), ViewResults.query(s, "SHOW SINKS"), "left out at the start");
        // Rows keep coming while the sink is away: its checkpoint holds where it was.
        SinkRestartTest.insert(s, oracle, 40, 30);

        startPostgres();
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (ViewResults.query(s, "SHOW SINKS").isEmpty()) {
          if (System.nanoTime() > deadline) {
            fail("the sink was not declared again within " + DEADLINE);
          }
          ViewResults.betweenPolls();
        }
        SinkRestartTest.insert(s, oracle, 70, 20);
        awaitTotals(oracle);
      }
    }
  }

  @Test void shouldDropASinkThatIsLeftOut() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID());
         Statement oracle = h2.createStatement()) {
      try (Connection c = freshet(); Statement s = c.createStatement()) {
        s.execute("SET 'restart.max-attempts' = '0'");
        declareSink(s, oracle);
      }
      closeEngine();
      stopPostgres();
      try (Connection c = freshet(); Statement s = c.createStatement()) {
        assertEquals(List.of(), ViewResults.query(s, "SHOW SINKS"));
        s.execute("DROP SINK totals_pg");
        // Dropped for good: its name is free, and a DROP again finds nothing.
        assertThrows(SQLException.class, () -> s.execute("DROP SINK totals_pg"));
      }
      closeEngine();
      startPostgres();
      try (Connection c = freshet(); Statement s = c.createStatement()) {
        assertEquals(List.of(), ViewResults.query(s, "SHOW SINKS"), "not recorded any more");
        assertEquals(List.of(), ViewResults.query(s, "SELECT name FROM sys.queries"),
            "no query of the dropped sink");
      }
    }
  }

  /** Re-reads PostgreSQL's totals until they equal H2's GROUP BY over every row inserted. */
  private void awaitTotals(Statement oracle) throws Exception {
    List<List<Object>> expected = ViewResults.normalized(ViewResults.query(oracle,
        "SELECT k, COUNT(*), SUM(v) FROM events GROUP BY k"));
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<List<Object>> rows = List.of();
    try (Connection pg = DriverManager.getConnection(pgUrl()); Statement p = pg.createStatement()) {
      while (System.nanoTime() < deadline) {
        rows = ViewResults.normalized(ViewResults.query(p, "SELECT k, n, total FROM totals"));
        if (ViewResults.sameRows(rows, expected)) {
          return;
        }
        ViewResults.betweenPolls();
      }
    }
    fail("PostgreSQL's totals are " + rows + ", not " + expected);
  }
}

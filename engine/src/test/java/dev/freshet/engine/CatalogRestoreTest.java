package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.runtime.QueryStatus;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.QueryCheckpoints;
import dev.freshet.engine.query.StatementResult;

/**
 * An engine with a data directory declares its streams and views again when it starts: views
 * resume from their checkpoints with the options they were created with, dropped objects stay
 * dropped.
 */
class CatalogRestoreTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path dataDir;
  private final List<Engine> engines = new ArrayList<>();

  @AfterEach void close() {
    engines.forEach(Engine::close);
  }

  private Session open() {
    Engine engine = new Engine("restore", Optional.of(dataDir));
    engines.add(engine);
    return engine.openSession();
  }

  private static List<List<Object>> rows(Session session, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : ((StatementResult.Rows) session.execute(sql)).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  private static void awaitIdle(Session session, String view) throws InterruptedException {
    ContinuousQuery query = session.engine().query(view).orElseThrow();
    assertTrue(query.processAllAvailable(DEADLINE), view + " did not catch up within " + DEADLINE);
  }

  @Test void shouldDeclareStreamsAndViewsAgainAndResumeTheViews() throws Exception {
    Session first = open();
    first.execute("CREATE STREAM clicks (user_id VARCHAR, n INTEGER)");
    first.execute("SET 'state.partitions' = '3'");
    first.execute("SET 'min.batches.to.retain' = '5'");
    first.execute("CREATE MATERIALIZED VIEW per_user AS SELECT user_id, SUM(n) AS total"
        + " FROM clicks GROUP BY user_id");
    first.execute("CREATE MATERIALIZED VIEW gone AS SELECT COUNT(*) AS c FROM clicks");
    first.execute("INSERT INTO clicks VALUES ('a', 1), ('b', 2)");
    awaitIdle(first, "PER_USER");
    first.execute("DROP MATERIALIZED VIEW gone");
    first.engine().close();

    Session second = open();
    assertEquals(List.of(List.of("CLICKS")), rows(second, "SHOW STREAMS"));
    assertEquals(List.of("PER_USER"),
        rows(second, "SHOW VIEWS").stream().map(r -> r.get(0)).toList());
    assertEquals(List.of(List.of("a", 1L), List.of("b", 2L)),
        rows(second, "SELECT * FROM per_user ORDER BY user_id"));
    second.execute("INSERT INTO clicks VALUES ('a', 10)");
    awaitIdle(second, "PER_USER");
    // Counted once: the first run's batch is not run again.
    assertEquals(List.of(List.of("a", 11L), List.of("b", 2L)),
        rows(second, "SELECT * FROM per_user ORDER BY user_id"));
    ContinuousQuery query = second.engine().query("PER_USER").orElseThrow();
    assertEquals(QueryStatus.ACTIVE, query.status());
    OffsetSeq latest = QueryCheckpoints.open(dataDir, "PER_USER", 5).offsetLog()
        .get(query.lastBatchId()).orElseThrow();
    assertEquals("3", latest.conf().get(OffsetSeq.STATE_PARTITIONS));
  }

  @Test void shouldKeepADroppedStreamDropped() throws Exception {
    Session first = open();
    first.execute("CREATE STREAM a (x INTEGER)");
    first.execute("CREATE STREAM b (x INTEGER)");
    first.execute("DROP STREAM a");
    first.engine().close();

    assertEquals(List.of(List.of("B")), rows(open(), "SHOW STREAMS"));
  }

  @Test void shouldRunAnAvailableNowViewToTheEndOfTheDataThenStop() throws Exception {
    Session session = open();
    session.execute("CREATE STREAM clicks (user_id VARCHAR, n INTEGER)");
    session.execute("INSERT INTO clicks VALUES ('a', 1)");
    session.execute("INSERT INTO clicks VALUES ('a', 2), ('b', 5)");
    session.execute("SET 'trigger' = 'available-now'");
    session.execute("CREATE MATERIALIZED VIEW per_user AS SELECT user_id, SUM(n) AS total"
        + " FROM clicks GROUP BY user_id");
    ContinuousQuery query = session.engine().query("PER_USER").orElseThrow();
    assertTrue(query.awaitTermination(DEADLINE), "still running after " + DEADLINE);
    assertEquals(QueryStatus.STOPPED, query.status());
    assertEquals(List.of(List.of("a", 3L), List.of("b", 5L)),
        rows(session, "SELECT * FROM per_user ORDER BY user_id"));
  }

  @Test void shouldKeepOnlyTheBatchesToRetainInTheCheckpointLogs() throws Exception {
    Session session = open();
    session.execute("CREATE STREAM clicks (n INTEGER)");
    session.execute("SET 'min.batches.to.retain' = '2'");
    session.execute("CREATE MATERIALIZED VIEW total AS SELECT SUM(n) AS s FROM clicks");
    for (int i = 1; i <= 6; i++) {
      session.execute("INSERT INTO clicks VALUES (" + i + ")");
      awaitIdle(session, "TOTAL");
    }
    assertEquals(List.of(List.of(21L)), rows(session, "SELECT * FROM total"));
    ContinuousQuery query = session.engine().query("TOTAL").orElseThrow();
    long latest = query.lastBatchId();
    var log = QueryCheckpoints.open(dataDir, "TOTAL", 2).offsetLog();
    // Batches latest - 2 to latest stay; earlier ones are purged.
    assertTrue(log.get(latest - 2).isPresent());
    assertTrue(log.get(latest - 3).isEmpty(), "batch " + (latest - 3) + " was kept");
  }
}

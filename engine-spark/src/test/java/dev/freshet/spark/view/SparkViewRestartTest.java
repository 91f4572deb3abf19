package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.jdbc.EmbeddedEngines;
import dev.freshet.spark.LocalSparkSession;
import dev.freshet.testkit.SparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spark-run view across a failure and restarts, through the embedded JDBC driver on a data
 * directory: Spark fails a batch after delivering it to the view (its commit log cannot be
 * written); after the restart Spark runs that batch again from its checkpoint, the view applies
 * it once, a subscriber resuming from the version before sees it once, and the counts equal
 * H2's. A clean restart resumes at the next batch id.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkViewRestartTest {
  @TempDir Path dataDir;

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
  }

  @Test void shouldApplyABatchOnceThatSparkRunsAgainAfterAFailureAndResumeAtTheNextBatchId()
      throws Exception {
    try (ViewOracle oracle = new ViewOracle("CREATE TABLE clicks (batch_id INT,"
        + " user_id VARCHAR, amount BIGINT)")) {
      try (Connection c = connect(); Statement s = c.createStatement()) {
        s.execute("CREATE STREAM clicks (user_id VARCHAR, amount BIGINT)"
            + " WITH (connector = 'memory')");
        s.execute("CREATE MATERIALIZED VIEW totals WITH ('engine' = 'spark') AS SELECT user_id,"
            + " COUNT(*) AS n, SUM(amount) AS total FROM clicks GROUP BY user_id");
        try (Statement push = c.createStatement();
             ResultSet changes = push.executeQuery("SELECT STREAM * FROM totals")) {
          insert(s, oracle, 0, "('a', 1), ('b', 2)");
          assertEquals(List.of(List.of("a", 1L, 1L, "INSERT"), List.of("b", 1L, 2L, "INSERT")),
              sorted(read(changes, 2, 0)));

          // Spark's commit log cannot take batch 1: it fails after delivering the batch.
          Path commits = sparkCheckpoint().resolve("commits");
          // Spark commits a batch just after delivering it: batch 0's commit must be written.
          // Its file, then its checksum file, renamed into place in that order.
          ViewOracle.await(() -> List.of(List.<Object>of(Files.exists(commits.resolve("0"))
                  && Files.exists(commits.resolve(".0.crc")))),
              List.of(List.of(true)), () -> "Spark's commit of batch 0");
          Path saved = commits.resolveSibling("commits.saved");
          Files.move(commits, saved);
          Files.writeString(commits, "not a directory");
          insert(s, oracle, 1, "('a', 10), ('c', 3)");
          assertEquals(List.of(List.of("a", 2L, 11L, "UPDATE"), List.of("c", 1L, 3L, "INSERT")),
              sorted(read(changes, 2, 1)));
          awaitStatus(s, "FAILED");
          assertTrue(lastError(s).contains("parent is not a dir"), lastError(s));
          Files.delete(commits);
          Files.move(saved, commits);
        }
      }
      // The restart: Spark finds batch 1 without its commit and runs it again.
      EmbeddedEngines.of(dataDir).close();
      try (Connection c = connect(); Statement s = c.createStatement();
           Statement push = c.createStatement();
           ResultSet changes = push.executeQuery("SELECT STREAM * FROM totals"
               + " /*+ OPTIONS('since_version'='0') */")) {
        // The subscriber resuming after version 0 gets batch 1 once: from the view's changes,
        // not again from Spark's re-run.
        assertEquals(List.of(List.of("a", 2L, 11L, "UPDATE"), List.of("c", 1L, 3L, "INSERT")),
            sorted(read(changes, 2, 1)));
        awaitIdle();
        assertEquals("ACTIVE", status(s));
        // Spark ran batch 1 again in this run, and committed it this time; the view took it
        // as applied already (counts below).
        assertEquals(List.of(List.of(1L)), ViewOracle.rows(s, "SELECT last_batch_id"
            + " FROM sys.queries WHERE name = 'TOTALS'"));
        assertTrue(Files.exists(sparkCheckpoint().resolve("commits").resolve("1")));
        insert(s, oracle, 2, "('b', 5)");
        assertEquals(List.of(List.of("b", 2L, 7L, "UPDATE")), read(changes, 1, 2));
        assertEquals(oracle.rows(totals(99)), ViewOracle.rows(s, VIEW_ROWS));
      }
      // A clean restart resumes at the next batch id.
      EmbeddedEngines.of(dataDir).close();
      try (Connection c = connect(); Statement s = c.createStatement()) {
        // Before Spark's first batch of this run, the query stands where the view is.
        assertEquals(List.of(List.of(2L)), ViewOracle.rows(s, "SELECT last_batch_id"
            + " FROM sys.queries WHERE name = 'TOTALS'"));
      }
      try (Connection c = connect(); Statement s = c.createStatement();
           Statement push = c.createStatement();
           ResultSet changes = push.executeQuery("SELECT STREAM * FROM totals"
               + " /*+ OPTIONS('since_version'='2') */")) {
        insert(s, oracle, 3, "('d', 4)");
        assertEquals(List.of(List.of("d", 1L, 4L, "INSERT")), read(changes, 1, 3));
        assertEquals(oracle.rows(totals(99)), ViewOracle.rows(s, VIEW_ROWS));
      } finally {
        EmbeddedEngines.of(dataDir).close();
      }
    }
  }

  private static final String VIEW_ROWS = "SELECT user_id, n, total FROM totals ORDER BY 1";

  private static String totals(int upToBatch) {
    return "SELECT user_id, COUNT(*), SUM(amount) FROM clicks WHERE batch_id <= " + upToBatch
        + " GROUP BY user_id ORDER BY 1";
  }

  private static void insert(Statement s, ViewOracle oracle, int batch, String values)
      throws SQLException {
    s.executeUpdate("INSERT INTO clicks VALUES " + values);
    oracle.execute("INSERT INTO clicks SELECT " + batch + ", * FROM (VALUES " + values + ")");
  }

  /** Spark's checkpoint of the view: {@code spark/} in the view's directory. */
  private Path sparkCheckpoint() throws IOException {
    try (Stream<Path> files = Files.walk(dataDir)) {
      return files.filter(p -> p.getFileName().toString().equals("spark")
          && Files.isDirectory(p.resolve("commits"))).findFirst().orElseThrow();
    }
  }

  private void awaitIdle() throws Exception {
    for (ContinuousQuery q : EmbeddedEngines.of(dataDir).continuousQueries()) {
      assertTrue(q.processAllAvailable(ViewOracle.DEADLINE), q.name() + " " + q.status());
    }
  }

  private static String status(Statement s) throws SQLException {
    List<List<Object>> rows = ViewOracle.rows(s, "SELECT status FROM sys.queries"
        + " WHERE name = 'TOTALS'");
    return rows.isEmpty() ? "none" : (String) rows.get(0).get(0);
  }

  private static String lastError(Statement s) throws SQLException {
    return String.valueOf(ViewOracle.rows(s, "SELECT last_error FROM sys.queries"
        + " WHERE name = 'TOTALS'").get(0).get(0));
  }

  private static void awaitStatus(Statement s, String status) throws Exception {
    ViewOracle.await(() -> List.of(List.<Object>of(status(s))), List.of(List.of(status)),
        () -> "the view's query " + status);
  }

  /** {@code n} changes, each of batch {@code batchId}: [user, n, total, kind]. */
  private static List<List<Object>> read(ResultSet changes, int n, long batchId) {
    return assertTimeoutPreemptively(ViewOracle.DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        assertTrue(changes.next(), "the push result ended");
        assertEquals(batchId, changes.getLong("_BATCH_ID"), "change " + i);
        List<Object> row = ViewOracle.row(changes, 3);
        row.add(changes.getString("_ROW_KIND"));
        rows.add(row);
      }
      return rows;
    }, () -> n + " changes of batch " + batchId);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    rows.sort(java.util.Comparator.comparing(r -> (String) r.get(0)));
    return rows;
  }
}

package dev.freshet.spark.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.engine.ViewEngines;
import dev.freshet.server.FreshetServer;
import dev.freshet.spark.LocalSparkSession;
import dev.freshet.testkit.SparkTest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Freshet server that runs views on Spark by default ({@code freshet serve --engine spark}),
 * reached over the remote JDBC driver: a view declared without {@code WITH} runs on Spark
 * (EXPLAIN shows Spark's plan, {@code sys.queries} lists it), a push query over HTTP delivers its
 * batches with their ids, and a plain SELECT reads H2's answer; a view {@code WITH ('engine' =
 * 'freshet')} stays on Freshet's own executor.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class ServerOnSparkTest {
  @TempDir Path dataDir;

  @Test void shouldRunViewsOnSparkByDefaultAndServeThemOverRemoteJdbc() throws Exception {
    try (FreshetServer server = FreshetServer.builder().port(0).dataDir(dataDir)
            .viewEngines(new ViewEngines("spark", Map.of("spark.master", "local[2]")))
            .start();
         Connection c = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url());
         Statement s = c.createStatement();
         ViewOracle oracle = new ViewOracle("CREATE TABLE clicks (user_id VARCHAR,"
             + " amount BIGINT)")) {
      s.execute("CREATE STREAM clicks (user_id VARCHAR, amount BIGINT)"
          + " WITH (connector = 'memory')");
      String query = "SELECT user_id, COUNT(*) AS n, SUM(amount) AS total FROM clicks"
          + " GROUP BY user_id";
      s.execute("CREATE MATERIALIZED VIEW on_spark AS " + query);
      s.execute("CREATE MATERIALIZED VIEW on_freshet WITH ('engine' = 'freshet') AS " + query);
      assertEquals(List.of(List.of("ON_FRESHET", "freshet"), List.of("ON_SPARK", "spark")),
          ViewOracle.rows(s, "SELECT name, engine FROM sys.queries ORDER BY name"));
      // Spark's physical plan has its HashAggregate around the state store; Freshet's has none.
      assertTrue(plan(s, "CREATE MATERIALIZED VIEW on_spark AS " + query)
          .contains("HashAggregate"));
      assertTrue(!plan(s, "CREATE MATERIALIZED VIEW on_freshet WITH ('engine' = 'freshet') AS "
          + query).contains("HashAggregate"), "Freshet's own plan");

      try (Statement push = c.createStatement();
           ResultSet changes = push.executeQuery("SELECT STREAM * FROM on_spark")) {
        String[] batches = {"('a', 1), ('b', 2)", "('a', 3)", "('c', 4), ('b', 5)"};
        for (int b = 0; b < batches.length; b++) {
          s.executeUpdate("INSERT INTO clicks VALUES " + batches[b]);
          oracle.execute("INSERT INTO clicks VALUES " + batches[b]);
          int changed = batches[b].split("\\),").length;
          for (List<Object> row : read(changes, changed)) {
            assertEquals((long) b, row.get(3), "the Spark batch id of " + row);
          }
        }
      }
      String expected = "SELECT user_id, COUNT(*), SUM(amount) FROM clicks GROUP BY user_id"
          + " ORDER BY user_id";
      assertEquals(oracle.rows(expected), ViewOracle.rows(s,
          "SELECT user_id, n, total FROM on_spark ORDER BY user_id"));
      ViewOracle.await(() -> ViewOracle.rows(s,
          "SELECT user_id, n, total FROM on_freshet ORDER BY user_id"), oracle.rows(expected),
          () -> "the view on Freshet's executor");
    }
  }

  private static String plan(Statement s, String create) throws Exception {
    try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + create)) {
      assertTrue(rs.next());
      return rs.getString(1);
    }
  }

  /** {@code n} rows of the push query: [user, n, total, batch id]. */
  private static List<List<Object>> read(ResultSet changes, int n) {
    return assertTimeoutPreemptively(ViewOracle.DEADLINE, () -> {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        assertTrue(changes.next(), "the push result ended");
        List<Object> row = ViewOracle.row(changes, 3);
        row.add(changes.getLong("_BATCH_ID"));
        rows.add(row);
      }
      return rows;
    }, () -> n + " rows");
  }
}

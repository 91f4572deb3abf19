package dev.freshet.jdbc;

import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.Engine;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

/**
 * The child JVM of {@link LargeStateViewTest}, run with {@code -Xmx256m}: declares a sequence of
 * {@code rows} numbers and a materialized view grouping them into {@code keys} groups, kept by the
 * MVStore state store provider, runs the view to the end of the sequence (trigger
 * {@code available-now}) and exits.
 *
 * <p>Arguments: data directory, rows, keys, rows per batch. Prints
 * {@code DONE <status> <last batch id>} and the
 * JVM's maximum heap; exits with status 1 if the query failed or did not finish.
 */
public final class LargeStateViewChild {
  private LargeStateViewChild() {
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    long rows = Long.parseLong(args[1]);
    long keys = Long.parseLong(args[2]);
    long batchRows = Long.parseLong(args[3]);
    System.out.println("MAX_HEAP " + Runtime.getRuntime().maxMemory());
    try (Connection connection = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement statement = connection.createStatement()) {
      statement.execute("SET 'state.store.provider' = 'mvstore'");
      statement.execute("SET 'state.partitions' = '2'");
      statement.execute("SET 'trigger' = 'available-now'");
      statement.execute("CREATE STREAM nums (n BIGINT) WITH (connector = 'sequence', 'end' = '"
          + rows + "', 'rows.per.batch' = '"
          + batchRows + "')");
      statement.execute("CREATE MATERIALIZED VIEW big AS SELECT MOD(n, " + keys + ") AS k,"
          + " COUNT(*) AS c, SUM(n) AS total FROM nums GROUP BY MOD(n, " + keys + ")");
      Engine engine = EngineRegistry.INSTANCE.resolve(Map.of(EngineRegistry.DATA_DIR, dataDir));
      ContinuousQuery query = engine.query("BIG").orElseThrow();
      boolean stopped = query.awaitTermination(Duration.ofMinutes(15));
      System.out.println("DONE " + query.status() + " " + query.lastBatchId());
      query.exception().ifPresent(e -> e.printStackTrace(System.out));
      engine.close();
      System.exit(stopped && query.exception().isEmpty() ? 0 : 1);
    }
  }
}

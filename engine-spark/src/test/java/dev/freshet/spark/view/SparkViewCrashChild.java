package dev.freshet.spark.view;

import static dev.freshet.testkit.crash.ChildLines.await;
import static dev.freshet.testkit.crash.ChildLines.number;
import static dev.freshet.testkit.crash.ChildLines.printRows;
import static dev.freshet.testkit.crash.ChildLines.say;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

/**
 * The child JVM of {@link SparkViewCrashTest}: an embedded engine on a data directory with a view
 * {@code WITH ('engine' = 'spark')} (Spark in this JVM, {@code local[2]}) over a memory stream.
 *
 * <p>{@code run}: INSERTs statement after statement, printing {@code ACK i} once INSERT {@code i}
 * returned, until the parent kills the process. {@code verify}: waits until the view has counted
 * every row of the stream, prints the stream's rows ({@code IN}), the view's ({@code ROW}) and
 * the view's last batch id ({@code LASTBATCH}), and exits.
 *
 * <p>Statement {@code i} inserts {@link #ROWS} rows {@code ('u<(i * 7 + j) % 5>', i * 100 + j)}.
 */
public final class SparkViewCrashChild {
  static final int ROWS = 4;

  private SparkViewCrashChild() {
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    String mode = args[1];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount BIGINT)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS totals WITH ('engine' = 'spark') AS"
          + " SELECT user_id, COUNT(*) AS n, SUM(amount) AS total FROM clicks GROUP BY user_id");
      long next = number(s, "SELECT COUNT(*) FROM clicks") / ROWS;
      say("START " + next);
      if (mode.equals("run")) {
        for (long i = next; ; i++) {
          StringBuilder values = new StringBuilder();
          for (int j = 0; j < ROWS; j++) {
            values.append(j == 0 ? "" : ", ").append("('u").append((i * 7 + j) % 5)
                .append("', ").append(i * 100 + j).append(")");
          }
          s.executeUpdate("INSERT INTO clicks VALUES " + values);
          say("ACK " + i);
        }
      }
      long rows = number(s, "SELECT COUNT(*) FROM clicks");
      await("the view to catch up with " + rows + " rows", Duration.ofMinutes(2),
          () -> number(s, "SELECT COALESCE(SUM(n), 0) FROM totals") == rows);
      printRows(s, "IN", "SELECT user_id, amount FROM clicks");
      printRows(s, "ROW", "SELECT user_id, n, total FROM totals");
      say("LASTBATCH " + number(s, "SELECT last_batch_id FROM sys.queries"
          + " WHERE name = 'TOTALS'"));
      say("DONE");
    }
    // Spark's threads would keep the JVM alive.
    System.exit(0);
  }
}

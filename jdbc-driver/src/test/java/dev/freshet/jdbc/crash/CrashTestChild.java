package dev.freshet.jdbc.crash;

import static dev.freshet.testkit.crash.ChildLines.await;
import static dev.freshet.testkit.crash.ChildLines.number;
import static dev.freshet.testkit.crash.ChildLines.printRows;
import static dev.freshet.testkit.crash.ChildLines.say;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

/**
 * The child JVM of {@link ExactlyOnceCrashTest}: an embedded engine on a data directory with a
 * named UPDATE-mode view over a memory stream.
 *
 * <p>{@code run}: INSERTs statement after statement, printing {@code ACK i} once INSERT {@code i}
 * returned and then {@code VIEWED n}, the rows the view has counted so far, until the parent kills
 * the process. {@code verify}: waits until the view has caught up
 * with the stream, prints the stream's rows ({@code IN}) and the view's rows ({@code ROW}), exits.
 *
 * <p>Statement {@code i} inserts {@link #ROWS} rows {@code ('u<(i * 7 + j) % 13>', i * 100 + j)},
 * so every row names the statement it came from.
 */
public final class CrashTestChild {
  static final int ROWS = 5;

  private CrashTestChild() {
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    String mode = args[1];
    String provider = args[2];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("SET 'state.store.provider' = '" + provider + "'");
      s.execute("SET 'state.partitions' = '2'");
      s.execute("CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount BIGINT)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS totals AS SELECT user_id, COUNT(*) AS n,"
          + " SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE");
      long next = number(s, "SELECT COUNT(*) FROM clicks") / ROWS;
      say("START " + next);
      if (mode.equals("run")) {
        for (long i = next; ; i++) {
          StringBuilder values = new StringBuilder();
          for (int j = 0; j < ROWS; j++) {
            values.append(j == 0 ? "" : ", ").append("('u").append((i * 7 + j) % 13)
                .append("', ").append(i * 100 + j).append(")");
          }
          s.executeUpdate("INSERT INTO clicks VALUES " + values);
          say("ACK " + i);
          // What the view has committed so far: rows a resumed query must not read again.
          say("VIEWED " + number(s, "SELECT COALESCE(SUM(n), 0) FROM totals"));
        }
      }
      long rows = number(s, "SELECT COUNT(*) FROM clicks");
      await("the view to catch up with " + rows + " rows", Duration.ofMinutes(2),
          () -> number(s, "SELECT COALESCE(SUM(n), 0) FROM totals") == rows);
      printRows(s, "IN", "SELECT user_id, amount FROM clicks");
      printRows(s, "ROW", "SELECT user_id, n, total FROM totals");
      // How the view's query started in this JVM: resumed at a later batch, reading only new rows.
      say("LASTBATCH " + number(s, "SELECT LAST_BATCH_ID FROM sys.queries"
          + " WHERE NAME = 'TOTALS'"));
      say("READ " + number(s, "SELECT COALESCE(SUM(NUM_INPUT_ROWS), 0)"
          + " FROM sys.query_progress WHERE NAME = 'TOTALS'"));
      say("DONE");
    }
    System.exit(0);
  }
}

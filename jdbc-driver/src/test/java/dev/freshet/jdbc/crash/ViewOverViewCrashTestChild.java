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
 * The child JVM of {@link ViewOverViewExactlyOnceCrashTest}: an embedded engine on a data
 * directory with an UPDATE view {@code per_user} over a memory stream and a view
 * {@code per_count} over {@code per_user}'s changes.
 *
 * <p>{@code run}: INSERTs statement after statement, printing {@code ACK i} once INSERT {@code i}
 * returned, until the parent kills the process. {@code verify}: waits until both views have
 * caught up with the stream, prints the stream's rows ({@code IN}) and {@code per_count}'s rows
 * ({@code ROW}), exits.
 *
 * <p>Statement {@code i} inserts {@link #ROWS} rows {@code ('u<(i * 7 + j) % 11>', (i * 37 + j *
 * 13) % 101 - 50)}; every user's row count grows, so each batch moves users between the groups of
 * {@code per_count}.
 */
public final class ViewOverViewCrashTestChild {
  static final int ROWS = 3;
  static final String UPSTREAM = "SELECT user_id, COUNT(*) AS n, SUM(amount) AS total,"
      + " MIN(amount) AS lo FROM clicks GROUP BY user_id";
  static final String DOWNSTREAM = "SELECT n, COUNT(*) AS users, SUM(total) AS total,"
      + " MIN(lo) AS lo, MAX(lo) AS hi FROM %s GROUP BY n";

  private ViewOverViewCrashTestChild() {
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    String mode = args[1];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("SET 'state.partitions' = '2'");
      s.execute("CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount BIGINT)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS per_user AS " + UPSTREAM);
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS per_count AS "
          + DOWNSTREAM.formatted("per_user"));
      long next = number(s, "SELECT COUNT(*) FROM clicks") / ROWS;
      say("START " + next);
      if (mode.equals("run")) {
        for (long i = next; ; i++) {
          StringBuilder values = new StringBuilder();
          for (int j = 0; j < ROWS; j++) {
            values.append(j == 0 ? "" : ", ").append("('u").append((i * 7 + j) % 11)
                .append("', ").append((i * 37 + j * 13) % 101 - 50).append(")");
          }
          s.executeUpdate("INSERT INTO clicks VALUES " + values);
          say("ACK " + i);
        }
      }
      long rows = number(s, "SELECT COUNT(*) FROM clicks");
      // per_count has caught up when its groups hold every row: n rows for each of its users.
      await("the views to catch up with " + rows + " rows", Duration.ofMinutes(2),
          () -> number(s, "SELECT COALESCE(SUM(n), 0) FROM per_user") == rows
              && number(s, "SELECT COALESCE(SUM(n * users), 0) FROM per_count") == rows);
      printRows(s, "IN", "SELECT user_id, amount FROM clicks");
      printRows(s, "ROW", "SELECT n, users, total, lo, hi FROM per_count");
      say("DONE");
    }
    System.exit(0);
  }
}

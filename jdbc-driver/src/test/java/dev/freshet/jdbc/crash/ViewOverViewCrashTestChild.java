package dev.freshet.jdbc.crash;

import static dev.freshet.testkit.crash.ChildLines.number;
import static dev.freshet.testkit.crash.ChildLines.say;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

/**
 * The child JVM of {@link ViewOverViewExactlyOnceCrashTest}: an embedded engine on a data
 * directory with an UPDATE view {@code per_user} over a memory stream and a view
 * {@code per_count} over {@code per_user}'s changes.
 *
 * <p>It INSERTs statement after statement, printing {@code ACK i} once INSERT {@code i}
 * returned, until the parent kills the process. The parent checks the data directory after the
 * last kill in an engine of its own ({@link RestartedEngine}).
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

  /** The child's declarations, which the test's restarted engine repeats. */
  static List<String> declarations() {
    return List.of("SET 'state.partitions' = '2'",
        "CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount BIGINT)"
            + " WITH (connector = 'memory')",
        "CREATE MATERIALIZED VIEW IF NOT EXISTS per_user AS " + UPSTREAM,
        "CREATE MATERIALIZED VIEW IF NOT EXISTS per_count AS " + DOWNSTREAM.formatted("per_user"));
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      for (String sql : declarations()) {
        s.execute(sql);
      }
      long next = number(s, "SELECT COUNT(*) FROM clicks") / ROWS;
      say("START " + next);
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
  }
}

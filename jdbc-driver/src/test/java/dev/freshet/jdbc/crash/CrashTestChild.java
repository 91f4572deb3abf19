package dev.freshet.jdbc.crash;

import static dev.freshet.testkit.crash.ChildLines.number;
import static dev.freshet.testkit.crash.ChildLines.say;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

/**
 * The child JVM of {@link ExactlyOnceCrashTest}'s subclasses: an embedded engine on a data
 * directory with a named UPDATE-mode view over a memory stream.
 *
 * <p>It INSERTs statement after statement, printing {@code ACK i} once INSERT {@code i} returned
 * and then {@code VIEWED n}, the rows the view has counted so far, until the parent kills the
 * process. The parent checks the data directory after the last kill in an engine of its own
 * ({@link RestartedEngine}).
 *
 * <p>Statement {@code i} inserts {@link #ROWS} rows {@code ('u<(i * 7 + j) % 13>', i * 100 + j)},
 * so every row names the statement it came from.
 */
public final class CrashTestChild {
  static final int ROWS = 5;

  private CrashTestChild() {
  }

  /** The child's declarations, which the test's restarted engine repeats. */
  static List<String> declarations(String provider) {
    return List.of("SET 'state.store.provider' = '" + provider + "'",
        "SET 'state.partitions' = '2'",
        "CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount BIGINT)"
            + " WITH (connector = 'memory')",
        "CREATE MATERIALIZED VIEW IF NOT EXISTS totals AS SELECT user_id, COUNT(*) AS n,"
            + " SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE");
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    String provider = args[1];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      for (String sql : declarations(provider)) {
        s.execute(sql);
      }
      long next = number(s, "SELECT COUNT(*) FROM clicks") / ROWS;
      say("START " + next);
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
  }
}

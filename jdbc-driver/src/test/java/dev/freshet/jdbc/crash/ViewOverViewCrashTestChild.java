package dev.freshet.jdbc.crash;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

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
    PrintStream out = System.out;
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("SET 'state.partitions' = '2'");
      s.execute("CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount BIGINT)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS per_user AS " + UPSTREAM);
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS per_count AS "
          + DOWNSTREAM.formatted("per_user"));
      long next = count(s, "SELECT COUNT(*) FROM clicks") / ROWS;
      out.println("START " + next);
      out.flush();
      if (mode.equals("run")) {
        for (long i = next; ; i++) {
          StringBuilder values = new StringBuilder();
          for (int j = 0; j < ROWS; j++) {
            values.append(j == 0 ? "" : ", ").append("('u").append((i * 7 + j) % 11)
                .append("', ").append((i * 37 + j * 13) % 101 - 50).append(")");
          }
          s.executeUpdate("INSERT INTO clicks VALUES " + values);
          out.println("ACK " + i);
          out.flush();
        }
      }
      long rows = count(s, "SELECT COUNT(*) FROM clicks");
      long deadline = System.nanoTime() + 120_000_000_000L;
      // per_count has caught up when its groups hold every row: n rows for each of its users.
      while (count(s, "SELECT COALESCE(SUM(n), 0) FROM per_user") != rows
          || count(s, "SELECT COALESCE(SUM(n * users), 0) FROM per_count") != rows) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the views did not catch up with " + rows + " rows");
        }
        Thread.onSpinWait();
      }
      try (ResultSet rs = s.executeQuery("SELECT user_id, amount FROM clicks")) {
        while (rs.next()) {
          out.println("IN " + rs.getString(1) + " " + rs.getLong(2));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT n, users, total, lo, hi FROM per_count")) {
        while (rs.next()) {
          out.println("ROW " + rs.getLong(1) + " " + rs.getLong(2) + " " + rs.getLong(3) + " "
              + rs.getLong(4) + " " + rs.getLong(5));
        }
      }
      out.println("DONE");
      out.flush();
    }
    System.exit(0);
  }

  private static long count(Statement s, String sql) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}

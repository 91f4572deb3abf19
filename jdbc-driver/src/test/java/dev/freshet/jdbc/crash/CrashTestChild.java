package dev.freshet.jdbc.crash;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

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
    PrintStream out = System.out;
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("SET 'state.store.provider' = '" + provider + "'");
      s.execute("SET 'state.partitions' = '2'");
      s.execute("CREATE STREAM IF NOT EXISTS clicks (user_id VARCHAR, amount BIGINT)"
          + " WITH (connector = 'memory')");
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS totals AS SELECT user_id, COUNT(*) AS n,"
          + " SUM(amount) AS total FROM clicks GROUP BY user_id EMIT UPDATE");
      long next = count(s, "SELECT COUNT(*) FROM clicks") / ROWS;
      out.println("START " + next);
      out.flush();
      if (mode.equals("run")) {
        for (long i = next; ; i++) {
          StringBuilder values = new StringBuilder();
          for (int j = 0; j < ROWS; j++) {
            values.append(j == 0 ? "" : ", ").append("('u").append((i * 7 + j) % 13)
                .append("', ").append(i * 100 + j).append(")");
          }
          s.executeUpdate("INSERT INTO clicks VALUES " + values);
          out.println("ACK " + i);
          // What the view has committed so far: rows a resumed query must not read again.
          out.println("VIEWED " + count(s, "SELECT COALESCE(SUM(n), 0) FROM totals"));
          out.flush();
        }
      }
      long rows = count(s, "SELECT COUNT(*) FROM clicks");
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (count(s, "SELECT COALESCE(SUM(n), 0) FROM totals") != rows) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the view did not catch up with " + rows + " rows");
        }
        Thread.onSpinWait();
      }
      try (ResultSet rs = s.executeQuery("SELECT user_id, amount FROM clicks")) {
        while (rs.next()) {
          out.println("IN " + rs.getString(1) + " " + rs.getLong(2));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT user_id, n, total FROM totals")) {
        while (rs.next()) {
          out.println("ROW " + rs.getString(1) + " " + rs.getLong(2) + " " + rs.getLong(3));
        }
      }
      // How the view's query started in this JVM: resumed at a later batch, reading only new rows.
      out.println("LASTBATCH " + count(s, "SELECT LAST_BATCH_ID FROM sys.queries"
          + " WHERE NAME = 'TOTALS'"));
      out.println("READ " + count(s, "SELECT COALESCE(SUM(NUM_INPUT_ROWS), 0)"
          + " FROM sys.query_progress WHERE NAME = 'TOTALS'"));
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

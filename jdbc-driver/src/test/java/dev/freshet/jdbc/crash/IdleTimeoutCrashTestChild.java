package dev.freshet.jdbc.crash;

import static dev.freshet.testkit.crash.ChildLines.await;
import static dev.freshet.testkit.crash.ChildLines.number;
import static dev.freshet.testkit.crash.ChildLines.say;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The child JVM of {@link IdleTimeoutCrashTest}: an embedded engine on a data directory with a
 * tumbling-window APPEND view over a stream with {@code 'watermark.idle-timeout' = '1 s'}.
 *
 * <p>{@code run}: inserts three rows, waits until the idle timeout has closed their last window,
 * prints the view's batches ({@code BATCH id input output watermark timestamp}) and windows
 * ({@code WINDOW start n}), then {@code READY}, and waits to be killed. {@code verify <batch>}:
 * reopens the engine, waits until the view's query has committed batch {@code <batch>}, prints
 * the batches of this run and the windows, then {@code DONE}.
 */
public final class IdleTimeoutCrashTestChild {
  static final String VIEW = "IDLE_W";

  private IdleTimeoutCrashTestChild() {
  }

  public static void main(String[] args) throws Exception {
    String dataDir = args[0];
    String mode = args[1];
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      if (mode.equals("run")) {
        s.execute("SET 'trigger.interval' = '200 ms'");
        s.execute("CREATE STREAM idle (id INT, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
            + " WITH ('watermark.idle-timeout' = '1 s')");
        s.execute("CREATE MATERIALIZED VIEW idle_w AS SELECT TUMBLE_START(ts, INTERVAL '10'"
            + " SECOND) AS ws, COUNT(*) AS n FROM idle GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)"
            + " EMIT APPEND");
        s.executeUpdate("INSERT INTO idle VALUES (1, TIMESTAMP '2020-01-01 00:00:01'),"
            + " (2, TIMESTAMP '2020-01-01 00:00:12'), (3, TIMESTAMP '2020-01-01 00:00:25')");
        // The rows close two windows; only the idle timeout closes the third, in a batch that
        // reads nothing, with a watermark from the clock: waited for in the progress, which a
        // batch records after its commit.
        await("the idle timeout to close the last window", Duration.ofMinutes(1),
            () -> number(s, "SELECT COUNT(*) FROM sys.query_progress WHERE name = '" + VIEW + "'"
                + " AND num_input_rows = 0 AND num_output_rows = 1"
                + " AND watermark > TIMESTAMP '2021-01-01 00:00:00'") >= 1);
      } else {
        long batch = Long.parseLong(args[2]);
        await("the view's query to run batch " + batch, Duration.ofMinutes(1),
            () -> number(s, "SELECT COALESCE(MAX(last_batch_id), -1) FROM sys.queries"
                + " WHERE name = '" + VIEW + "'") >= batch);
      }
      try (ResultSet rs = s.executeQuery("SELECT batch_id, num_input_rows, num_output_rows,"
          + " watermark, batch_timestamp FROM sys.query_progress WHERE name = '" + VIEW + "'"
          + " ORDER BY batch_id")) {
        while (rs.next()) {
          say("BATCH " + rs.getLong(1) + " " + rs.getLong(2) + " " + rs.getLong(3) + " "
              + rs.getTimestamp(4).getTime() + " " + rs.getTimestamp(5).getTime());
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT ws, n FROM idle_w ORDER BY ws")) {
        while (rs.next()) {
          say("WINDOW " + rs.getTimestamp(1).getTime() + " " + rs.getLong(2));
        }
      }
      if (mode.equals("run")) {
        say("READY");
        // Killed here, with the engine open.
        new CountDownLatch(1).await();
      }
      say("DONE");
    }
    System.exit(0);
  }
}

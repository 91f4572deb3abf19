package dev.freshet.benchmarks.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * W8 on Freshet: a topic of JSON rows (filled by the harness, {@link KafkaTopic}) through a
 * {@code GROUP BY} view, timed from the view's {@code CREATE} to the view having counted every row.
 *
 * <p>The stream reads the topic from its earliest offset with {@code 'scan.max-records-per-batch'}
 * at the run's batch size (Spark's side sets {@code maxOffsetsPerTrigger} alike); the view is
 * {@code SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k} in a data directory (offset log, state
 * deltas and commit log every batch). The end is the last batch's end from
 * {@code sys.query_progress} ({@code BATCH_TIMESTAMP + DURATION_MS}), so the harness's polling
 * interval does not count; the run then checks that the view's {@code SUM(c)} and {@code SUM(s)}
 * are what the topic holds.
 *
 * <pre>{@code
 * FreshetWorkloads W8 0 2000000 1000000 10 localhost:40123 w8
 * }</pre>
 */
final class KafkaGroupBy {
  /** A full run reads 20M rows: more than the other workloads' 120 s on a loaded machine. */
  static final long DEADLINE_SECONDS = Long.getLong("freshet.bench.kafkaDeadlineSeconds", 900);

  private KafkaGroupBy() {}

  static JsonLine run(Workload.Size size, String bootstrapServers, String topic) throws Exception {
    long rows = size.totalRows();
    Path dataDir = Files.createTempDirectory("freshet-bench-");
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("CREATE STREAM s (id BIGINT, k BIGINT, v BIGINT) WITH (connector = 'kafka',"
          + " 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '" + bootstrapServers
          + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset',"
          + " 'scan.max-records-per-batch' = '" + size.rowsPerBatch() + "')");
      long createdAt = System.currentTimeMillis();
      long start = System.nanoTime();
      s.execute("CREATE MATERIALIZED VIEW v AS SELECT k, COUNT(*) AS c, SUM(v) AS s FROM s"
          + " GROUP BY k EMIT UPDATE");
      boolean complete = awaitRows(s, rows);
      double polledSeconds = (System.nanoTime() - start) / 1e9;
      JsonLine line = batches(s, createdAt);
      double seconds = line.number("to_last_row_s");
      long counted;
      long sum;
      long groups;
      try (ResultSet rs = s.executeQuery("SELECT SUM(c), SUM(s), COUNT(*) FROM v")) {
        rs.next();
        counted = rs.getLong(1);
        sum = rs.getLong(2);
        groups = rs.getLong(3);
      }
      boolean right = counted == rows && sum == KafkaTopic.sumOfV(rows)
          && groups == Math.min(rows, KafkaTopic.KEYS);
      return line.put("rows_per_s", complete ? rows / seconds : Double.NaN)
          .put("rows", rows).put("polled_s", polledSeconds).put("view_count", counted)
          .put("view_groups", groups).put("rows_per_batch", size.rowsPerBatch())
          .put("complete", complete ? "yes" : "no").put("correct", right ? "yes" : "no");
    } finally {
      FreshetWorkloads.deleteQuietly(dataDir);
    }
  }

  /**
   * Waits until the view's batches have read {@code rows} rows or the query failed; polls every
   * 200 ms (each poll plans a query: a few ms of CPU the batches miss).
   */
  private static boolean awaitRows(Statement s, long rows) throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (System.nanoTime() < deadline) {
      try (ResultSet rs = s.executeQuery("SELECT LAST_ERROR FROM sys.queries WHERE NAME = 'V'")) {
        if (rs.next() && rs.getString(1) != null) {
          throw new IllegalStateException("The view's query failed: " + rs.getString(1));
        }
      }
      if (FreshetWorkloads.processedRows(s) >= rows) {
        return true;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
    }
    return false;
  }

  /**
   * The view's batches: seconds from {@code createdAt} to the end of the last batch that read
   * rows, rows per second over the batches' summed durations, and each batch's duration.
   */
  private static JsonLine batches(Statement s, long createdAt) throws SQLException {
    long rows = 0;
    long millis = 0;
    long lastEnd = createdAt;
    long firstStart = -1;
    int batches = 0;
    StringBuilder batchMillis = new StringBuilder();
    try (ResultSet rs = s.executeQuery("SELECT NUM_INPUT_ROWS, DURATION_MS, BATCH_TIMESTAMP"
        + " FROM sys.query_progress WHERE NAME = 'V' ORDER BY BATCH_ID")) {
      while (rs.next()) {
        long input = rs.getLong(1);
        if (input == 0) {
          continue;
        }
        long started = rs.getTimestamp(3).getTime();
        firstStart = firstStart < 0 ? started : firstStart;
        lastEnd = Math.max(lastEnd, started + rs.getLong(2));
        rows += input;
        millis += rs.getLong(2);
        batches++;
        batchMillis.append(batchMillis.length() == 0 ? "" : " ").append(rs.getLong(2));
      }
    }
    return new JsonLine().put("to_last_row_s", (lastEnd - createdAt) / 1000.0)
        .put("to_first_batch_s", firstStart < 0 ? Double.NaN : (firstStart - createdAt) / 1000.0)
        .put("batch_rows_per_s", millis == 0 ? Double.NaN : rows * 1000.0 / millis)
        .put("batches", (long) batches).put("batch_ms", batchMillis.toString());
  }
}

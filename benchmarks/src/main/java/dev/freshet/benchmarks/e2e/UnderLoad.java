package dev.freshet.benchmarks.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * W6 on Freshet, freshness under load: W3's push-query latency while a materialized view ingests
 * at half the engine's maximum rate over 100,000 keys.
 *
 * <p>First the maximum: a W1-like view over 100,000 keys ({@code n % 100000}, COUNT and SUM) on an
 * unpaced sequence stream in a data directory of its own, measured as W1 is (the rows of the
 * batches after the warm-up over their summed {@code DURATION_MS}), in this JVM. Then, in a second
 * data directory, the same view over a sequence stream paced at half that rate
 * ({@code 'rows.per.second'}), and meanwhile {@link LatencyProbe}'s one-row INSERTs at 1,000 rows/s
 * into another stream of the same engine with a push query over it: latency from the INSERT's
 * return (and from its send) to {@code ResultSet.next()}. The load's own batches are reported too:
 * their durations are the view's freshness, and the rows they read show whether it kept up.
 *
 * <pre>{@code
 * FreshetWorkloads W6 1000000 2000000 1000000 10
 * }</pre>
 */
final class UnderLoad {
  private UnderLoad() {}

  static JsonLine run(Workload.Size size) throws Exception {
    String query = FreshetWorkloads.groupBy(Workload.W6.keys());
    JsonLine calibration = FreshetWorkloads.throughput(Workload.W6, size, query, false);
    double max = calibration.number("rows_per_s");
    if (Double.isNaN(max)) {
      throw new IllegalStateException("W6's calibration measured no rate: " + calibration);
    }
    long rate = Math.max(1, (long) (max / 2));
    Path dataDir = Files.createTempDirectory("freshet-bench-");
    String url = "jdbc:freshet:dataDir=" + dataDir;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      // No end: the pace alone bounds the stream, which lasts as long as the probe.
      s.execute("CREATE STREAM nums (n BIGINT NOT NULL) WITH (connector = 'sequence',"
          + " 'rows.per.second' = '" + rate + "', 'rows.per.batch' = '" + size.rowsPerBatch()
          + "')");
      long start = System.nanoTime();
      s.execute("CREATE MATERIALIZED VIEW v AS " + query + " EMIT UPDATE");
      LatencyProbe.Result probe = LatencyProbe.run(() -> DriverManager.getConnection(url),
          size.latencySeconds());
      double seconds = (System.nanoTime() - start) / 1e9;
      JsonLine line = new JsonLine().put("max_rows_per_s", max).put("load_rows_per_s_target",
          (double) rate);
      loadBatches(s, seconds, line);
      Latencies l = probe.fromCommit();
      Latencies send = probe.fromSend();
      return line.put("samples", (long) l.count()).put("p50_ms", l.percentileMs(50))
          .put("p99_ms", l.percentileMs(99)).put("p999_ms", l.percentileMs(99.9))
          .put("max_ms", l.percentileMs(100)).put("from_send_p50_ms", send.percentileMs(50))
          .put("from_send_p99_ms", send.percentileMs(99))
          .put("from_send_p999_ms", send.percentileMs(99.9))
          .put("calibration_ms_per_batch", calibration.number("ms_per_batch"))
          .put("calibration_batch_ms", calibration.string("batch_ms"))
          .put("calibration_complete", calibration.string("complete"));
    } finally {
      FreshetWorkloads.deleteQuietly(dataDir);
    }
  }

  /**
   * The load view's batches: rows read per second of the run (the view's SUM of counts: the
   * progress table keeps only the last 100 batches), and the durations of those batches.
   */
  private static void loadBatches(Statement s, double seconds, JsonLine line) throws Exception {
    long rows;
    try (ResultSet rs = s.executeQuery("SELECT SUM(c) FROM v")) {
      rows = rs.next() ? rs.getLong(1) : 0;
    }
    long[] millis = new long[1024];
    int n = 0;
    try (ResultSet rs = s.executeQuery("SELECT NUM_INPUT_ROWS, DURATION_MS"
        + " FROM sys.query_progress WHERE NAME = 'V' ORDER BY BATCH_ID")) {
      while (rs.next()) {
        if (rs.getLong(1) > 0) {
          if (n == millis.length) {
            millis = java.util.Arrays.copyOf(millis, n * 2);
          }
          millis[n++] = rs.getLong(2) * 1_000_000L;
        }
      }
    }
    Latencies batches = new Latencies(millis, n);
    line.put("load_rows_per_s", rows / seconds).put("load_batches", (long) n)
        .put("load_batch_p50_ms", batches.percentileMs(50))
        .put("load_batch_p99_ms", batches.percentileMs(99))
        .put("load_batch_max_ms", batches.percentileMs(100));
  }
}

package dev.freshet.benchmarks.e2e;

import dev.freshet.server.FreshetServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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
 * Runs one workload on Freshet through its JDBC driver, in a JVM of its own, and prints its result.
 *
 * <p>Throughput workloads run as a materialized view in a data directory, so that every batch
 * writes its offset log, state delta, view result and commit log (issue 6 keeps checkpointing on).
 * Rows come from a sequence stream, generated inside the batch like Spark's rate-micro-batch source.
 *
 * <p>Usage: {@code FreshetWorkloads W1 warmupRows measuredRows rowsPerBatch latencySeconds}; W8
 * adds the broker's address and the topic.
 */
public final class FreshetWorkloads {
  private FreshetWorkloads() {}

  public static void main(String[] args) throws Exception {
    Workload workload = Workload.of(args[0]);
    Workload.Size size = Workload.Size.fromArgs(args, 1);
    JsonLine result = switch (workload) {
      case W1, W2 -> throughput(workload, size, groupBy(workload.keys()), false);
      case W4 -> throughput(workload, size, tumble(), true);
      case W5 -> heapPerStateRow(size);
      case W3 -> latency(size);
      case W6 -> UnderLoad.run(size);
      case W7 -> PullQueries.run(size);
      case W8 -> KafkaGroupBy.run(size, args[5], args[6]);
      case SOAK -> Soak.run(size);
      case PGCOPY -> PgCopyLatency.run(size);
    };
    System.out.println(JsonLine.RESULT_PREFIX + result.put("engine", "freshet")
        .put("workload", workload.name()));
    System.out.flush();
    // The engine's threads are not daemons; the JVM ends with the workload.
    System.exit(0);
  }

  static String groupBy(long keys) {
    return "SELECT n % " + keys + " AS k, COUNT(*) AS c, SUM(n) AS s FROM nums GROUP BY n % " + keys;
  }

  private static String tumble() {
    return "SELECT TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, n % 1000 AS k, COUNT(*) AS c,"
        + " SUM(n) AS s FROM nums GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), n % 1000";
  }

  private static String sequence(Workload.Size size, boolean eventTime) {
    // Without a pace, row i's event time is i ms: 1,000 rows per event-time second.
    String columns = eventTime
        ? "(n BIGINT NOT NULL, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
        : "(n BIGINT NOT NULL)";
    return "CREATE STREAM nums " + columns + " WITH (connector = 'sequence', 'end' = '"
        + size.totalRows() + "', 'rows.per.batch' = '" + size.rowsPerBatch() + "')";
  }

  static JsonLine throughput(Workload workload, Workload.Size size, String query, boolean eventTime)
      throws Exception {
    Path dataDir = Files.createTempDirectory("freshet-bench-");
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute(sequence(size, eventTime));
      long start = System.nanoTime();
      s.execute("CREATE MATERIALIZED VIEW v AS " + query + " EMIT UPDATE");
      boolean complete = awaitRows(s, size.totalRows(), DEADLINE_SECONDS);
      double wallSeconds = (System.nanoTime() - start) / 1e9;
      return measuredBatches(s, size).put("wall_s", wallSeconds)
          .put("rows_per_batch", size.rowsPerBatch()).put("complete", complete ? "yes" : "no");
    } finally {
      deleteQuietly(dataDir);
    }
  }

  /**
   * How long a throughput workload may run: a run that does not finish reports the batches it
   * completed (marked {@code "complete":"no"}) rather than holding up the others.
   */
  static final long DEADLINE_SECONDS = Long.getLong("freshet.bench.deadlineSeconds", 120);

  /** Waits until the view's query has read every row, reading its progress; false on timeout. */
  static boolean awaitRows(Statement s, long rows, long seconds) throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      try (ResultSet rs = s.executeQuery("SELECT LAST_ERROR FROM sys.queries WHERE NAME = 'V'")) {
        if (rs.next() && rs.getString(1) != null) {
          throw new IllegalStateException("The view's query failed: " + rs.getString(1));
        }
      }
      if (processedRows(s) >= rows) {
        return true;
      }
      // Each poll plans and compiles two queries, about 20 ms of CPU that the batches running
      // on the machine's two cores would miss (Spark's side reads a listener's counter): poll
      // once a second. The measured rates come from the batches' own durations, not this loop.
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
    }
    return false;
  }

  static long processedRows(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery(
        "SELECT SUM(NUM_INPUT_ROWS) FROM sys.query_progress WHERE NAME = 'V'")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /**
   * Rows per second over the batches that start after the warm-up: their input rows over the sum
   * of their durations, the measure the Spark side takes from its progress too.
   */
  private static JsonLine measuredBatches(Statement s, Workload.Size size) throws SQLException {
    long seen = 0;
    long rows = 0;
    long millis = 0;
    int batches = 0;
    long stateRows = 0;
    // Every batch's duration, warm-up included: a run cut short by the deadline still shows them.
    StringBuilder batchMillis = new StringBuilder();
    try (ResultSet rs = s.executeQuery("SELECT NUM_INPUT_ROWS, DURATION_MS, STATE_ROWS_TOTAL"
        + " FROM sys.query_progress WHERE NAME = 'V' ORDER BY BATCH_ID")) {
      while (rs.next()) {
        long input = rs.getLong(1);
        if (input > 0) {
          batchMillis.append(batchMillis.length() == 0 ? "" : " ").append(rs.getLong(2));
        }
        if (seen >= size.warmupRows() && input > 0) {
          rows += input;
          millis += rs.getLong(2);
          batches++;
        }
        seen += input;
        stateRows = rs.getLong(3);
      }
    }
    return new JsonLine().put("rows_per_s", millis == 0 ? Double.NaN : rows * 1000.0 / millis)
        .put("measured_rows", rows).put("batches", (long) batches)
        .put("ms_per_batch", batches == 0 ? Double.NaN : (double) millis / batches)
        .put("state_rows", stateRows).put("batch_ms", batchMillis.toString());
  }

  /**
   * Live heap per state row of W2: the heap after a full GC with the view's state loaded, less the
   * heap after a full GC before the view existed, over the state's rows.
   */
  static JsonLine heapPerStateRow(Workload.Size whole) throws Exception {
    // One batch that creates every key: what is measured is state, not a batch in flight.
    Workload.Size size = new Workload.Size(0, Workload.W2.keys(), Workload.W2.keys(), 0);
    Path dataDir = Files.createTempDirectory("freshet-bench-");
    try (Connection c = DriverManager.getConnection("jdbc:freshet:dataDir=" + dataDir);
         Statement s = c.createStatement()) {
      s.execute("SET 'state.store.provider' = 'memory'");
      s.execute(sequence(size, false));
      long before = liveHeap();
      s.execute("CREATE MATERIALIZED VIEW v AS " + groupBy(Workload.W2.keys()) + " EMIT UPDATE");
      if (!awaitRows(s, size.measuredRows(), DEADLINE_SECONDS)) {
        throw new IllegalStateException("W5's state did not load in " + DEADLINE_SECONDS + " s");
      }
      long after = liveHeap();
      long stateRows;
      try (ResultSet rs = s.executeQuery("SELECT STATE_ROWS FROM sys.queries WHERE NAME = 'V'")) {
        rs.next();
        stateRows = rs.getLong(1);
      }
      return new JsonLine().put("bytes_per_state_row", (double) (after - before) / stateRows)
          .put("state_rows", stateRows).put("heap_delta_mb", (after - before) / 1048576.0);
    } finally {
      deleteQuietly(dataDir);
    }
  }

  static long liveHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** W3, embedded and then remote, each over its own engine. */
  static JsonLine latency(Workload.Size size) throws Exception {
    JsonLine line = new JsonLine();
    LatencyProbe.Result embedded = LatencyProbe.run(
        () -> DriverManager.getConnection("jdbc:freshet:"), size.latencySeconds());
    put(line, "embedded_", embedded);
    try (FreshetServer server = FreshetServer.builder().port(0).start()) {
      String url = "jdbc:freshet:remote:url=" + server.url();
      LatencyProbe.Result remote = LatencyProbe.run(() -> DriverManager.getConnection(url),
          size.latencySeconds());
      put(line, "remote_", remote);
    }
    return line;
  }

  private static void put(JsonLine line, String prefix, LatencyProbe.Result result) {
    Latencies l = result.fromCommit();
    line.put(prefix + "from_send_p99_ms", result.fromSend().percentileMs(99));
    line.put(prefix + "samples", (long) l.count()).put(prefix + "p50_ms", l.percentileMs(50))
        .put(prefix + "p99_ms", l.percentileMs(99)).put(prefix + "p999_ms", l.percentileMs(99.9));
  }

  static void deleteQuietly(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A temp directory left behind is harmless; the result matters more.
    }
  }

  /** Opens a connection; lets the probe use the embedded and the remote driver alike. */
  @FunctionalInterface
  interface ConnectionFactory {
    Connection open() throws SQLException;
  }
}

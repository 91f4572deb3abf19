package dev.freshet.benchmarks.e2e;

import java.util.Locale;

/**
 * The workloads of issues 6, 15 and 16, defined once: both engines read their sizes from here.
 *
 * <p>Throughput workloads generate {@code warmupRows + measuredRows} rows in batches of
 * {@code rowsPerBatch}; only batches that start after the warm-up count. W6 uses the same three
 * sizes for its calibration (a W1-like run over its keys that measures the engine's maximum rate)
 * and {@code latencySeconds} for the latency it then measures at half that rate; W7 uses
 * {@code rowsPerBatch} for the view's batches and {@code latencySeconds} for its lookups.
 */
public enum Workload {
  /** 1,000 keys, COUNT and SUM, UPDATE mode, as fast as possible. */
  W1(1_000),
  /** W1 with 1,000,000 keys. */
  W2(1_000_000),
  /** Latency at 1,000 rows/s, from the INSERT's commit (or the row's generation) to next(). */
  W3(1_000),
  /** Tumbling 10 s windows with a 5 s watermark, 1,000 keys, UPDATE mode. */
  W4(1_000),
  /** Heap bytes per state row of W2, after a full GC. */
  W5(1_000_000),
  /**
   * Freshness under load: W3's push-query latency while the engine ingests at half its maximum
   * rate (measured first, W1-like, in the same JVM) over 100,000 keys.
   */
  W6(100_000),
  /**
   * Pull queries while the view updates: point lookups by key and full scans of a W2-like view of
   * 1,000,000 groups whose batches keep committing.
   */
  W7(1_000_000),
  /**
   * A Kafka topic of JSON rows (4 partitions, filled once by the harness) through a
   * {@code GROUP BY k} view of COUNT and SUM over 100,000 keys, from the earliest offset: rows
   * per second from the view's creation to its last row.
   */
  W8(100_000),
  /**
   * Issue 32's soak: rows inserted by JDBC in 1,000-row statements into a durable stream with
   * {@code 'retention' = '0'}, through a GROUP BY view of 1,000 keys, in a JVM of
   * {@code -Xmx512m}; then a restart ({@link Soak}). Freshet only.
   */
  SOAK(1_000),
  /**
   * Issue 34's live latency: from an INSERT to psql printing the view's changed row, psql
   * running {@code COPY (SELECT STREAM * FROM v) TO STDOUT} against the PostgreSQL endpoint
   * ({@link PgCopyLatency}); 1,000 INSERTs after 100 of warm-up. Freshet only.
   */
  PGCOPY(10);

  private final long keys;

  Workload(long keys) {
    this.keys = keys;
  }

  public long keys() {
    return keys;
  }

  public static Workload of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** Sizes of one run; the harness passes them to each engine's JVM as arguments. */
  public record Size(long warmupRows, long measuredRows, long rowsPerBatch, int latencySeconds) {
    public long totalRows() {
      return warmupRows + measuredRows;
    }

    public String[] toArgs() {
      return new String[] {Long.toString(warmupRows), Long.toString(measuredRows),
          Long.toString(rowsPerBatch), Integer.toString(latencySeconds)};
    }

    public static Size fromArgs(String[] args, int from) {
      return new Size(Long.parseLong(args[from]), Long.parseLong(args[from + 1]),
          Long.parseLong(args[from + 2]), Integer.parseInt(args[from + 3]));
    }
  }
}

package dev.freshet.benchmarks.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * W7 on Freshet, pull queries while the view updates: a W2-like materialized view (1,000,000
 * groups, COUNT and SUM by key) over an unpaced sequence stream keeps committing 1M-row batches,
 * while one client thread looks up random keys through a {@code PreparedStatement}
 * ({@code SELECT c, s FROM v WHERE k = ?}) about 1,000 times a second and, every
 * {@value #SCAN_EVERY_SECONDS} s, scans the whole view ({@code SELECT SUM(c) FROM v}).
 *
 * <p>The lookups start once the first batch has committed (every group exists), and are measured
 * after {@value #WARMUP_SECONDS} s of warm-up; a lookup's latency is its call, from
 * {@code executeQuery} to the end of its result. A full scan is {@code SUM(c)}, not
 * {@code COUNT(*)}, because a database can count rows from its metadata without reading them; its
 * result is also the number of rows some committed batch had read. Lookups wait for the next
 * millisecond of their schedule, and do not catch up on the ones a scan delayed. When calls are
 * slow the run lasts until it has measured {@value #MIN_SAMPLES} of each.
 */
final class PullQueries {
  private static final int WARMUP_SECONDS = 3;
  private static final int SCAN_EVERY_SECONDS = 2;
  /**
   * The fewest measured lookups and scans: when a call takes seconds, the run goes on past its
   * time (by at most {@value #OVERTIME_SECONDS} s) until it has these.
   */
  private static final int MIN_SAMPLES = 5;
  private static final int OVERTIME_SECONDS = 120;

  private PullQueries() {}

  static JsonLine run(Workload.Size size) throws Exception {
    long keys = Workload.W7.keys();
    Path dataDir = Files.createTempDirectory("freshet-bench-");
    String url = "jdbc:freshet:dataDir=" + dataDir;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE STREAM nums (n BIGINT NOT NULL) WITH (connector = 'sequence',"
          + " 'end' = '1000000000000', 'rows.per.batch' = '" + size.rowsPerBatch() + "')");
      s.execute("CREATE MATERIALIZED VIEW v AS " + FreshetWorkloads.groupBy(keys) + " EMIT UPDATE");
      if (!FreshetWorkloads.awaitRows(s, size.rowsPerBatch(), FreshetWorkloads.DEADLINE_SECONDS)) {
        throw new IllegalStateException("W7's first batch did not commit in "
            + FreshetWorkloads.DEADLINE_SECONDS + " s");
      }
      try (Connection reader = DriverManager.getConnection(url);
           PreparedStatement lookup = reader.prepareStatement("SELECT c, s FROM v WHERE k = ?");
           Statement scan = reader.createStatement()) {
        Sampler sampler = new Sampler(size.latencySeconds());
        long batchesBefore = batches(s);
        SplittableRandom random = new SplittableRandom(42);
        while (sampler.next()) {
          if (sampler.scanDue()) {
            long t0 = System.nanoTime();
            try (ResultSet rs = scan.executeQuery("SELECT SUM(c) FROM v")) {
              rs.next();
              sampler.scanned(System.nanoTime() - t0, rs.getLong(1));
            }
            continue;
          }
          lookup.setLong(1, random.nextLong(keys));
          long t0 = System.nanoTime();
          boolean found;
          try (ResultSet rs = lookup.executeQuery()) {
            found = rs.next();
            if (found) {
              rs.getLong(1);
              rs.getLong(2);
            }
          }
          sampler.looked(System.nanoTime() - t0, found);
        }
        return sampler.result().put("batches_during", batches(s) - batchesBefore);
      }
    } finally {
      FreshetWorkloads.deleteQuietly(dataDir);
    }
  }

  private static long batches(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery(
        "SELECT MAX(BATCH_ID) FROM sys.query_progress WHERE NAME = 'V'")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** The schedule of W7's client thread and what it measured. */
  static final class Sampler {
    private final long start = System.nanoTime();
    private final long measureFrom = start + TimeUnit.SECONDS.toNanos(WARMUP_SECONDS);
    private final long end;
    private long due = start;
    private long nextScan = start;
    private long[] lookups = new long[1 << 16];
    private int lookupCount;
    private long missing;
    private long[] scans = new long[64];
    private int scanCount;
    private long lastSum;

    Sampler(int seconds) {
      end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
    }

    /** Waits for the next millisecond of the schedule; false once the run is over. */
    boolean next() {
      due += 1_000_000L;
      long now = System.nanoTime();
      if (due < now) {
        due = now;
      } else {
        LockSupport.parkNanos(due - now);
      }
      now = System.nanoTime();
      if (now < end) {
        return true;
      }
      return (lookupCount < MIN_SAMPLES || scanCount < MIN_SAMPLES)
          && now < end + TimeUnit.SECONDS.toNanos(OVERTIME_SECONDS);
    }

    boolean scanDue() {
      long now = System.nanoTime();
      if (now >= end && scanCount >= MIN_SAMPLES) {
        return false;
      }
      if (now >= end && lookupCount >= MIN_SAMPLES) {
        return true;
      }
      if (now < nextScan) {
        return false;
      }
      nextScan = now + TimeUnit.SECONDS.toNanos(SCAN_EVERY_SECONDS);
      return true;
    }

    void scanned(long nanos, long sum) {
      lastSum = sum;
      if (System.nanoTime() - nanos >= measureFrom) {
        if (scanCount == scans.length) {
          scans = java.util.Arrays.copyOf(scans, scanCount * 2);
        }
        scans[scanCount++] = nanos;
      }
    }

    void looked(long nanos, boolean found) {
      if (System.nanoTime() - nanos < measureFrom) {
        return;
      }
      if (!found) {
        missing++;
      }
      if (lookupCount == lookups.length) {
        lookups = java.util.Arrays.copyOf(lookups, lookupCount * 2);
      }
      lookups[lookupCount++] = nanos;
    }

    JsonLine result() {
      Latencies l = new Latencies(lookups, lookupCount);
      Latencies s = new Latencies(scans, scanCount);
      return new JsonLine().put("lookup_samples", (long) l.count())
          .put("lookup_p50_ms", l.percentileMs(50)).put("lookup_p99_ms", l.percentileMs(99))
          .put("lookup_p999_ms", l.percentileMs(99.9)).put("lookup_max_ms", l.percentileMs(100))
          .put("lookup_missing", missing).put("scan_samples", (long) s.count())
          .put("scan_p50_ms", s.percentileMs(50)).put("scan_max_ms", s.percentileMs(100))
          .put("scan_last_sum", lastSum);
    }
  }
}

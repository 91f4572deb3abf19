package dev.freshet.benchmarks.spark;

import static dev.freshet.benchmarks.spark.SparkWorkloads.percentile;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sum;

import dev.freshet.benchmarks.e2e.JsonLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;

/**
 * Issue 15's W6 and W7 on Spark: freshness under load, and pull queries while the result updates.
 *
 * <p>W6: Spark's maximum over 100,000 keys is measured first as W1's (rate-micro-batch, noop
 * sink, {@code triggerExecution}), then the {@code rate} source runs at half of it into the same
 * aggregation, whose {@code foreachBatch} collects the changed groups with each group's latest
 * generation time, as W3 does: latency from a group's newest row's generation to the collect's
 * return, and the batches' {@code triggerExecution}.
 *
 * <p>W7: W2's aggregation (1,000,000 groups) in complete mode into the memory sink, whose table
 * {@code spark.sql} queries while batches keep replacing it: a point lookup with a positional
 * parameter and a full scan ({@code SUM(c)}), on Freshet's schedule.
 */
final class SparkServing {
  private SparkServing() {}

  static JsonLine underLoad(SparkSession spark, long keys, long warmup, long measured,
      long perBatch, int seconds) throws Exception {
    JsonLine calibration =
        SparkWorkloads.throughput(spark, keys, warmup, measured, perBatch, false);
    // The rate as the line writes it (four significant digits), as the regex over it read it.
    double max = JsonLine.parse(calibration.toString()).number("rows_per_s");
    if (Double.isNaN(max)) {
      throw new IllegalStateException("W6's calibration measured no rate: " + calibration);
    }
    long rate = Math.max(1, (long) (max / 2));
    Path checkpoint = Files.createTempDirectory("spark-bench-");
    SparkWorkloads.Progress progress = new SparkWorkloads.Progress();
    spark.streams().addListener(progress);
    Samples latencies = new Samples();
    long warmupEnds = System.currentTimeMillis() + 5_000;
    VoidFunction2<Dataset<Row>, Long> collect = (batch, batchId) -> {
      List<Row> rows = batch.collectAsList();
      long now = System.currentTimeMillis();
      for (Row r : rows) {
        long generated = r.getTimestamp(1).getTime();
        if (generated >= warmupEnds) {
          latencies.add(now - generated);
        }
      }
    };
    StreamingQuery query = spark.readStream().format("rate").option("rowsPerSecond", rate)
        .option("numPartitions", 2).load()
        .groupBy(col("value").mod(lit(keys)).as("k"))
        .agg(max(col("timestamp")).as("ts"), count(lit(1)), sum(col("value")))
        .writeStream().outputMode("update").foreachBatch(collect)
        .option("checkpointLocation", checkpoint.toString()).start();
    Thread.sleep(5_000);
    int from = progress.batches.size();
    long start = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    int to = progress.batches.size();
    double elapsed = (System.nanoTime() - start) / 1e9;
    query.stop();
    spark.streams().removeListener(progress);
    long rows = 0;
    long[] batchMs = new long[Math.max(0, to - from)];
    for (int i = from; i < to; i++) {
      StreamingQueryProgress p = progress.batches.get(i);
      rows += p.numInputRows();
      batchMs[i - from] = p.durationMs().get("triggerExecution");
    }
    Arrays.sort(batchMs);
    long[] sorted = latencies.sorted();
    return new JsonLine().put("max_rows_per_s", max).put("load_rows_per_s_target", rate)
        .put("load_rows_per_s", rows / elapsed).put("load_batches", batchMs.length)
        .put("load_batch_p50_ms", percentile(batchMs, 50))
        .put("load_batch_p99_ms", percentile(batchMs, 99))
        .put("load_batch_max_ms", percentile(batchMs, 100))
        .put("samples", sorted.length).put("p50_ms", percentile(sorted, 50))
        .put("p99_ms", percentile(sorted, 99))
        .put("p999_ms", percentile(sorted, 99.9))
        .put("max_ms", percentile(sorted, 100));
  }

  static JsonLine pullQueries(SparkSession spark, long keys, long perBatch, int seconds)
      throws Exception {
    Path checkpoint = Files.createTempDirectory("spark-bench-");
    SparkWorkloads.Progress progress = new SparkWorkloads.Progress();
    spark.streams().addListener(progress);
    StreamingQuery query = spark.readStream().format("rate-micro-batch")
        .option("rowsPerBatch", perBatch).option("numPartitions", 2).load()
        .groupBy(col("value").mod(lit(keys)).as("k"))
        .agg(count(lit(1)).as("c"), sum(col("value")).as("s"))
        .writeStream().outputMode("complete").format("memory").queryName("w7")
        .option("checkpointLocation", checkpoint.toString()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SparkWorkloads.DEADLINE_SECONDS);
    while (progress.batches.isEmpty() && System.nanoTime() < deadline && query.isActive()) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    if (progress.batches.isEmpty()) {
      throw new IllegalStateException("W7's first batch did not commit", query.exception()
          .isDefined() ? query.exception().get() : null);
    }
    Samples lookups = new Samples();
    Samples scans = new Samples();
    long missing = 0;
    long lastSum = 0;
    SplittableRandom random = new SplittableRandom(42);
    long begin = System.nanoTime();
    long measureFrom = begin + TimeUnit.SECONDS.toNanos(3);
    long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
    long due = begin;
    long nextScan = begin;
    int batchesBefore = -1;
    while (true) {
      // Freshet's schedule: about one call a millisecond, no catching up after a slow one.
      due += 1_000_000L;
      long now = System.nanoTime();
      if (due < now) {
        due = now;
      } else {
        LockSupport.parkNanos(due - now);
      }
      now = System.nanoTime();
      // As Freshet's side: past its time, the run goes on until it has 5 lookups and 5 scans.
      boolean enough = lookups.count() >= 5 && scans.count() >= 5;
      if (now >= end && (enough || now >= end + TimeUnit.SECONDS.toNanos(120))) {
        break;
      }
      if (batchesBefore < 0 && now >= measureFrom) {
        batchesBefore = progress.batches.size();
      }
      boolean overtime = now >= end;
      if (overtime ? scans.count() < 5 && (lookups.count() >= 5 || now >= nextScan)
          : now >= nextScan) {
        nextScan = now + TimeUnit.SECONDS.toNanos(2);
        List<Row> sum = spark.sql("SELECT SUM(c) FROM w7").collectAsList();
        lastSum = sum.get(0).isNullAt(0) ? 0 : sum.get(0).getLong(0);
        if (now >= measureFrom) {
          scans.add(System.nanoTime() - now);
        }
        continue;
      }
      long key = random.nextLong(keys);
      List<Row> rows = spark.sql("SELECT c, s FROM w7 WHERE k = ?", new Object[] {key})
          .collectAsList();
      long took = System.nanoTime() - now;
      if (now >= measureFrom) {
        lookups.add(took);
        if (rows.isEmpty()) {
          missing++;
        }
      }
    }
    int batchesDuring = progress.batches.size() - Math.max(0, batchesBefore);
    query.stop();
    spark.streams().removeListener(progress);
    long[] l = lookups.sorted();
    long[] s = scans.sorted();
    return new JsonLine().put("lookup_samples", l.length)
        .put("lookup_p50_ms", percentile(l, 50) / 1e6)
        .put("lookup_p99_ms", percentile(l, 99) / 1e6)
        .put("lookup_p999_ms", percentile(l, 99.9) / 1e6)
        .put("lookup_max_ms", percentile(l, 100) / 1e6)
        .put("lookup_missing", missing).put("scan_samples", s.length)
        .put("scan_p50_ms", percentile(s, 50) / 1e6)
        .put("scan_max_ms", percentile(s, 100) / 1e6)
        .put("scan_last_sum", lastSum).put("batches_during", batchesDuring);
  }

  /** Samples added by one thread at a time, read after it is done. */
  static final class Samples {
    private long[] values = new long[1 << 12];
    private int count;

    synchronized void add(long value) {
      if (count == values.length) {
        values = Arrays.copyOf(values, count * 2);
      }
      values[count++] = value;
    }

    synchronized int count() {
      return count;
    }

    synchronized long[] sorted() {
      long[] s = Arrays.copyOf(values, count);
      Arrays.sort(s);
      return s;
    }
  }
}

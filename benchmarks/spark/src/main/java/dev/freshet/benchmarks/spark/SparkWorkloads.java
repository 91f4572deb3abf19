package dev.freshet.benchmarks.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.window;

import dev.freshet.benchmarks.e2e.JsonLine;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

/**
 * Runs one of issue 6's workloads on Spark Structured Streaming (local[2], 2 shuffle partitions,
 * HDFS-backed state store) in a JVM of its own, and prints its result as Freshet's side does.
 *
 * <p>Usage: {@code SparkWorkloads W1 keys warmupRows measuredRows rowsPerBatch latencySeconds}
 * (W8 adds the broker's address and the topic);
 * the harness passes the sizes so that both engines run the same workload. The result line is
 * built by hand: this module shares no code with the harness, whose classpath Spark must not see.
 */
public final class SparkWorkloads {
  static final long DEADLINE_SECONDS = Long.getLong("freshet.bench.deadlineSeconds", 120);

  private SparkWorkloads() {}

  public static void main(String[] args) throws Exception {
    String workload = args[0].toUpperCase(Locale.ROOT);
    long keys = Long.parseLong(args[1]);
    long warmup = Long.parseLong(args[2]);
    long measured = Long.parseLong(args[3]);
    long perBatch = Long.parseLong(args[4]);
    int latencySeconds = Integer.parseInt(args[5]);
    SparkSession spark = session();
    JsonLine result = switch (workload) {
      case "W1", "W2" -> throughput(spark, keys, warmup, measured, perBatch, false);
      case "W4" -> throughput(spark, keys, warmup, measured, perBatch, true);
      case "W5" -> heapPerStateRow(spark, keys);
      case "W3" -> latency(spark, keys, latencySeconds);
      case "W6" -> SparkServing.underLoad(spark, keys, warmup, measured, perBatch, latencySeconds);
      case "W7" -> SparkServing.pullQueries(spark, keys, perBatch, latencySeconds);
      case "W8" -> SparkKafka.groupBy(spark, warmup + measured, perBatch, args[6], args[7]);
      default -> throw new IllegalArgumentException("No workload " + workload);
    };
    System.out.println(JsonLine.RESULT_PREFIX + result.put("engine", "spark")
        .put("workload", workload));
    System.out.flush();
    spark.stop();
    System.exit(0);
  }

  static SparkSession session() {
    SparkSession spark = SparkSession.builder().master("local[2]").appName("freshet-benchmarks")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        // The notes' best configuration: FileSystem-based checkpoint manager on a chmod-free FS.
        .config("spark.sql.streaming.checkpointFileManagerClass",
            "org.apache.spark.sql.execution.streaming.checkpointing"
                + ".FileSystemBasedCheckpointFileManager")
        .config("spark.hadoop.fs.file.impl", NioLocalFileSystem.class.getName())
        .config("spark.sql.streaming.stateStore.providerClass",
            "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    return spark;
  }

  /** Collects every batch's progress: recentProgress keeps only the last 100. */
  static final class Progress extends StreamingQueryListener {
    final List<StreamingQueryProgress> batches = new CopyOnWriteArrayList<>();

    @Override public void onQueryStarted(QueryStartedEvent event) {}

    @Override public void onQueryProgress(QueryProgressEvent event) {
      batches.add(event.progress());
    }

    @Override public void onQueryIdle(QueryIdleEvent event) {}

    @Override public void onQueryTerminated(QueryTerminatedEvent event) {}

    long rows() {
      long n = 0;
      for (StreamingQueryProgress p : batches) {
        n += p.numInputRows();
      }
      return n;
    }
  }

  static JsonLine throughput(SparkSession spark, long keys, long warmup, long measured,
      long perBatch, boolean eventTime) throws Exception {
    Path checkpoint = Files.createTempDirectory("spark-bench-");
    Progress progress = new Progress();
    spark.streams().addListener(progress);
    Dataset<Row> source = spark.readStream().format("rate-micro-batch")
        .option("rowsPerBatch", perBatch).option("numPartitions", 2).load();
    Dataset<Row> result;
    if (eventTime) {
      // Row i's event time is i ms, as in Freshet's unpaced sequence stream. The source's own
      // timestamp gives every row of a batch the same time, so a batch would touch one window
      // instead of the hundred Freshet's batch touches: a different workload.
      result = source.withColumn("ts", expr("timestamp_millis(value)"))
          .withWatermark("ts", "5 seconds")
          .groupBy(window(col("ts"), "10 seconds"), col("value").mod(lit(keys)).as("k"))
          .agg(count(lit(1)), sum(col("value")));
    } else {
      result = source.groupBy(col("value").mod(lit(keys)).as("k"))
          .agg(count(lit(1)), sum(col("value")));
    }
    long start = System.nanoTime();
    StreamingQuery query = result.writeStream().outputMode("update").format("noop")
        .option("checkpointLocation", checkpoint.toString()).start();
    long deadline = start + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (progress.rows() < warmup + measured && System.nanoTime() < deadline
        && query.isActive()) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    boolean complete = progress.rows() >= warmup + measured;
    query.stop();
    double wall = (System.nanoTime() - start) / 1e9;
    long seen = 0;
    long rows = 0;
    long millis = 0;
    int batches = 0;
    long stateRows = 0;
    for (StreamingQueryProgress p : progress.batches) {
      long input = p.numInputRows();
      if (seen >= warmup && input > 0 && seen < warmup + measured) {
        rows += input;
        millis += p.durationMs().get("triggerExecution");
        batches++;
      }
      seen += input;
      if (p.stateOperators().length > 0) {
        stateRows = p.stateOperators()[0].numRowsTotal();
      }
    }
    spark.streams().removeListener(progress);
    return new JsonLine().put("rows_per_s", millis == 0 ? Double.NaN : rows * 1000.0 / millis)
        .put("measured_rows", rows).put("batches", batches)
        .put("ms_per_batch", batches == 0 ? Double.NaN : (double) millis / batches)
        .put("state_rows", stateRows).put("wall_s", wall)
        .put("rows_per_batch", perBatch)
        .put("complete", complete ? "yes" : "no");
  }

  /** Heap after a full GC with one batch's state of {@code keys} keys loaded, less before it. */
  static JsonLine heapPerStateRow(SparkSession spark, long keys) throws Exception {
    Path checkpoint = Files.createTempDirectory("spark-bench-");
    Progress progress = new Progress();
    spark.streams().addListener(progress);
    Dataset<Row> source = spark.readStream().format("rate-micro-batch")
        .option("rowsPerBatch", keys).option("numPartitions", 2).load();
    long before = liveHeap();
    // One batch that creates every key, then nothing for an hour: the state stays loaded.
    StreamingQuery query = source.groupBy(col("value").mod(lit(keys)).as("k"))
        .agg(count(lit(1)), sum(col("value")))
        .writeStream().outputMode("update").format("noop").trigger(Trigger.ProcessingTime("1 hour"))
        .option("checkpointLocation", checkpoint.toString()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (progress.batches.isEmpty() && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    long after = liveHeap();
    long stateRows = progress.batches.get(0).stateOperators()[0].numRowsTotal();
    query.stop();
    return new JsonLine().put("bytes_per_state_row", (double) (after - before) / stateRows)
        .put("state_rows", stateRows).put("heap_delta_mb", (after - before) / 1048576.0);
  }

  static long liveHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * W3: the rate source at 1,000 rows/s; each batch's foreachBatch collects the changed groups,
   * and each group's latest generation time, against the clock when the collect returns, gives a
   * row's latency from its generation to the client holding it.
   */
  static JsonLine latency(SparkSession spark, long keys, int seconds) throws Exception {
    Path checkpoint = Files.createTempDirectory("spark-bench-");
    List<Long> latencies = new CopyOnWriteArrayList<>();
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
    StreamingQuery query = spark.readStream().format("rate").option("rowsPerSecond", 1000)
        .option("numPartitions", 2).load()
        .groupBy(col("value").mod(lit(keys)).as("k")).agg(max(col("timestamp")).as("ts"))
        .writeStream().outputMode("update").foreachBatch(collect)
        .option("checkpointLocation", checkpoint.toString()).start();
    Thread.sleep(5_000 + seconds * 1000L);
    query.stop();
    long[] sorted = latencies.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    return new JsonLine().put("samples", sorted.length).put("p50_ms", percentile(sorted, 50))
        .put("p99_ms", percentile(sorted, 99)).put("p999_ms", percentile(sorted, 99.9));
  }

  static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

}

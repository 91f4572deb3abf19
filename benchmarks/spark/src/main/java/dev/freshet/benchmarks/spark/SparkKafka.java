package dev.freshet.benchmarks.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.from_json;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

import dev.freshet.benchmarks.e2e.JsonLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * W8 on Spark: the harness's Kafka topic of JSON rows through Spark's Kafka source
 * ({@code spark-sql-kafka-0-10}), {@code from_json}, and {@code GROUP BY k} with COUNT and SUM in
 * update mode to the {@code noop} sink, from the earliest offsets, with an AvailableNow trigger
 * (the query ends when it has read what the topic held at its start).
 *
 * <p>{@code maxOffsetsPerTrigger} is the run's batch size, as Freshet's
 * {@code 'scan.max-records-per-batch'}; {@code kafka.isolation.level} is {@code read_committed}
 * as Freshet's reader always is. Timed from {@code start()} to the listener seeing the batch that
 * brings the rows read to the topic's size.
 */
final class SparkKafka {
  static final long DEADLINE_SECONDS = Long.getLong("freshet.bench.kafkaDeadlineSeconds", 900);

  private SparkKafka() {}

  /** Notes when the rows read reach {@code rows}. */
  static final class LastRow extends StreamingQueryListener {
    private final SparkWorkloads.Progress progress = new SparkWorkloads.Progress();
    private final long rows;
    volatile long doneNanos;

    LastRow(long rows) {
      this.rows = rows;
    }

    @Override public void onQueryStarted(QueryStartedEvent event) {}

    @Override public void onQueryProgress(QueryProgressEvent event) {
      progress.onQueryProgress(event);
      if (doneNanos == 0 && progress.rows() >= rows) {
        doneNanos = System.nanoTime();
      }
    }

    @Override public void onQueryIdle(QueryIdleEvent event) {}

    @Override public void onQueryTerminated(QueryTerminatedEvent event) {}
  }

  static JsonLine groupBy(SparkSession spark, long rows, long perBatch, String bootstrapServers,
      String topic) throws Exception {
    Path checkpoint = Files.createTempDirectory("spark-bench-");
    LastRow listener = new LastRow(rows);
    spark.streams().addListener(listener);
    StructType schema = new StructType().add("id", DataTypes.LongType)
        .add("k", DataTypes.LongType).add("v", DataTypes.LongType);
    Dataset<Row> source = spark.readStream().format("kafka")
        .option("kafka.bootstrap.servers", bootstrapServers).option("subscribe", topic)
        .option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", perBatch)
        .option("kafka.isolation.level", "read_committed").load();
    Dataset<Row> result = source
        .select(from_json(col("value").cast("string"), schema).as("r")).select("r.*")
        .groupBy(col("k")).agg(count(lit(1)), sum(col("v")));
    long start = System.nanoTime();
    StreamingQuery query = result.writeStream().outputMode("update").format("noop")
        .trigger(Trigger.AvailableNow())
        .option("checkpointLocation", checkpoint.toString()).start();
    query.awaitTermination(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
    boolean complete = listener.doneNanos != 0;
    if (query.isActive()) {
      query.stop();
    }
    if (query.exception().isDefined()) {
      throw query.exception().get();
    }
    double seconds = ((complete ? listener.doneNanos : System.nanoTime()) - start) / 1e9;
    long read = 0;
    long millis = 0;
    int batches = 0;
    StringBuilder batchMillis = new StringBuilder();
    long stateRows = 0;
    for (StreamingQueryProgress p : listener.progress.batches) {
      if (p.numInputRows() == 0) {
        continue;
      }
      read += p.numInputRows();
      long ms = p.durationMs().get("triggerExecution");
      millis += ms;
      batches++;
      batchMillis.append(batchMillis.length() == 0 ? "" : " ").append(ms);
      if (p.stateOperators().length > 0) {
        stateRows = p.stateOperators()[0].numRowsTotal();
      }
    }
    spark.streams().removeListener(listener);
    return new JsonLine().put("rows_per_s", complete ? rows / seconds : Double.NaN)
        .put("to_last_row_s", seconds)
        .put("batch_rows_per_s",
            millis == 0 ? Double.NaN : read * 1000.0 / millis)
        .put("batches", batches)
        .put("batch_ms", batchMillis.toString())
        .put("rows", read)
        .put("state_rows", stateRows)
        .put("rows_per_batch", perBatch)
        .put("complete", complete ? "yes" : "no");
  }
}

package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.streaming.runtime.StreamingQueryWrapper;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.StreamingQueryProgress;

/**
 * A translated query running on Spark, its batches' rows delivered to a {@link BatchConsumer} in
 * the driver by {@code foreachBatch}, with its checkpoint (offsets, commits, state) in a given
 * directory.
 *
 * <pre>{@code
 * try (SparkContinuousQuery running = SparkContinuousQuery.start(query, checkpointDir,
 *     (batchId, rows) -> sink.apply(batchId, rows))) {
 *   running.processAllAvailable();
 * }
 * }</pre>
 */
public final class SparkContinuousQuery implements AutoCloseable {
  private final StreamingQuery query;

  private SparkContinuousQuery(StreamingQuery query) {
    this.query = query;
  }

  /**
   * Starts {@code query}; Spark checks it (e.g. an aggregation in APPEND without a watermark)
   * before it runs a job.
   *
   * @throws SQLException (42KDE) if Spark refuses the query
   */
  public static SparkContinuousQuery start(SparkQuery query, Path checkpoint,
      BatchConsumer consumer) throws SQLException {
    requireNonNull(consumer, "consumer");
    VoidFunction2<Dataset<Row>, Long> deliver =
        (batch, batchId) -> consumer.accept(batchId, batch.collectAsList());
    try {
      return new SparkContinuousQuery(query.result().writeStream()
          .outputMode(query.sparkOutputMode())
          .option("checkpointLocation", checkpoint.toString())
          .foreachBatch(deliver)
          .start());
    } catch (Exception e) {
      // Scala declares no checked exceptions: Spark's AnalysisException reaches Java undeclared.
      if (e instanceof AnalysisException || e instanceof TimeoutException) {
        throw SparkErrors.refusedBySpark(e);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * Waits until Spark has run every batch its sources and watermark call for.
   *
   * @throws SQLException if a batch failed (the query has then stopped)
   */
  public void processAllAvailable() throws SQLException {
    try {
      query.processAllAvailable();
    } catch (Exception e) {
      // Scala declares no checked exceptions: StreamingQueryException reaches Java undeclared.
      if (e instanceof StreamingQueryException) {
        throw SparkErrors.batchFailed(e);
      }
      throw (RuntimeException) e;
    }
  }

  /** Spark's progress reports of the last batches, oldest first. */
  public List<StreamingQueryProgress> recentProgress() {
    return List.of(query.recentProgress());
  }

  /**
   * Spark's physical plan of the last batch run, e.g. with {@code StateStoreRestore} and
   * {@code StateStoreSave} and the output mode for an aggregation; Spark has none before its
   * first batch.
   */
  public String explain() {
    // The public explain() prints to standard output; the text comes from the same method.
    return ((StreamingQueryWrapper) query).explainInternal(false);
  }

  /** The underlying Spark query. */
  public StreamingQuery sparkQuery() {
    return query;
  }

  /** Stops the query; its checkpoint stays, so that it can resume. */
  @Override public void close() throws TimeoutException {
    query.stop();
  }
}

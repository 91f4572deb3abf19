package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.spi.BatchProgress;
import dev.freshet.engine.spi.ViewProgressListener;
import dev.freshet.engine.spi.ViewStatus;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.streaming.runtime.StreamingQueryWrapper;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;

/**
 * A translated query running on Spark, its batches' rows delivered to a {@link BatchConsumer} in
 * the driver by {@code foreachBatch}, with its checkpoint (offsets, commits, state) in a given
 * directory, with Spark's progress in the SPI's terms ({@link BatchProgress}), each batch's handed
 * to a {@link ViewProgressListener}.
 *
 * <pre>{@code
 * try (SparkContinuousQuery running = SparkContinuousQuery.start(query, checkpointDir,
 *     (batchId, rows) -> sink.apply(batchId, rows), "CLICKS_PER_USER")) {
 *   running.processAllAvailable(Duration.ofSeconds(30));
 *   running.recentProgress();   // the last batches' BatchProgress
 * }
 * }</pre>
 */
public final class SparkContinuousQuery implements AutoCloseable {
  /**
   * How long the progress of a batch may take to reach this query's listener after Spark ran it:
   * Spark's listener bus delivers in milliseconds; this bounds a wait without a deadline.
   */
  private static final Duration LISTENER_DELAY = Duration.ofSeconds(30);

  private final StreamingQuery query;
  private final ProgressListener progress;
  private volatile boolean stopped;

  private SparkContinuousQuery(StreamingQuery query, ProgressListener progress) {
    this.query = query;
    this.progress = progress;
  }

  /** {@link #start(SparkQuery, Path, BatchConsumer, String)} without a name: named by its id. */
  public static SparkContinuousQuery start(SparkQuery query, Path checkpoint,
      BatchConsumer consumer) throws SQLException {
    return start(query, checkpoint, consumer, null);
  }

  /**
   * Starts {@code query} as Spark's query {@code name} (unique among the session's active
   * queries; null: none); Spark checks it (e.g. an aggregation in APPEND without a watermark)
   * before it runs a job.
   *
   * @throws SQLException (42KDE) if Spark refuses the query
   */
  public static SparkContinuousQuery start(SparkQuery query, Path checkpoint,
      BatchConsumer consumer, String name) throws SQLException {
    return start(query, checkpoint.toString(), consumer, name);
  }

  /**
   * As {@link #start(SparkQuery, Path, BatchConsumer, String)}, with the checkpoint at a location
   * Spark's Hadoop file systems know ({@code /shared/dir}, {@code hdfs://nn/ckpt/v},
   * {@code s3a://bucket/ckpt/v}): on a cluster, one that the driver and every executor reach.
   */
  public static SparkContinuousQuery start(SparkQuery query, String checkpointLocation,
      BatchConsumer consumer, String name) throws SQLException {
    return start(query, checkpointLocation, consumer, name, ViewProgressListener.NONE);
  }

  /**
   * As {@link #start(SparkQuery, String, BatchConsumer, String)}, handing each batch's progress
   * to {@code progress} as well, once, after the batch and before {@link #processAllAvailable}
   * sees it.
   */
  public static SparkContinuousQuery start(SparkQuery query, String checkpointLocation,
      BatchConsumer consumer, String name, ViewProgressListener progress) throws SQLException {
    requireNonNull(consumer, "consumer");
    VoidFunction2<Dataset<Row>, Long> deliver =
        (batch, batchId) -> consumer.accept(batchId, batch.collectAsList());
    DataStreamWriter<Row> writer = query.result().writeStream()
        .outputMode(query.sparkOutputMode())
        .option("checkpointLocation", checkpointLocation)
        .foreachBatch(deliver);
    if (name != null) {
      writer = writer.queryName(name);
    }
    // Listening before the start: the first batch may end before start() returns.
    ProgressListener listener = new ProgressListener(progress);
    var queries = query.result().sparkSession().streams();
    queries.addListener(listener);
    try {
      StreamingQuery started = writer.start();
      listener.follow(started.id());
      return new SparkContinuousQuery(started, listener);
    } catch (Exception e) {
      queries.removeListener(listener);
      // Scala declares no checked exceptions: Spark's AnalysisException reaches Java undeclared.
      if (e instanceof AnalysisException || e instanceof TimeoutException) {
        throw SparkErrors.refusedBySpark(e);
      }
      throw (RuntimeException) e;
    }
  }

  /** Spark's query id: kept in the checkpoint, so the same when the query resumes from it. */
  public String id() {
    return query.id().toString();
  }

  public String name() {
    return query.name() == null ? id() : query.name();
  }

  /** FAILED once a batch failed, ACTIVE while Spark runs the query, else STOPPED. */
  public ViewStatus status() {
    if (query.exception().isDefined()) {
      return ViewStatus.FAILED;
    }
    return query.isActive() && !stopped ? ViewStatus.ACTIVE : ViewStatus.STOPPED;
  }

  /**
   * The last batch Spark ran: from Spark's progress, where a trigger without data may report the
   * id of the batch to come, so only batches that ran count; -1 before the first.
   */
  public long lastBatchId() {
    org.apache.spark.sql.streaming.StreamingQueryProgress[] recent = query.recentProgress();
    for (int i = recent.length - 1; i >= 0; i--) {
      if (SparkProgress.ranABatch(recent[i])) {
        return recent[i].batchId();
      }
    }
    return progress.lastBatchId();
  }

  /** The failure of a batch as Freshet's SQLException (e.g. 22012 for a division by zero). */
  public Optional<Throwable> exception() {
    return query.exception().isDefined()
        ? Optional.of(SparkErrors.batchFailed(query.exception().get())) : Optional.empty();
  }

  /**
   * Waits until Spark has run every batch its sources and watermark call for.
   *
   * @throws SQLException if a batch failed (the query has then stopped)
   */
  public void processAllAvailable() throws SQLException {
    try {
      query.processAllAvailable();
      progress.awaitBatch(lastBatchId(), System.nanoTime() + LISTENER_DELAY.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // Scala declares no checked exceptions: StreamingQueryException reaches Java undeclared.
      if (e instanceof StreamingQueryException) {
        throw SparkErrors.batchFailed(e);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * Waits, at most {@code timeout}, until Spark has run every batch that the data available now
   * calls for, and their progress is in {@link #recentProgress()}.
   *
   * <p>Spark's own wait has no timeout, so it runs on a thread of its own that this one waits for
   * with the timeout, then interrupts: Spark's wait sleeps on a condition, which ends on the
   * interrupt, so no thread is left behind. Spark's wait returns also when the query stopped,
   * which this one then reports as false.
   */
  public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    FutureTask<Void> wait = new FutureTask<>(() -> {
      query.processAllAvailable();
      return null;
    });
    Thread waiter = new Thread(wait, "freshet-spark-wait-" + name());
    waiter.setDaemon(true);
    waiter.start();
    try {
      wait.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return false; // the query failed: exception() has why
    } finally {
      wait.cancel(true);
    }
    return query.isActive() && progress.awaitBatch(lastBatchId(), deadline);
  }

  /**
   * The progress of the last batches Spark ran ({@value ProgressListener#RETAINED}, oldest
   * first), whatever Spark's {@code spark.sql.streaming.numRecentProgressUpdates}.
   */
  public List<BatchProgress> recentProgress() {
    return progress.recent();
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

  /**
   * Stops the query, waiting for its batch thread as Spark does (up to
   * {@code spark.sql.streaming.stopTimeout}, by default without end); its checkpoint stays, so
   * that it can resume. Idempotent.
   */
  public void stop() {
    stopped = true;
    try {
      query.stop();
    } catch (TimeoutException e) {
      throw new IllegalStateException("Spark did not stop query " + name() + " within"
          + " spark.sql.streaming.stopTimeout; it stops when its batch ends", e);
    } finally {
      query.sparkSession().streams().removeListener(progress);
    }
  }

  /** {@link #stop()}. */
  @Override public void close() {
    stop();
  }
}

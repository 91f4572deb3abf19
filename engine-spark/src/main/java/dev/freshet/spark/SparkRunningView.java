package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.spi.RunningView;
import dev.freshet.engine.spi.ViewJob;
import dev.freshet.engine.spi.ViewStatus;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.spark.sql.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A view's query on Spark: translated when prepared, started by the engine, each batch's rows
 * turned into Freshet's values ({@link SparkRows}) and handed to the view's sink in the driver,
 * each batch's progress to the job's progress listener, which shows it under Freshet's query id
 * and the view's name, whatever Spark's own ids.
 *
 * <pre>{@code
 * RunningView view = runner.prepare(job);
 * view.start();
 * view.explain();   // Spark's physical plan: StateStoreRestore, StateStoreSave, output mode
 * }</pre>
 */
final class SparkRunningView implements RunningView {
  private final ViewJob job;
  private final SparkQuery query;
  private final SparkCheckpoint checkpoint;
  private final List<SparkSource> sources;
  private final Consumer<SparkRunningView> onStop;
  private final SparkRows rows;
  private volatile @Nullable SparkContinuousQuery running;
  private volatile boolean stopped;

  SparkRunningView(ViewJob job, SparkQuery query, SparkCheckpoint checkpoint,
      List<SparkSource> sources, Consumer<SparkRunningView> onStop) {
    this.job = requireNonNull(job, "job");
    this.query = requireNonNull(query, "query");
    this.checkpoint = requireNonNull(checkpoint, "checkpoint");
    this.sources = List.copyOf(sources);
    this.onStop = requireNonNull(onStop, "onStop");
    this.rows = SparkRows.of(query);
  }

  /**
   * Starts Spark's query, which resumes from its checkpoint if it has one.
   *
   * @throws IllegalStateException with the SQLException (42KDE) as its cause if Spark refuses
   *     the query
   */
  @Override public void start() {
    checkpoint.clearBeforeFirstBatch(
        query.result().sparkSession().sparkContext().hadoopConfiguration());
    try {
      // Spark's query names are unique among the session's active queries, which every
      // engine of the JVM shares: the view's name alone may be taken by another engine's view.
      running = SparkContinuousQuery.start(query, checkpoint.location(), this::deliver,
          job.view() + "-" + job.queryId(), job.progress());
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** Spark's {@code foreachBatch}, in the driver: the batch's rows into the view, once. */
  private void deliver(long batchId, List<Row> batch) throws SQLException {
    List<Object[]> values = new ArrayList<>(batch.size());
    for (Row row : batch) {
      values.add(rows.convert(row));
    }
    job.sink().addBatch(batchId, values);
  }

  @Override public String engine() {
    return SparkViewRunnerProvider.NAME;
  }

  @Override public ViewStatus status() {
    SparkContinuousQuery q = running;
    if (q == null) {
      return stopped ? ViewStatus.STOPPED : ViewStatus.ACTIVE;
    }
    return q.status();
  }

  /**
   * The last batch Spark ran in this run, or, before its first (a restart), the last one the
   * view applied: the batch its checkpoint resumes after.
   */
  @Override public long lastBatchId() {
    SparkContinuousQuery q = running;
    return Math.max(q == null ? -1 : q.lastBatchId(), job.sink().lastAppliedBatch());
  }

  @Override public Optional<Throwable> exception() {
    SparkContinuousQuery q = running;
    return q == null ? Optional.empty() : q.exception();
  }

  @Override public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    SparkContinuousQuery q = running;
    return q != null && q.processAllAvailable(timeout);
  }

  @Override public boolean awaitTermination(Duration timeout) throws InterruptedException {
    SparkContinuousQuery q = running;
    if (q == null) {
      return stopped;
    }
    try {
      return q.sparkQuery().awaitTermination(Math.max(1, timeout.toMillis()));
    } catch (Exception e) {
      if (e instanceof InterruptedException interrupted) {
        throw interrupted;
      }
      // Scala declares no checked exceptions: a failed query's StreamingQueryException ends
      // the wait; exception() has it.
      return true;
    }
  }

  /**
   * Spark's physical plan of the last batch (with {@code StateStoreRestore},
   * {@code StateStoreSave} and the output mode of an aggregation); before the first batch, the
   * plan Spark makes of the query's Dataset.
   */
  @Override public String explain() {
    SparkContinuousQuery q = running;
    if (q != null) {
      String plan = q.explain();
      if (!plan.startsWith(NO_PLAN_YET)) {
        return plan;
      }
    }
    // The Dataset does not know the mode it will run in: Spark prints Append for it.
    return "Spark's plan before its first batch; the query runs in " + query.sparkOutputMode()
        + " mode, which only the plan of a batch shows.\n"
        + query.result().queryExecution().explainString(
            org.apache.spark.sql.execution.SimpleMode$.MODULE$);
  }

  /** What Spark explains of a query before its first batch. */
  private static final String NO_PLAN_YET = "No physical plan";

  /** Stops Spark's query (its checkpoint stays) and releases the streams it read. Idempotent. */
  @Override public void stop() {
    stopped = true;
    SparkContinuousQuery q = running;
    try {
      if (q != null) {
        q.stop();
      }
    } finally {
      sources.forEach(SparkSource::close);
      onStop.accept(this);
      if (checkpoint.temporary()) {
        checkpoint.delete(query.result().sparkSession());
      }
    }
  }

  @Override public void deleteCheckpoint() {
    checkpoint.delete(query.result().sparkSession());
  }
}

package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.executor.runtime.StreamExecution;
import dev.freshet.executor.runtime.StreamingQuery;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;
import dev.freshet.engine.push.PushQuery;

/**
 * A continuous query registered in an {@link Engine}: a push query or the query that maintains a
 * materialized view, with what {@code SHOW QUERIES} tells about it.
 *
 * <pre>{@code
 * for (ContinuousQuery q : engine.continuousQueries()) {
 *   System.out.println(q.id() + " " + q.name() + " " + q.status() + " " + q.sql());
 * }
 * }</pre>
 *
 * <p>A push query leaves the engine's registry when it is stopped (its statement closed or
 * {@code STOP QUERY}); a view's query stays registered, stopped or failed, until the view is
 * dropped, so that its status and error remain visible.
 */
public final class ContinuousQuery implements StreamingQuery {
  /** Runs the batches: Freshet's own executor, or another engine's. */
  private final StreamExecution execution;
  private final String sql;
  private final OutputMode outputMode;
  private final @Nullable String viewName;
  /** Run after the execution has stopped: unregisters a push query, nothing for a view's. */
  private final Consumer<ContinuousQuery> onStop;

  /** The result a push query writes into; null for a view's query. */
  private final @Nullable PushQuery push;

  public ContinuousQuery(StreamExecution execution, String sql, OutputMode outputMode,
      @Nullable String viewName, Consumer<ContinuousQuery> onStop) {
    this(execution, sql, outputMode, viewName, onStop, null);
  }

  public ContinuousQuery(StreamExecution execution, String sql, OutputMode outputMode,
      @Nullable String viewName, Consumer<ContinuousQuery> onStop, @Nullable PushQuery push) {
    this.push = push;
    this.execution = requireNonNull(execution, "execution");
    this.sql = requireNonNull(sql, "sql");
    this.outputMode = requireNonNull(outputMode, "outputMode");
    this.viewName = viewName;
    this.onStop = requireNonNull(onStop, "onStop");
  }

  /** The statement that started the query, as the user wrote it. */
  public String sql() {
    return sql;
  }

  /** What each batch of the query emits. */
  public OutputMode outputMode() {
    return outputMode;
  }

  /** The materialized view the query maintains, or empty for a push query. */
  public Optional<String> viewName() {
    return Optional.ofNullable(viewName);
  }

  /**
   * The result of a push query, e.g. to see how many rows its reader has not read yet; empty for
   * a view's query.
   *
   * <pre>{@code
   * int unread = query.pushResult().map(PushQuery::bufferedRows).orElse(0);
   * }</pre>
   */
  public Optional<PushQuery> pushResult() {
    return Optional.ofNullable(push);
  }

  public void start() {
    execution.start();
  }

  /**
   * Whether its batches are read as vector batches, the columnar path (docs/internals.md), not
   * as rows.
   */
  public boolean readsVectors() {
    return execution.readsVectors();
  }

  @Override public String id() {
    return execution.id();
  }

  @Override public String name() {
    return execution.name();
  }

  @Override public QueryStatus status() {
    return execution.status();
  }

  @Override public java.util.List<dev.freshet.executor.runtime.StreamingQueryProgress>
      recentProgress() {
    return execution.recentProgress();
  }

  /** The progress of the last batch, if one ran. */
  public java.util.Optional<dev.freshet.executor.runtime.StreamingQueryProgress> lastProgress() {
    return execution.lastProgress();
  }

  @Override public dev.freshet.executor.runtime.ProgressTotals progressTotals() {
    return execution.progressTotals();
  }

  @Override public long lastBatchId() {
    return execution.lastBatchId();
  }

  /**
   * {@inheritDoc}
   *
   * <p>A query that exceeded its memory budget shows the SQLException (53200) that says which
   * option raises it, with the executor's error as its cause.
   */
  @Override public Optional<Throwable> exception() {
    return execution.exception().map(e -> e instanceof MemoryBudgetExceededException memory
        ? StreamErrors.memoryBudgetExceeded(memory) : e);
  }

  /**
   * The restart the query is in or waits for while {@link QueryStatus#RESTARTING}: restarts since
   * its last committed batch, 0 while its batches commit.
   */
  public int restartAttempt() {
    return execution.restartAttempt();
  }

  /** Restarts after recoverable errors since the query started. */
  public long restarts() {
    return execution.restarts();
  }

  /**
   * The most recent failure: what a FAILED query failed with ({@link #exception()}), what a
   * RESTARTING one restarts after, or the last one an ACTIVE one recovered from.
   */
  public Optional<Throwable> lastFailure() {
    return status() == QueryStatus.FAILED ? exception() : execution.lastFailure();
  }

  /**
   * Waits until the query has stopped (by itself, with a bounded trigger, on request, or by
   * failing) or {@code timeout} passed; returns whether it stopped.
   */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return execution.awaitTermination(timeout);
  }

  @Override public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    return execution.processAllAvailable(timeout);
  }

  /**
   * Deletes what another engine keeps of the query outside Freshet's data directory (Spark's
   * checkpoint on shared storage): its view was dropped. Nothing for Freshet's own queries.
   * Only after {@link #stop()}.
   */
  public void deleteExternalCheckpoint() {
    if (execution instanceof ExternalExecution external) {
      external.view().deleteCheckpoint();
    }
  }

  /** Where the query runs: {@code freshet} (Freshet's own executor) or another engine's name. */
  public String engine() {
    return execution instanceof ExternalExecution external ? external.view().engine()
        : "freshet";
  }

  /** The engine's own plan of the query, if another engine runs it (e.g. Spark's). */
  public Optional<String> externalPlan() {
    return execution instanceof ExternalExecution external
        ? Optional.of(external.view().explain()) : Optional.empty();
  }

  @Override public void stop() {
    execution.stop();
    onStop.accept(this);
  }
}

package dev.freshet.engine.query;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.spi.BatchProgress;
import dev.freshet.engine.spi.RunningView;
import dev.freshet.engine.spi.ViewProgressListener;
import dev.freshet.executor.checkpoint.SourceOffset;
import dev.freshet.executor.runtime.MicroBatchExecution;
import dev.freshet.executor.runtime.ProgressTotals;
import dev.freshet.executor.runtime.QueryStatus;
import dev.freshet.executor.runtime.SinkProgress;
import dev.freshet.executor.runtime.SourceProgress;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamExecution;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A view's query that another engine runs ({@link RunningView}), as the engine registers, lists
 * and stops its own: under the view's query id and name, with each batch's progress as the
 * executor's records (the last {@value MicroBatchExecution#PROGRESS_RETAINED}) and totals over
 * every batch, which {@code sys.query_progress}, the web UI and {@code /metrics} read. The SPI's
 * types stop here.
 *
 * <pre>{@code
 * ExternalExecution execution = ExternalExecution.prepare(queryId, "PER_USER",
 *     progress -> runner.prepare(new ViewJob("PER_USER", queryId, plan, true, dir, sink,
 *         progress)));
 * execution.start();
 * execution.recentProgress();   // the view's batches as StreamingQueryProgress
 * }</pre>
 */
public final class ExternalExecution implements StreamExecution, ViewProgressListener {
  /** Prepares the other engine's query, given where it reports its batches' progress. */
  @FunctionalInterface
  public interface Preparation {
    RunningView prepare(ViewProgressListener progress) throws SQLException;
  }

  private final String id;
  private final String name;
  private final Object lock = new Object();
  private final ArrayDeque<StreamingQueryProgress> recent = new ArrayDeque<>();
  private ProgressTotals totals = ProgressTotals.NONE;
  /** Set once, by {@link #prepare}, before the query can report any batch. */
  private RunningView view;

  private ExternalExecution(String id, String name) {
    this.id = requireNonNull(id, "id");
    this.name = requireNonNull(name, "name");
  }

  /**
   * The query {@code preparation} makes, under Freshet's query {@code id} and the view's
   * {@code name}; nothing started yet.
   *
   * @throws SQLException if the other engine cannot run the query
   */
  public static ExternalExecution prepare(String id, String name, Preparation preparation)
      throws SQLException {
    ExternalExecution execution = new ExternalExecution(id, name);
    execution.view = requireNonNull(preparation.prepare(execution), "prepared view");
    return execution;
  }

  /** The other engine's query. */
  public RunningView view() {
    return view;
  }

  @Override public void onBatch(BatchProgress progress) {
    StreamingQueryProgress p = progress(progress, id, name);
    synchronized (lock) {
      totals = totals.plus(p);
      recent.addLast(p);
      if (recent.size() > MicroBatchExecution.PROGRESS_RETAINED) {
        recent.removeFirst();
      }
    }
  }

  /**
   * {@code p} as the progress of Freshet's query {@code id} named {@code name}: the other
   * engine's query has its own id and a name unique there.
   */
  public static StreamingQueryProgress progress(BatchProgress p, String id, String name) {
    List<StateOperatorProgress> operators = new ArrayList<>(p.stateOperators().size());
    for (BatchProgress.StateOperator op : p.stateOperators()) {
      operators.add(new StateOperatorProgress(op.operatorName(), op.numRowsTotal(),
          op.numRowsUpdated(), op.numRowsRemoved(), op.numRowsDroppedByWatermark(),
          op.numShufflePartitions()));
    }
    List<SourceProgress> sources = new ArrayList<>(p.sources().size());
    for (BatchProgress.Source source : p.sources()) {
      sources.add(new SourceProgress(source.description(), new SourceOffset(source.startOffset()),
          new SourceOffset(source.endOffset()), source.numInputRows(),
          source.inputRowsPerSecond(), source.processedRowsPerSecond()));
    }
    // The other engine drops no row on error: a failing row fails its batch.
    return new StreamingQueryProgress(id, name, p.batchId(), p.timestampMs(), p.numInputRows(),
        p.batchWatermarkMs(), p.durationMs(), p.numOutputRows(), 0, operators, p.runId(),
        p.inputRowsPerSecond(), p.processedRowsPerSecond(), p.eventTime(), sources,
        new SinkProgress(p.sinkDescription(), p.numOutputRows()));
  }

  @Override public StreamingQuery start() {
    view.start();
    return this;
  }

  @Override public String id() {
    return id;
  }

  @Override public String name() {
    return name;
  }

  @Override public QueryStatus status() {
    return switch (view.status()) {
      case ACTIVE -> QueryStatus.ACTIVE;
      case STOPPED -> QueryStatus.STOPPED;
      case FAILED -> QueryStatus.FAILED;
    };
  }

  @Override public long lastBatchId() {
    return view.lastBatchId();
  }

  @Override public Optional<Throwable> exception() {
    return view.exception();
  }

  @Override public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    return view.processAllAvailable(timeout);
  }

  @Override public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return view.awaitTermination(timeout);
  }

  @Override public List<StreamingQueryProgress> recentProgress() {
    synchronized (lock) {
      return List.copyOf(recent);
    }
  }

  @Override public Optional<StreamingQueryProgress> lastProgress() {
    synchronized (lock) {
      return Optional.ofNullable(recent.peekLast());
    }
  }

  @Override public ProgressTotals progressTotals() {
    synchronized (lock) {
      return totals;
    }
  }

  @Override public void stop() {
    view.stop();
  }
}

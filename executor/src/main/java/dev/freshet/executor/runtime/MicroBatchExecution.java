package dev.freshet.executor.runtime;

import dev.freshet.executor.checkpoint.RestartDecision;
import dev.freshet.executor.limits.QueryCancelledException;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.source.SupportsAdmissionControl;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.source.SupportsTimedAvailability;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a streaming query as a sequence of micro-batches on its own thread.
 *
 * <p>Each batch takes the source's offsets {@code (committed, latest]}, pushes those rows through
 * the operator pipeline, hands the output to the sink, and only then marks the range committed.
 * When there is no new data the thread waits for the source's new-data signal, or, for a source
 * whose data appears with time ({@link SupportsTimedAvailability}), until the source says the next
 * offset is due: it never spins. A source with {@link SupportsAdmissionControl} limits how much
 * one batch takes (except under {@link Trigger.Once}, which, as in Spark, takes everything), and
 * the rest follows in the next batches.
 *
 * <p>This class is the batch loop and the query's lifecycle, as Spark's
 * {@code MicroBatchExecution}; its parts are their own classes: {@link BatchReader} reads a
 * batch's offsets through the operators (in input tasks for a large batch of a source that
 * {@linkplain SupportsParallelReads can be read in slices}), {@link OffsetCommitLog} writes the
 * offset and commit logs, {@link ProgressReporter} builds each batch's progress, and
 * {@link InputStreams} asks the streams for offsets.
 *
 * <p>A query may read several streams (a join, a union: {@link StreamingPipeline#otherInputs()}).
 * Then each batch takes a range of offsets of every stream, recorded together in one offset log
 * entry, and reads the streams one after another on the batch thread, each into its own chain of
 * operators; a batch runs when any stream has new data.
 *
 * <p>Event time follows Spark: the watermark computed after batch {@code N - 1} is batch
 * {@code N}'s eviction watermark, and the previous batch's watermark its late-data watermark. When
 * the watermark advances far enough that a stateful operator would evict or finalize groups, a
 * batch runs even without new data. So does the clock, for a stream idle past its
 * {@code 'watermark.idle-timeout'} ({@link IdleWatermarks}): the watermark that batch records in
 * the offset log is the processing time minus the delay.
 *
 * <p>{@link #stop()} ends a batch that is running, not only the wait between batches: it cancels
 * the query's {@link QueryResources}, whose flag the read loop and the busy operators check every
 * so many rows; the batch is aborted, uncommitted, and the query stops. It does not interrupt the
 * thread, which would close the file channels of the checkpoint and of the state stores under a
 * write. {@code stop()} waits at most {@link #STOP_TIMEOUT} for the thread.
 *
 * <pre>{@code
 * MicroBatchExecution query = MicroBatchExecution.builder(id, name, pipeline, sink)
 *     .trigger(trigger)
 *     .checkpoint(checkpoint, pinnedConf)
 *     .build();
 * query.start();
 * }</pre>
 */
public final class MicroBatchExecution implements StreamExecution {
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);

  private final String id;
  private final String name;
  private final StreamingPipeline streamingPipeline;
  private final CollectOperator output;
  private final Sink sink;
  private final LongSupplier clock;
  private final Trigger trigger;
  /** Every stream the query reads, in the order of the offset log's entries. */
  private final InputStreams streams;
  private final BatchReader reader;
  /** Offset and commit logs; without a checkpoint they write nothing. */
  private final OffsetCommitLog logs;
  private final ProgressReporter progress;
  private final Thread thread;
  /** The query's cancellation flag and memory budget, in every batch's context. */
  private final QueryResources resources;
  /** When a recoverable failure restarts the query, and how often in a row. */
  private final RestartStrategy restartStrategy;
  /** When idle streams' watermarks follow the clock ({@code 'watermark.idle-timeout'}). */
  private final IdleWatermarks idleWatermarks;

  /** Status, committed offsets, stop and new-data signals; the monitor waits are on. */
  private final QueryLifecycle state;

  /**
   * The shortest wait for a source whose data appears with time, as Spark's
   * {@code pollingDelay}: without it, a query keeping up with a fast paced source would wake and
   * run a batch for every row.
   */
  static final long MIN_POLL_DELAY_MS = 10;

  /**
   * How long {@link #stop()} waits for the batch thread: a batch checks for the stop every few
   * thousand rows, so only a source or sink that blocks (an unreachable broker, a full disk)
   * takes longer, and then the caller goes on while the thread ends by itself.
   */
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  /** Number of progress records kept, as Spark's {@code numRecentProgressUpdates}. */
  public static final int PROGRESS_RETAINED = 100;

  /**
   * Starts building query {@code id}, shown as {@code name}, that runs {@code pipeline}'s
   * operators over its streams into {@code sink}; see {@link MicroBatchExecutionBuilder} for the
   * optional parts (trigger, checkpoint, budget, restarts, clock) and their defaults.
   */
  public static MicroBatchExecutionBuilder builder(String id, String name,
      StreamingPipeline pipeline, Sink sink) {
    return new MicroBatchExecutionBuilder(id, name, pipeline, sink);
  }

  /** Made by {@link MicroBatchExecutionBuilder#build()}. */
  MicroBatchExecution(MicroBatchExecutionBuilder b) {
    this.id = b.id;
    this.name = b.name;
    this.streamingPipeline = b.pipeline;
    this.sink = b.sink;
    this.clock = b.clock;
    this.trigger = b.trigger;
    this.resources = b.resources != null ? b.resources : QueryResources.unlimited(name);
    this.restartStrategy = b.restartStrategy;
    List<SourceInput> inputs = streamingPipeline.inputs();
    this.streams = new InputStreams(name, inputs, trigger);
    this.logs = new OffsetCommitLog(name, b.checkpoint, inputs, b.pinnedConf);
    this.reader = new BatchReader(streamingPipeline, resources);
    // As Spark's runId: new each time a query starts, also when it resumes with the same id.
    this.progress = new ProgressReporter(id, name, UUID.randomUUID().toString(),
        streamingPipeline, sink, logs);
    this.state = new QueryLifecycle(name, inputs.size());
    this.output = streamingPipeline.output();
    this.idleWatermarks = new IdleWatermarks(streamingPipeline.watermarks(), trigger);
    this.thread = new Thread(this::runBatches, "freshet-query-" + name);
    this.thread.setDaemon(true);
  }

  /** Starts the batch thread and returns this query. */
  @Override public StreamingQuery start() {
    state.start();
    // Before anyone asks a source for an offset: its metadata is the checkpoint's.
    logs.useMetadataDirectories();
    streams.queryStarted();
    thread.start();
    return this;
  }

  @Override public String id() {
    return id;
  }

  @Override public String name() {
    return name;
  }

  /**
   * Whether batches are read as vector batches ({@link StreamingPipeline#columnarInput()}), not
   * as rows.
   */
  @Override public boolean readsVectors() {
    return reader.columnarInput() != null;
  }

  @Override public QueryStatus status() {
    return state.status();
  }


  @Override public long lastBatchId() {
    return state.lastBatchId();
  }


  @Override public Optional<Throwable> exception() {
    return state.exception();
  }


  @Override public int restartAttempt() {
    return state.restartAttempt();
  }


  @Override public long restarts() {
    return state.restarts();
  }


  @Override public Optional<Throwable> lastFailure() {
    return state.lastFailure();
  }


  /**
   * {@inheritDoc}
   *
   * <p>It also waits for the batches without data that the watermark makes due, so that after it
   * returns the query is idle.
   */
  @Override public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    return state.processAllAvailable(streams.latestOffsets(), timeout);
  }

  /**
   * Waits until the query has stopped, by itself (a bounded trigger), on request, or by failure.
   *
   * @return whether it stopped within {@code timeout}
   */
  @Override public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return state.awaitTermination(timeout);
  }


  @Override public void stop() {
    // Before the lock, which the batch thread takes only between batches: a busy batch sees it.
    resources.cancel();
    if (state.requestStop()) {
      // Never started: no thread to end.
      streams.closeQueryReaders();
      sink.queryTerminated(null);
      return;
    }
    if (Thread.currentThread() != thread && thread.isAlive()) {
      boolean interrupted = false;
      long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
      for (long left = STOP_TIMEOUT.toNanos(); thread.isAlive() && left > 0;
          left = deadline - System.nanoTime()) {
        try {
          thread.join(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (thread.isAlive()) {
        LOG.warn("Query {} did not stop within {} s; it stops when its source or sink returns",
            name, STOP_TIMEOUT.toSeconds());
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The progress of the most recent batches, oldest first. */
  public List<StreamingQueryProgress> recentProgress() {
    return progress.recent();
  }

  @Override public ProgressTotals progressTotals() {
    return progress.totals();
  }

  /** The progress of the last batch, if one ran. */
  @Override public Optional<StreamingQueryProgress> lastProgress() {
    return progress.last();
  }

  private void runBatches() {
    Throwable failure = null;
    try (AutoCloseable registration = streams.onNewData(state::signalNewData)) {
      while (true) {
        try {
          runFromCheckpoint();
          break;
        } catch (QueryCancelledException stopped) {
          throw stopped;
        } catch (Throwable t) {
          Throwable fatal = state.restartAfter(t, restartStrategy, sink);
          if (fatal != null) {
            throw fatal;
          }
          if (state.isStopRequested()) {
            break;
          }
        }
      }
    } catch (QueryCancelledException stopped) {
      // stop() ended a running batch, which was aborted: a stop like any other.
    } catch (Throwable t) {
      failure = t;
      LOG.warn("Query {} failed", name, t);
    }
    resources.release();
    streams.closeQueryReaders();
    for (StatefulOperator op : streamingPipeline.statefulOperators()) {
      try {
        op.closeStores();
      } catch (RuntimeException e) {
        LOG.warn("Query {}: closing its state stores failed", name, e);
      }
    }
    // The sink hears first, so that whoever sees the final status knows the sink has too.
    sink.queryTerminated(failure);
    state.terminated(failure);
  }

  /**
   * Runs batches until the query stops or a bounded trigger's data is done: first the recovery
   * an engine restart makes (SEMANTICS.md §7.2), then batch after batch. Run again after a
   * restart; a query without a checkpoint resumes after its last committed batch.
   */
  private void runFromCheckpoint() throws InterruptedException {
    RestartDecision restart = logs.decideRestart();
    long batchId;
    long previousWatermark;
    batchId = state.lastBatchId() + 1;
    previousWatermark = state.committedWatermark();
    long lastBatchStartMs = 0;
    int batchesRun = 0;
    boolean resumed = batchId > 0;
    logs.restoreInitialOffsets();
    idleWatermarks.startClocks(clock.getAsLong());
    if (restart != null && !restart.isFreshStart()) {
      resumed = true;
      batchId = restart.batchId();
      previousWatermark = restart.previousBatchWatermarkMs();
      for (EventTimeWatermarkOperator w : streamingPipeline.watermarks()) {
        w.advanceTo(restart.watermarkMs());
      }
      long[] restoredStart = logs.restoreOffsets(restart.startOffsets());
      long[] restoredEnd = restart.rerun()
          ? logs.restoreOffsets(restart.endOffsets().orElseThrow()) : restoredStart;
      state.resumedAt(batchId, restoredStart);
      // The sources learn where the query resumes: what lies before is committed.
      streams.committed(restoredStart);
      logs.checkSourcesReach(restoredEnd, restart.rerun() ? batchId : batchId - 1);
      if (restart.rerun()) {
        // The batch was planned and maybe half done: run it again exactly as recorded.
        lastBatchStartMs = restart.batchTimestampMs().orElse(clock.getAsLong());
        long started = System.nanoTime();
        BatchContext batch = new BatchContext(batchId, lastBatchStartMs, previousWatermark,
            restart.watermarkMs(), resources);
        BatchRows counts = runBatch(batch, restoredStart, restoredEnd);
        commit(batch, restoredStart, restoredEnd, counts, started);
        previousWatermark = restart.watermarkMs();
        batchId++;
        batchesRun++;
      }
    }
    // Once and AvailableNow process what is there at start, and no more.
    long[] target = trigger.isBounded() ? streams.latestOffsets() : null;
    while (true) {
      long[] start = state.committedOffsets();
      logs.checkSourcesReach(start, batchId - 1);
      long[] end = streams.nextBatchEnds(start, target);
      long watermark = streamingPipeline.watermarkMs();
      boolean hasData = !Arrays.equals(start, end);
      boolean mayRunNoDataBatch = batchesRun > 0 || resumed;
      // A stream idle past its 'watermark.idle-timeout' lets the watermark follow the clock.
      long idleWatermark = hasData || !mayRunNoDataBatch ? watermark
          : idleWatermarks.watermarkAt(clock.getAsLong(), watermark);
      // A batch without data runs only to let the advanced watermark evict or finalize state.
      // Or to expire state whose TTL ran out: an idle query forgets its keys on time too.
      boolean noDataBatch = !hasData && mayRunNoDataBatch
          && (streams.needsNoDataBatch(idleWatermark)
              || nextStateExpiryMs() <= clock.getAsLong());
      if (trigger instanceof Trigger.Once && batchesRun > 0) {
        break;
      }
      if (!hasData && !noDataBatch) {
        if (trigger.isBounded() || !awaitWork(mayRunNoDataBatch)) {
          break;
        }
        continue;
      }
      if (batchesRun > 0 && !awaitTrigger(lastBatchStartMs)) {
        break;
      }
      if (state.isStopRequested()) {
        break;
      }
      // A batch takes everything that arrived by now, including during the trigger wait.
      end = streams.nextBatchEnds(start, target);
      lastBatchStartMs = clock.getAsLong();
      boolean idleAdvance = idleWatermark > watermark && Arrays.equals(start, end)
          && streams.needsNoDataBatch(idleWatermark);
      if (idleAdvance) {
        // Recorded in the offset log below, so that a restart replays this batch as it was.
        idleWatermarks.advance(lastBatchStartMs);
        watermark = streamingPipeline.watermarkMs();
      }
      long started = System.nanoTime();
      // Write-ahead: the batch's offsets, watermark and time are durable before it runs.
      logs.writeOffsets(batchId, watermark, lastBatchStartMs, end);
      BatchContext batch = new BatchContext(batchId, lastBatchStartMs, previousWatermark,
          watermark, resources);
      BatchRows counts = runBatch(batch, start, end);
      commit(batch, start, end, counts, started);
      previousWatermark = watermark;
      batchId++;
      batchesRun++;
      idleWatermarks.batchCommitted(!Arrays.equals(start, end), idleAdvance, stateRows());
    }
  }

  /**
   * The processing time at which a stateful operator's TTL may expire keys, {@link Long#MAX_VALUE}
   * for never: a batch without data runs then (see {@code StateExpiry}).
   */
  private long nextStateExpiryMs() {
    long next = Long.MAX_VALUE;
    for (StatefulOperator op : streamingPipeline.statefulOperators()) {
      next = Math.min(next, op.nextExpiryMs());
    }
    return next;
  }

  /** The rows in the state of every stateful operator after the last batch. */
  private long stateRows() {
    long rows = 0;
    for (StatefulOperator op : streamingPipeline.statefulOperators()) {
      rows += op.stateMetrics().numTotalStateRows();
    }
    return rows;
  }

  /** Rows a batch read, per stream, and rows it handed to the sink. */
  private record BatchRows(long[] inputs, long output) {}

  /** Runs the batch of offsets {@code (start, end]} through the pipeline into the sink. */
  private BatchRows runBatch(BatchContext batch, long[] start, long[] end) {
    long[] inputRows = reader.read(batch, start, end);
    List<Object[]> rows = output.takeRows();
    sink.addBatch(batch.batchId(), rows);
    return new BatchRows(inputRows, rows.size());
  }

  /**
   * Marks the batch done: in the commit log, in the progress (whose duration, like Spark's
   * {@code triggerExecution}, runs from before the offset log's write to after the commit log's),
   * then for waiting callers, who thus find its progress too.
   *
   * @param counts from {@link #runBatch}
   * @param startedNanos {@link System#nanoTime} before the batch's offsets were written
   */
  private void commit(BatchContext batch, long[] start, long[] end, BatchRows counts,
      long startedNanos) {
    long batchId = batch.batchId();
    logs.writeCommit(batchId, streamingPipeline.watermarkMs());
    sink.batchCommitted(batchId);
    progress.record(batch, start, end, counts.inputs(), counts.output(),
        (System.nanoTime() - startedNanos) / 1_000_000);
    state.committed(batchId, end, batch.evictionWatermarkMs());
    streams.committed(end);
  }

  /**
   * Waits until the trigger lets the batch after one started at {@code lastStartMs} begin;
   * returns false if the query was stopped meanwhile.
   */
  private boolean awaitTrigger(long lastStartMs) throws InterruptedException {
    if (!(trigger instanceof Trigger.ProcessingTime)) {
      return true;
    }
    long next = ((Trigger.ProcessingTime) trigger).nextAfter(lastStartMs);
    return state.sleepUntil(next, clock);
  }

  /**
   * Waits until a stream has data beyond its committed offset, or an idle stream's watermark
   * or a TTL makes a batch without data due; false if stop was requested. A stream wakes it by
   * its new-data signal or, if its data appears with time, the wait ends when its next offset is
   * due.
   */
  private boolean awaitWork(boolean mayRunNoDataBatch) throws InterruptedException {
    return state.awaitWork(new QueryLifecycle.WorkCheck() {
      @Override public boolean dataAhead(long[] committed) {
        return streams.anyAhead(committed);
      }

      @Override public boolean noDataBatchDue(boolean started) {
        if (mayRunNoDataBatch && idleWatermarks.batchDue(clock.getAsLong(),
            streamingPipeline.watermarkMs(), streams::needsNoDataBatch)) {
          return true;
        }
        // Before its first batch a query's operators have not read their state: none due.
        long expiry = started ? nextStateExpiryMs() : Long.MAX_VALUE;
        return expiry != Long.MAX_VALUE && expiry - clock.getAsLong() <= 0;
      }

      @Override public long millisUntilCheck(long[] committed, boolean started) {
        long now = clock.getAsLong();
        long expiry = started ? nextStateExpiryMs() : Long.MAX_VALUE;
        long due = expiry == Long.MAX_VALUE ? Long.MAX_VALUE : expiry - now;
        due = streams.millisUntilAvailable(committed, due);
        return mayRunNoDataBatch ? Math.min(due, idleWatermarks.millisUntilCheck(now)) : due;
      }
    });
  }
}

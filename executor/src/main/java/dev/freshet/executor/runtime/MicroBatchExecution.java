package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.checkpoint.Checkpoint;
import dev.freshet.executor.checkpoint.CheckpointException;
import dev.freshet.executor.checkpoint.CommitMetadata;
import dev.freshet.executor.checkpoint.OffsetSeq;
import dev.freshet.executor.checkpoint.RestartDecision;
import dev.freshet.executor.checkpoint.SourceOffset;
import dev.freshet.executor.limits.QueryCancelledException;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.ParallelTasks;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.source.QueryReader;
import dev.freshet.executor.source.SupportsCommits;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.source.SupportsAdmissionControl;
import dev.freshet.executor.source.SupportsColumnarReads;
import dev.freshet.executor.source.SupportsDroppedRecords;
import dev.freshet.executor.source.SupportsJsonOffsets;
import dev.freshet.executor.source.SupportsMetadataDirectory;
import dev.freshet.executor.source.SupportsParallelReads;
import dev.freshet.executor.source.SupportsPartitionedReads;
import dev.freshet.executor.source.SupportsTimedAvailability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
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
 * <p>A batch of a source that {@linkplain SupportsParallelReads can be read in slices} and a
 * pipeline with {@linkplain StreamingPipeline#extraInputTasks() input tasks} is read as one slice
 * per task at once, as Spark runs a task per input partition: the first on the batch thread, the
 * others on the pipeline's task executor. Batches of fewer than
 * {@value #MIN_ROWS_PER_INPUT_TASK} rows per task are read on the batch thread alone.
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
 */
public final class MicroBatchExecution implements StreamExecution {
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);

  private final String id;
  private final String name;
  /** The first (often the only) stream the query reads: the one input tasks may split. */
  private final Source source;
  /** Every stream the query reads, in the order of the offset log's entries. */
  private final List<SourceInput> inputs;
  private final StreamingPipeline streamingPipeline;
  private final Operator pipeline;
  private final CollectOperator output;
  private final Sink sink;
  private final LongSupplier clock;
  private final Trigger trigger;
  /** Offset and commit logs of a checkpointed query; null for a query that starts afresh. */
  private final Checkpoint checkpoint;
  /** Settings pinned in the offset log at the first batch, e.g. the number of state partitions. */
  private final Map<String, String> pinnedConf;
  private final Thread thread;
  /** The query's cancellation flag and memory budget, in every batch's context. */
  private final QueryResources resources;
  /** When a recoverable failure restarts the query, and how often in a row. */
  private final RestartStrategy restartStrategy;
  /** When idle streams' watermarks follow the clock ({@code 'watermark.idle-timeout'}). */
  private final IdleWatermarks idleWatermarks;

  /** Guards the fields below; also the monitor the batch thread waits on. */
  private final Object lock = new Object();
  private boolean newData;
  private boolean stopRequested;
  /** True while the batch thread waits for data: no batch, not even a no-data batch, is due. */
  private boolean idle;
  private QueryStatus status = QueryStatus.INITIALIZING;
  private Throwable error;
  /** Per stream, the end offset of the last committed batch. */
  private long[] committedOffsets;
  private long lastBatchId = -1;
  /** The most recent progress records, oldest first; at most {@link #PROGRESS_RETAINED}. */
  private final java.util.ArrayDeque<StreamingQueryProgress> progress = new java.util.ArrayDeque<>();
  /** Every batch of this run added up; replaced under {@link #lock} as each batch commits. */
  private ProgressTotals totals = ProgressTotals.NONE;
  /** Restarts since the last committed batch; 0 while batches commit. */
  private int restartAttempt;
  /** Restarts since the query started, also those it recovered from. */
  private long restarts;
  /** The most recent failure: the one being restarted from, the final one, or a past one. */
  private Throwable lastFailure;
  /** The watermark of the last committed batch: the late-data watermark of the next. */
  private long committedWatermark;

  /**
   * The shortest wait for a source whose data appears with time, as Spark's
   * {@code pollingDelay}: without it, a query keeping up with a fast paced source would wake and
   * run a batch for every row.
   */
  static final long MIN_POLL_DELAY_MS = 10;

  /**
   * The fewest rows worth an input task of their own: a smaller slice would cost about as much to
   * hand to another thread as to read. Latency-bound batches of a few rows stay on one thread.
   */
  static final long MIN_ROWS_PER_INPUT_TASK = 16_384;

  /**
   * How long {@link #stop()} waits for the batch thread: a batch checks for the stop every few
   * thousand rows, so only a source or sink that blocks (an unreachable broker, a full disk)
   * takes longer, and then the caller goes on while the thread ends by itself.
   */
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  /** Number of progress records kept, as Spark's {@code numRecentProgressUpdates}. */
  public static final int PROGRESS_RETAINED = 100;
  /**
   * Id of this run, in every progress record: as Spark's {@code runId}, new each time a query
   * starts, also when it resumes from its checkpoint with the same {@link #id}.
   */
  private final String runId = java.util.UUID.randomUUID().toString();

  /**
   * Creates a query; call {@link #start()} to run it.
   *
   * @param id query id
   * @param name display name
   * @param source the input
   * @param pipeline first operator; rows of the source are pushed into it
   * @param output last operator of the pipeline, whose rows go to the sink
   * @param sink receives each batch's output
   * @param clock processing-time clock in milliseconds
   */
  public MicroBatchExecution(String id, String name, Source source, Operator pipeline,
      CollectOperator output, Sink sink, LongSupplier clock) {
    this(id, name, StreamingPipeline.of(source, pipeline, output), sink, clock);
  }

  /**
   * Creates a query; call {@link #start()} to run it.
   *
   * @param id query id
   * @param name display name
   * @param pipeline the query's operators and source
   * @param sink receives each batch's output
   * @param clock processing-time clock in milliseconds
   */
  public MicroBatchExecution(String id, String name, StreamingPipeline pipeline, Sink sink,
      LongSupplier clock) {
    this(id, name, pipeline, sink, clock, Trigger.DEFAULT);
  }

  /**
   * Creates a query with a trigger; call {@link #start()} to run it.
   *
   * @param id query id
   * @param name display name
   * @param pipeline the query's operators and source
   * @param sink receives each batch's output
   * @param clock processing-time clock in milliseconds
   * @param trigger when batches start
   */
  public MicroBatchExecution(String id, String name, StreamingPipeline pipeline, Sink sink,
      LongSupplier clock, Trigger trigger) {
    this(id, name, pipeline, sink, clock, trigger, null, Map.of());
  }

  /**
   * Creates a checkpointed query; call {@link #start()} to run it. It resumes where the
   * checkpoint's logs say (SEMANTICS.md §7.2): after the last committed batch, or by re-running
   * an uncommitted one with exactly its recorded offsets, watermark and timestamp.
   *
   * @param id query id
   * @param name display name
   * @param pipeline the query's operators and source; its state stores must read the same
   *     checkpoint
   * @param sink receives each batch's output; must ignore a batch id it already has
   * @param clock processing-time clock in milliseconds
   * @param trigger when batches start
   * @param checkpoint the query's logs, or null for none
   * @param pinnedConf settings recorded in every offset log entry
   */
  public MicroBatchExecution(String id, String name, StreamingPipeline pipeline, Sink sink,
      LongSupplier clock, Trigger trigger, Checkpoint checkpoint, Map<String, String> pinnedConf) {
    this(id, name, pipeline, sink, clock, trigger, checkpoint, pinnedConf,
        QueryResources.unlimited(name));
  }

  /**
   * Creates a checkpointed query with a memory budget; call {@link #start()} to run it.
   *
   * @param id query id
   * @param name display name
   * @param pipeline the query's operators and source; its state stores must read the same
   *     checkpoint
   * @param sink receives each batch's output; must ignore a batch id it already has
   * @param clock processing-time clock in milliseconds
   * @param trigger when batches start
   * @param checkpoint the query's logs, or null for none
   * @param pinnedConf settings recorded in every offset log entry
   * @param resources the query's own: {@link #stop()} cancels them, and their budget bounds
   *     its state and batches
   */
  public MicroBatchExecution(String id, String name, StreamingPipeline pipeline, Sink sink,
      LongSupplier clock, Trigger trigger, Checkpoint checkpoint, Map<String, String> pinnedConf,
      QueryResources resources) {
    this(id, name, pipeline, sink, clock, trigger, checkpoint, pinnedConf, resources,
        RestartStrategy.NONE);
  }

  /**
   * Creates a checkpointed query with a memory budget and a restart policy; call
   * {@link #start()} to run it. A batch that fails with a {@linkplain RecoverableFailures
   * recoverable} error is aborted, the query shows {@link QueryStatus#RESTARTING} for the
   * strategy's backoff, its sink is {@linkplain Sink#restart() restarted}, and it resumes from
   * its checkpoint as after an engine restart (without one: from its last committed batch).
   *
   * @param restartStrategy how often and after how long; {@link RestartStrategy#NONE} fails at
   *     the first error
   * @see #MicroBatchExecution(String, String, StreamingPipeline, Sink, LongSupplier, Trigger,
   *     Checkpoint, Map, QueryResources)
   */
  public MicroBatchExecution(String id, String name, StreamingPipeline pipeline, Sink sink,
      LongSupplier clock, Trigger trigger, Checkpoint checkpoint, Map<String, String> pinnedConf,
      QueryResources resources, RestartStrategy restartStrategy) {
    this.restartStrategy = requireNonNull(restartStrategy, "restartStrategy");
    this.resources = requireNonNull(resources, "resources");
    this.checkpoint = checkpoint;
    this.pinnedConf = Map.copyOf(pinnedConf);
    this.trigger = requireNonNull(trigger, "trigger");
    this.id = requireNonNull(id, "id");
    this.name = requireNonNull(name, "name");
    this.streamingPipeline = requireNonNull(pipeline, "pipeline");
    this.source = pipeline.source();
    this.inputs = pipeline.inputs();
    this.committedOffsets = new long[inputs.size()];
    this.pipeline = pipeline.head();
    this.output = pipeline.output();
    this.sink = requireNonNull(sink, "sink");
    this.clock = requireNonNull(clock, "clock");
    this.idleWatermarks = new IdleWatermarks(pipeline.watermarks(), trigger);
    this.thread = new Thread(this::runBatches, "freshet-query-" + name);
    this.thread.setDaemon(true);
  }

  /** Starts the batch thread and returns this query. */
  @Override public StreamingQuery start() {
    synchronized (lock) {
      if (status != QueryStatus.INITIALIZING) {
        throw new IllegalStateException("query " + name + " was already started");
      }
      status = QueryStatus.ACTIVE;
    }
    for (int i = 0; checkpoint != null && i < inputs.size(); i++) {
      if (inputs.get(i).source() instanceof SupportsMetadataDirectory durable) {
        // Before anyone asks the source for an offset: its metadata is the checkpoint's.
        durable.useMetadataDirectory(checkpoint.sourceDirectory(i));
      }
    }
    for (SourceInput input : inputs) {
      if (input.source() instanceof SupportsCommits committing) {
        committing.queryStarted(name);
      }
    }
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
    return columnarInput() != null;
  }

  @Override public QueryStatus status() {
    synchronized (lock) {
      return status;
    }
  }

  @Override public long lastBatchId() {
    synchronized (lock) {
      return lastBatchId;
    }
  }

  @Override public Optional<Throwable> exception() {
    synchronized (lock) {
      return Optional.ofNullable(error);
    }
  }

  @Override public int restartAttempt() {
    synchronized (lock) {
      return restartAttempt;
    }
  }

  @Override public long restarts() {
    synchronized (lock) {
      return restarts;
    }
  }

  @Override public Optional<Throwable> lastFailure() {
    synchronized (lock) {
      return Optional.ofNullable(lastFailure);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>It also waits for the batches without data that the watermark makes due, so that after it
   * returns the query is idle.
   */
  @Override public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    long[] target = latestOffsets();
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while ((!reaches(committedOffsets, target) || !idle) && status.isRunning()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        Duration wait = Duration.ofNanos(left);
        lock.wait(Math.max(1, wait.toMillis()));
      }
      return reaches(committedOffsets, target);
    }
  }

  /** Whether every stream's offset in {@code offsets} is at least its {@code target}. */
  private static boolean reaches(long[] offsets, long[] target) {
    for (int i = 0; i < offsets.length; i++) {
      if (offsets[i] < target[i]) {
        return false;
      }
    }
    return true;
  }

  /** Every stream's latest offset. */
  private long[] latestOffsets() {
    long[] latest = new long[inputs.size()];
    for (int i = 0; i < latest.length; i++) {
      latest[i] = inputs.get(i).source().latestOffset();
    }
    return latest;
  }

  /**
   * Waits until the query has stopped, by itself (a bounded trigger), on request, or by failure.
   *
   * @return whether it stopped within {@code timeout}
   */
  @Override public boolean awaitTermination(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (status.isRunning() || status == QueryStatus.INITIALIZING) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        lock.wait(Math.max(1, Duration.ofNanos(left).toMillis()));
      }
      return true;
    }
  }

  @Override public void stop() {
    // Before the lock, which the batch thread takes only between batches: a busy batch sees it.
    resources.cancel();
    synchronized (lock) {
      stopRequested = true;
      lock.notifyAll();
      if (status == QueryStatus.INITIALIZING) {
        status = QueryStatus.STOPPED;
        closeQueryReaders();
        sink.queryTerminated(null);
        return;
      }
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
  public java.util.List<StreamingQueryProgress> recentProgress() {
    synchronized (lock) {
      return java.util.List.copyOf(progress);
    }
  }

  @Override public ProgressTotals progressTotals() {
    synchronized (lock) {
      return totals;
    }
  }

  /** The progress of the last batch, if one ran. */
  @Override public Optional<StreamingQueryProgress> lastProgress() {
    synchronized (lock) {
      return Optional.ofNullable(progress.peekLast());
    }
  }

  private void runBatches() {
    Throwable failure = null;
    try (AutoCloseable registration = onNewData()) {
      while (true) {
        try {
          runFromCheckpoint();
          break;
        } catch (QueryCancelledException stopped) {
          throw stopped;
        } catch (Throwable t) {
          Throwable fatal = restartAfter(t);
          if (fatal != null) {
            throw fatal;
          }
          if (isStopRequested()) {
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
    closeQueryReaders();
    for (StatefulOperator op : streamingPipeline.statefulOperators()) {
      try {
        op.closeStores();
      } catch (RuntimeException e) {
        LOG.warn("Query {}: closing its state stores failed", name, e);
      }
    }
    // The sink hears first, so that whoever sees the final status knows the sink has too.
    sink.queryTerminated(failure);
    synchronized (lock) {
      status = failure == null ? QueryStatus.STOPPED : QueryStatus.FAILED;
      error = failure;
      if (failure != null) {
        lastFailure = failure;
      }
      lock.notifyAll();
    }
  }

  /**
   * Restarts the query after {@code failure} if the strategy allows: waits the backoff as
   * {@link QueryStatus#RESTARTING}, then restarts the sink; a sink that fails to restart (its
   * target still away) is the next attempt's failure. The batch that failed was aborted.
   *
   * @return null if the batches are to resume, or the query was stopped meanwhile (the caller
   *     checks); else the final failure, the last of the attempts
   */
  private Throwable restartAfter(Throwable failure) throws InterruptedException {
    Throwable current = failure;
    while (true) {
      int attempt;
      synchronized (lock) {
        if (stopRequested) {
          return null;
        }
        if (restartAttempt >= restartStrategy.maxAttempts()
            || !restartStrategy.isRecoverable(current)) {
          return current;
        }
        attempt = ++restartAttempt;
        restarts++;
        lastFailure = current;
        status = QueryStatus.RESTARTING;
        lock.notifyAll();
      }
      Duration backoff = restartStrategy.backoff(attempt);
      LOG.warn("Query {} failed with a recoverable error; restart {} of {} in {} ms: {}", name,
          attempt, restartStrategy.maxAttempts(), backoff.toMillis(), current.toString());
      // Waits on the monitor, so that stop() ends the wait at once.
      long deadline = System.nanoTime() + backoff.toNanos();
      synchronized (lock) {
        for (long left = backoff.toNanos(); left > 0 && !stopRequested;
            left = deadline - System.nanoTime()) {
          lock.wait(Math.max(1, left / 1_000_000));
        }
        if (stopRequested) {
          return null;
        }
      }
      try {
        sink.restart();
      } catch (QueryCancelledException stopped) {
        return null;
      } catch (RuntimeException e) {
        current = e;
        continue;
      }
      synchronized (lock) {
        if (status == QueryStatus.RESTARTING) {
          status = QueryStatus.ACTIVE;
        }
      }
      return null;
    }
  }

  /**
   * Runs batches until the query stops or a bounded trigger's data is done: first the recovery
   * an engine restart makes (SEMANTICS.md §7.2), then batch after batch. Run again after a
   * restart; a query without a checkpoint resumes after its last committed batch.
   */
  private void runFromCheckpoint() throws InterruptedException {
    RestartDecision restart = checkpoint == null ? null
        : RestartDecision.decide(checkpoint, inputs.size(), pinnedConf);
    long batchId;
    long previousWatermark;
    synchronized (lock) {
      batchId = lastBatchId + 1;
      previousWatermark = committedWatermark;
    }
    long lastBatchStartMs = 0;
    int batchesRun = 0;
    boolean resumed = batchId > 0;
    restoreInitialOffsets();
    idleWatermarks.startClocks(clock.getAsLong());
    if (restart != null && !restart.isFreshStart()) {
      resumed = true;
      batchId = restart.batchId();
      previousWatermark = restart.previousBatchWatermarkMs();
      for (EventTimeWatermarkOperator w : streamingPipeline.watermarks()) {
        w.advanceTo(restart.watermarkMs());
      }
      long[] restoredStart = restoreOffsets(restart.startOffsets());
      long[] restoredEnd = restart.rerun()
          ? restoreOffsets(restart.endOffsets().orElseThrow()) : restoredStart;
      synchronized (lock) {
        committedOffsets = restoredStart.clone();
        lastBatchId = batchId - 1;
      }
      // The sources learn where the query resumes: what lies before is committed.
      tellSourcesCommitted(restoredStart);
      checkSourcesReach(restoredEnd, restart.rerun() ? batchId : batchId - 1);
      if (restart.rerun()) {
        // The batch was planned and maybe half done: run it again exactly as recorded.
        lastBatchStartMs = restart.batchTimestampMs().orElse(clock.getAsLong());
        long started = System.nanoTime();
        BatchContext batch = new BatchContext(batchId, lastBatchStartMs, previousWatermark,
            restart.watermarkMs(), resources);
        RowCounts counts = runBatch(batch, restoredStart, restoredEnd);
        commit(batch, restoredStart, restoredEnd, counts, started);
        previousWatermark = restart.watermarkMs();
        batchId++;
        batchesRun++;
      }
    }
    // Once and AvailableNow process what is there at start, and no more.
    long[] target = trigger.isBounded() ? latestOffsets() : null;
    while (true) {
      long[] start = committedOffsetsSnapshot();
      checkSourcesReach(start, batchId - 1);
      long[] end = nextBatchEnds(start, target);
      long watermark = streamingPipeline.watermarkMs();
      boolean hasData = !Arrays.equals(start, end);
      boolean mayRunNoDataBatch = batchesRun > 0 || resumed;
      // A stream idle past its 'watermark.idle-timeout' lets the watermark follow the clock.
      long idleWatermark = hasData || !mayRunNoDataBatch ? watermark
          : idleWatermarks.watermarkAt(clock.getAsLong(), watermark);
      // A batch without data runs only to let the advanced watermark evict or finalize state.
      // Or to expire state whose TTL ran out: an idle query forgets its keys on time too.
      boolean noDataBatch = !hasData && mayRunNoDataBatch
          && (needsNoDataBatch(idleWatermark) || nextStateExpiryMs() <= clock.getAsLong());
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
      if (isStopRequested()) {
        break;
      }
      // A batch takes everything that arrived by now, including during the trigger wait.
      end = nextBatchEnds(start, target);
      lastBatchStartMs = clock.getAsLong();
      boolean idleAdvance = idleWatermark > watermark && Arrays.equals(start, end)
          && needsNoDataBatch(idleWatermark);
      if (idleAdvance) {
        // Recorded in the offset log below, so that a restart replays this batch as it was.
        idleWatermarks.advance(lastBatchStartMs);
        watermark = streamingPipeline.watermarkMs();
      }
      long started = System.nanoTime();
      if (checkpoint != null) {
        // Write-ahead: the batch's offsets, watermark and time are durable before it runs.
        if (!checkpoint.offsetLog().add(batchId,
            new OffsetSeq(watermark, lastBatchStartMs, pinnedConf, sourceOffsets(end)))) {
          throw CheckpointException.concurrentUpdate(checkpoint.offsetLog().batchFile(batchId));
        }
        checkpoint.retain();
      }
      BatchContext batch = new BatchContext(batchId, lastBatchStartMs, previousWatermark,
          watermark, resources);
      RowCounts counts = runBatch(batch, start, end);
      commit(batch, start, end, counts, started);
      previousWatermark = watermark;
      batchId++;
      batchesRun++;
      idleWatermarks.batchCommitted(!Arrays.equals(start, end), idleAdvance, stateRows());
    }
  }

  /** Closes the query's own readers (their connections and threads), not streams others read. */
  private void closeQueryReaders() {
    for (SourceInput input : inputs) {
      if (input.source() instanceof QueryReader reader) {
        reader.close();
      }
    }
  }

  /** Registers for every stream's new-data signal; closing the result unregisters them all. */
  private AutoCloseable onNewData() throws Exception {
    List<AutoCloseable> registrations = new ArrayList<>();
    try {
      for (SourceInput input : inputs) {
        registrations.add(input.source().onNewData(this::signalNewData));
      }
    } catch (Exception | Error e) {
      closeAll(registrations);
      throw e;
    }
    return () -> closeAll(registrations);
  }

  private static void closeAll(List<AutoCloseable> registrations) throws Exception {
    Exception first = null;
    for (AutoCloseable r : registrations) {
      try {
        r.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
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

  /** Whether the watermark {@code watermark} makes a batch without data due in any chain. */
  private boolean needsNoDataBatch(long watermark) {
    for (SourceInput input : inputs) {
      if (input.head().needsNoDataBatch(watermark)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes each source with JSON offsets start where it started when the query first ran:
   * recorded in the checkpoint by the first run, taken back by every later one. A query without
   * a checkpoint starts wherever its sources start.
   */
  private void restoreInitialOffsets() {
    for (int i = 0; checkpoint != null && i < inputs.size(); i++) {
      if (inputs.get(i).source() instanceof SupportsJsonOffsets json) {
        SourceOffset initial = checkpoint.recordInitialOffset(i,
            new SourceOffset(json.offsetJson(0)));
        json.restoreInitialOffset(initial.json());
      }
    }
  }

  /** The offset log's form of every stream's offset in {@code offsets}. */
  private List<SourceOffset> sourceOffsets(long[] offsets) {
    List<SourceOffset> recorded = new ArrayList<>(offsets.length);
    for (int i = 0; i < offsets.length; i++) {
      recorded.add(sourceOffset(i, offsets[i]));
    }
    return recorded;
  }

  /** The offset log's form of stream {@code i}'s offset {@code offset}. */
  private SourceOffset sourceOffset(int i, long offset) {
    return inputs.get(i).source() instanceof SupportsJsonOffsets json
        ? new SourceOffset(json.offsetJson(offset)) : SourceOffset.of(offset);
  }

  /** Every stream's offset for what the offset log recorded. */
  private long[] restoreOffsets(List<SourceOffset> recorded) {
    long[] offsets = new long[inputs.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = restoreOffset(inputs.get(i).source(), recorded.get(i));
    }
    return offsets;
  }

  /** The source's offset for what the offset log recorded. */
  private static long restoreOffset(Source source, SourceOffset recorded) {
    if (source instanceof SupportsJsonOffsets json) {
      // A recorded 0 ("-" or a query that read nothing yet) is where the source starts.
      return recorded.asLong().isPresent() && recorded.asLong().getAsLong() == 0
          ? 0 : json.restoreOffset(recorded.json());
    }
    return recorded.asLong().orElseThrow(() -> new IllegalStateException("Source "
        + source.description() + " records its offsets as whole numbers, but the checkpoint"
        + " has " + recorded.json()));
  }

  /** Rows a batch read, per stream, and rows it handed to the sink. */
  private record RowCounts(long[] inputs, long output) {
    long input() {
      long rows = 0;
      for (long n : inputs) {
        rows += n;
      }
      return rows;
    }
  }

  /** Runs the batch of offsets {@code (start, end]} through the pipeline into the sink. */
  private RowCounts runBatch(BatchContext batch, long[] start, long[] end) {
    long[] inputRows = inputs.size() == 1
        ? new long[] {runOneStream(batch, start[0], end[0])}
        : runStreams(batch, start, end);
    List<Object[]> rows = output.takeRows();
    sink.addBatch(batch.batchId(), rows);
    return new RowCounts(inputRows, rows.size());
  }

  /** Reads a batch of the one stream, in input tasks if it is large; returns its rows. */
  private long runOneStream(BatchContext batch, long start, long end) {
    List<Operator> extraTasks = streamingPipeline.extraInputTasks();
    long inputRows;
    pipeline.startBatch(batch);
    try {
      for (Operator task : extraTasks) {
        task.startBatch(batch);
      }
      int tasks = inputTasksFor(start, end);
      inputRows = tasks == 1 ? readOnBatchThread(start, end) : readInTasks(start, end, tasks);
      // The copies first: their event times reach the watermark before the aggregation ends.
      for (Operator task : extraTasks) {
        task.finishBatch(batch);
      }
      pipeline.finishBatch(batch);
    } catch (RuntimeException | Error e) {
      for (Operator task : extraTasks) {
        task.abortBatch(batch);
      }
      pipeline.abortBatch(batch);
      throw e;
    }
    return inputRows;
  }

  /**
   * Reads a batch of several streams, one after another on the batch thread, each into its own
   * chain; every chain starts and finishes the batch, also when its stream has no new rows.
   */
  private long[] runStreams(BatchContext batch, long[] start, long[] end) {
    long[] rows = new long[inputs.size()];
    try {
      for (SourceInput input : inputs) {
        input.head().startBatch(batch);
      }
      for (int i = 0; i < rows.length; i++) {
        SourceInput input = inputs.get(i);
        RowsInto into = new RowsInto(input.head(), resources);
        if (end[i] > start[i]) {
          input.source().readRange(start[i], end[i], into);
        }
        rows[i] = into.count;
      }
      for (SourceInput input : inputs) {
        input.head().finishBatch(batch);
      }
    } catch (RuntimeException | Error e) {
      for (SourceInput input : inputs) {
        input.head().abortBatch(batch);
      }
      throw e;
    }
    return rows;
  }

  /**
   * How many input tasks read the batch of offsets {@code (start, end]}: one unless the source
   * can be read in slices and each slice has at least {@link #MIN_ROWS_PER_INPUT_TASK} rows.
   */
  private int inputTasksFor(long start, long end) {
    if (streamingPipeline.inputTasks() == 1 || end - start < 2 * MIN_ROWS_PER_INPUT_TASK) {
      return 1;
    }
    if (source instanceof SupportsPartitionedReads partitioned) {
      // Offsets of such a source count its records (and a few markers) too.
      return Math.max(1, Math.min(streamingPipeline.inputTasks(),
          partitioned.inputPartitions(start, end)));
    }
    if (!(source instanceof SupportsParallelReads)) {
      return 1;
    }
    long slices = (end - start) / MIN_ROWS_PER_INPUT_TASK;
    return (int) Math.max(1, Math.min(streamingPipeline.inputTasks(), slices));
  }

  private long readOnBatchThread(long start, long end) {
    ColumnarInput columnar = columnarInput();
    if (columnar != null) {
      return columnar.read((SupportsColumnarReads) source, 0, start, end, resources);
    }
    RowsInto rows = new RowsInto(pipeline, resources);
    source.readRange(start, end, rows);
    return rows.count;
  }

  /**
   * Pushes a source's rows into an operator and counts them. Every read, on any thread, goes
   * through this one class, so that the source's per-row call has one target the JIT can inline.
   * Every {@value #CANCEL_CHECK_EVERY} rows it checks whether the query was stopped.
   */
  private static final class RowsInto implements Consumer<Object[]> {
    /** Rows between two checks of the cancellation flag (a power of two). */
    static final int CANCEL_CHECK_EVERY = 1024;

    private final Operator operator;
    private final QueryResources resources;
    long count;

    RowsInto(Operator operator, QueryResources resources) {
      this.operator = operator;
      this.resources = resources;
    }

    @Override public void accept(Object[] row) {
      if ((++count & (CANCEL_CHECK_EVERY - 1)) == 0) {
        resources.throwIfCancelled();
      }
      operator.push(row);
    }
  }

  /**
   * Reads the batch as {@code tasks} slices of offsets at once: the first on this thread into the
   * head, slice {@code t} on the task executor into input task {@code t} ({@link ParallelTasks}:
   * none still pushes when the batch finishes or aborts).
   */
  private long readInTasks(long start, long end, int tasks) {
    long[] counts = new long[tasks];
    List<Runnable> reads = new ArrayList<>(tasks);
    for (int t = 0; t < tasks; t++) {
      Operator head = t == 0 ? pipeline : streamingPipeline.extraInputTasks().get(t - 1);
      long from = sliceStart(start, end, tasks, t);
      long to = sliceStart(start, end, tasks, t + 1);
      int task = t;
      ColumnarInput columnar = columnarInput();
      if (source instanceof SupportsPartitionedReads partitioned) {
        // Task t reads input partitions t, t + tasks, ...
        int parts = partitioned.inputPartitions(start, end);
        reads.add(() -> {
          RowsInto rows = new RowsInto(head, resources);
          for (int p = task; p < parts; p += tasks) {
            partitioned.readPartition(start, end, p, rows);
          }
          counts[task] = rows.count;
        });
        continue;
      }
      reads.add(() -> {
        if (columnar != null) {
          counts[task] = columnar.read((SupportsColumnarReads) source, task, from, to, resources);
          return;
        }
        // Made on the task's thread, as the task's own per-row state (see Operator).
        RowsInto rows = new RowsInto(head, resources);
        source.readRange(from, to, rows);
        counts[task] = rows.count;
      });
    }
    ParallelTasks.runAll(reads, streamingPipeline.taskExecutor());
    long rows = 0;
    for (long task : counts) {
      rows += task;
    }
    return rows;
  }

  /**
   * The pipeline's columnar input when the source can hand over vectors, else null: then the
   * batch is read as vector batches (the same rows, the same slices).
   */
  private ColumnarInput columnarInput() {
    ColumnarInput columnar = streamingPipeline.columnarInput();
    return columnar != null && source instanceof SupportsColumnarReads ? columnar : null;
  }

  /** The first offset (exclusive) of slice {@code t} of {@code tasks} of {@code (start, end]}. */
  private static long sliceStart(long start, long end, int tasks, int t) {
    return start + (end - start) / tasks * t + Math.min(t, (end - start) % tasks);
  }

  /** Rows the pipeline had dropped by the end of the previous batch's progress. */
  private long droppedBefore;

  private void recordProgress(BatchContext batch, long[] start, long[] end, RowCounts counts,
      long durationMs) {
    long inputRows = counts.input();
    long outputRows = counts.output();
    List<StateOperatorProgress> operators = new java.util.ArrayList<>();
    for (StatefulOperator op : streamingPipeline.statefulOperators()) {
      StateMetrics m = op.stateMetrics();
      operators.add(new StateOperatorProgress(op.operatorName(), m.numTotalStateRows(),
          m.numUpdatedStateRows(), m.numRemovedStateRows(), m.numRowsDroppedByWatermark(),
          op.numPartitions(), op.stateKind(), op.stateBound().label(), op.stateBytes()));
    }
    StreamingQueryProgress previous;
    synchronized (lock) {
      previous = progress.peekLast();
    }
    // As Spark's ProgressReporter: input rate over the time since the previous batch started
    // (none before the first batch: 0), processing rate over at least 1 ms.
    long sincePreviousMs = previous == null ? 0 : batch.batchTimestampMs() - previous.timestampMs();
    double inputRate = sincePreviousMs > 0 ? inputRows * 1000.0 / sincePreviousMs : 0;
    double processedRate = inputRows * 1000.0 / Math.max(1, durationMs);
    java.util.Map<String, String> eventTime = streamingPipeline.watermarks().isEmpty()
        ? java.util.Map.of()
        : java.util.Map.of("watermark", java.time.format.DateTimeFormatter.ofPattern(
            "uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC)
            .format(java.time.Instant.ofEpochMilli(batch.evictionWatermarkMs())));
    long dropped = streamingPipeline.rowErrors().droppedRows();
    for (SourceInput input : inputs) {
      if (input.source() instanceof SupportsDroppedRecords skipping) {
        dropped += skipping.droppedRecords();
      }
    }
    long droppedInBatch = dropped - droppedBefore;
    droppedBefore = dropped;
    StreamingQueryProgress p = new StreamingQueryProgress(id, name, batch.batchId(),
        batch.batchTimestampMs(), inputRows, batch.evictionWatermarkMs(), durationMs, outputRows,
        droppedInBatch, operators, runId, inputRate, processedRate, eventTime,
        sourceProgress(start, end, counts.inputs(), sincePreviousMs, durationMs),
        new SinkProgress(sink.description(), outputRows));
    synchronized (lock) {
      totals = totals.plus(p);
      progress.addLast(p);
      if (progress.size() > PROGRESS_RETAINED) {
        progress.removeFirst();
      }
    }
  }

  /** Each stream's part of a batch's progress, its rates as the batch's (Spark's). */
  private List<SourceProgress> sourceProgress(long[] start, long[] end, long[] rows,
      long sincePreviousMs, long durationMs) {
    List<SourceProgress> sources = new ArrayList<>(rows.length);
    for (int i = 0; i < rows.length; i++) {
      double inputRate = sincePreviousMs > 0 ? rows[i] * 1000.0 / sincePreviousMs : 0;
      sources.add(new SourceProgress(inputs.get(i).source().description(),
          sourceOffset(i, start[i]), sourceOffset(i, end[i]), rows[i], inputRate,
          rows[i] * 1000.0 / Math.max(1, durationMs)));
    }
    return sources;
  }

  /**
   * Marks the batch done: in the commit log, in the progress (whose duration, like Spark's
   * {@code triggerExecution}, runs from before the offset log's write to after the commit log's),
   * then for waiting callers, who thus find its progress too.
   *
   * @param counts from {@link #runBatch}
   * @param startedNanos {@link System#nanoTime} before the batch's offsets were written
   */
  private void commit(BatchContext batch, long[] start, long[] end, RowCounts counts,
      long startedNanos) {
    long batchId = batch.batchId();
    if (checkpoint != null) {
      long nextWatermark = streamingPipeline.watermarkMs();
      if (!checkpoint.commitLog().add(batchId, new CommitMetadata(nextWatermark))) {
        throw CheckpointException.concurrentUpdate(checkpoint.commitLog().batchFile(batchId));
      }
    }
    sink.batchCommitted(batchId);
    recordProgress(batch, start, end, counts, (System.nanoTime() - startedNanos) / 1_000_000);
    synchronized (lock) {
      committedOffsets = end.clone();
      lastBatchId = batchId;
      committedWatermark = batch.evictionWatermarkMs();
      // A batch went through: the next failure starts the count and the backoff afresh.
      restartAttempt = 0;
      lock.notifyAll();
    }
    tellSourcesCommitted(end);
  }

  /**
   * Tells each source that hears commits that the query committed through {@code end}, as
   * Spark's {@code MicroBatchExecution} calls {@code commit} after the commit log is written:
   * a stream lets rows and log segments go that no reader needs any more.
   */
  private void tellSourcesCommitted(long[] end) {
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).source() instanceof SupportsCommits committing) {
        try {
          committing.commit(end[i]);
        } catch (RuntimeException e) {
          LOG.warn("Source {} of query {} failed to hear a commit", committing.description(),
              name, e);
        }
      }
    }
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
    synchronized (lock) {
      for (long now = clock.getAsLong(); now < next && !stopRequested; now = clock.getAsLong()) {
        lock.wait(next - now);
      }
      return !stopRequested;
    }
  }

  /**
   * The end offsets of the batch that starts after {@code start}: what each stream has
   * available, within its admission control and the bounded trigger's {@code target} (null:
   * none). {@link Trigger.Once} runs one batch, so it takes everything, as Spark's
   * {@code ReadAllAvailable} does.
   */
  private long[] nextBatchEnds(long[] start, long[] target) {
    long[] end = new long[start.length];
    for (int i = 0; i < end.length; i++) {
      Source s = inputs.get(i).source();
      long latest = s instanceof SupportsAdmissionControl limited
          && !(trigger instanceof Trigger.Once)
          ? limited.latestOffset(start[i]) : s.latestOffset();
      end[i] = target == null ? latest : Math.min(latest, target[i]);
    }
    return end;
  }

  /**
   * Fails the query if a stream's latest offset is below its offset in {@code offsets}, which
   * batch {@code batchId} recorded: the source lost data or went backwards, and the offsets it
   * hands out next would be taken for ones the query has read.
   */
  private void checkSourcesReach(long[] offsets, long batchId) {
    for (int i = 0; i < offsets.length; i++) {
      Source s = inputs.get(i).source();
      long latest = s.latestOffset();
      if (latest < offsets[i]) {
        if (checkpoint == null) {
          throw new IllegalStateException("Query " + name + " has read " + s.description()
              + " up to offset " + offsets[i] + ", which is ahead of the source's latest offset "
              + latest + ": the source went backwards");
        }
        throw CheckpointException.aheadOfSource(checkpoint.offsetLog().batchFile(batchId),
            s.description(), offsets[i], latest);
      }
    }
  }

  private boolean isStopRequested() {
    synchronized (lock) {
      return stopRequested;
    }
  }

  /**
   * Waits until a stream has data beyond its committed offset, or an idle stream's watermark
   * makes a batch without data due; false if stop was requested. A stream wakes it by its
   * new-data signal or, if its data appears with time, the wait ends when its next offset is
   * due.
   */
  private boolean awaitWork(boolean mayRunNoDataBatch) throws InterruptedException {
    synchronized (lock) {
      while (!stopRequested) {
        if (newData || anyStreamAhead()) {
          newData = false;
          idle = false;
          return true;
        }
        long now = clock.getAsLong();
        if (mayRunNoDataBatch && idleWatermarks.batchDue(now, streamingPipeline.watermarkMs(),
            this::needsNoDataBatch)) {
          idle = false;
          return true;
        }
        idle = true;
        lock.notifyAll();
        long due = Long.MAX_VALUE;
        // Before its first batch a query's operators have not read their state: nothing due.
        long expiry = lastBatchId >= 0 ? nextStateExpiryMs() : Long.MAX_VALUE;
        if (expiry != Long.MAX_VALUE) {
          long untilExpiry = expiry - clock.getAsLong();
          if (untilExpiry <= 0) {
            // The caller runs a batch without data to expire state.
            idle = false;
            return true;
          }
          due = untilExpiry;
        }
        for (int i = 0; i < inputs.size(); i++) {
          if (inputs.get(i).source() instanceof SupportsTimedAvailability timed) {
            OptionalLong next = timed.millisUntilAvailable(committedOffsets[i] + 1);
            if (next.isPresent()) {
              due = Math.min(due, next.getAsLong());
            }
          }
        }
        if (mayRunNoDataBatch) {
          due = Math.min(due, idleWatermarks.millisUntilCheck(now));
        }
        if (due != Long.MAX_VALUE) {
          lock.wait(Math.max(MIN_POLL_DELAY_MS, due));
        } else {
          lock.wait();
        }
      }
      return false;
    }
  }

  /** Whether a stream has offsets beyond its committed one; call with the lock held. */
  private boolean anyStreamAhead() {
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).source().latestOffset() > committedOffsets[i]) {
        return true;
      }
    }
    return false;
  }

  private long[] committedOffsetsSnapshot() {
    synchronized (lock) {
      return committedOffsets.clone();
    }
  }

  private void signalNewData() {
    synchronized (lock) {
      newData = true;
      lock.notifyAll();
    }
  }
}

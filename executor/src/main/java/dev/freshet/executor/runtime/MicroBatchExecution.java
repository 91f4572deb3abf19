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
import dev.freshet.executor.operators.AggregateMetrics;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.ParallelTasks;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.source.QueryReader;
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
 * <p>Event time follows Spark: the watermark computed after batch {@code N - 1} is batch
 * {@code N}'s eviction watermark, and the previous batch's watermark its late-data watermark. When
 * the watermark advances far enough that a stateful operator would evict or finalize groups, a
 * batch runs even without new data.
 *
 * <p>{@link #stop()} ends a batch that is running, not only the wait between batches: it cancels
 * the query's {@link QueryResources}, whose flag the read loop and the busy operators check every
 * so many rows; the batch is aborted, uncommitted, and the query stops. It does not interrupt the
 * thread, which would close the file channels of the checkpoint and of the state stores under a
 * write. {@code stop()} waits at most {@link #STOP_TIMEOUT} for the thread.
 */
public final class MicroBatchExecution implements StreamingQuery {
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);

  private final String id;
  private final String name;
  private final Source source;
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

  /** Guards the fields below; also the monitor the batch thread waits on. */
  private final Object lock = new Object();
  private boolean newData;
  private boolean stopRequested;
  /** True while the batch thread waits for data: no batch, not even a no-data batch, is due. */
  private boolean idle;
  private QueryStatus status = QueryStatus.INITIALIZING;
  private Throwable error;
  private long committedOffset;
  private long lastBatchId = -1;
  /** The most recent progress records, oldest first; at most {@link #PROGRESS_RETAINED}. */
  private final java.util.ArrayDeque<StreamingQueryProgress> progress = new java.util.ArrayDeque<>();

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
    this.resources = requireNonNull(resources, "resources");
    this.checkpoint = checkpoint;
    this.pinnedConf = Map.copyOf(pinnedConf);
    this.trigger = requireNonNull(trigger, "trigger");
    this.id = requireNonNull(id, "id");
    this.name = requireNonNull(name, "name");
    this.streamingPipeline = requireNonNull(pipeline, "pipeline");
    this.source = pipeline.source();
    this.pipeline = pipeline.head();
    this.output = pipeline.output();
    this.sink = requireNonNull(sink, "sink");
    this.clock = requireNonNull(clock, "clock");
    this.thread = new Thread(this::runBatches, "freshet-query-" + name);
    this.thread.setDaemon(true);
  }

  /** Starts the batch thread and returns this query. */
  public StreamingQuery start() {
    synchronized (lock) {
      if (status != QueryStatus.INITIALIZING) {
        throw new IllegalStateException("query " + name + " was already started");
      }
      status = QueryStatus.ACTIVE;
    }
    if (checkpoint != null && source instanceof SupportsMetadataDirectory durable) {
      // Before anyone asks the source for an offset: its metadata is the checkpoint's.
      durable.useMetadataDirectory(checkpoint.sourceDirectory(0));
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
  public boolean readsVectors() {
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

  /**
   * {@inheritDoc}
   *
   * <p>It also waits for the batches without data that the watermark makes due, so that after it
   * returns the query is idle.
   */
  @Override public boolean processAllAvailable(Duration timeout) throws InterruptedException {
    long target = source.latestOffset();
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while ((committedOffset < target || !idle) && status == QueryStatus.ACTIVE) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        Duration wait = Duration.ofNanos(left);
        lock.wait(Math.max(1, wait.toMillis()));
      }
      return committedOffset >= target;
    }
  }

  /**
   * Waits until the query has stopped, by itself (a bounded trigger), on request, or by failure.
   *
   * @return whether it stopped within {@code timeout}
   */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (status == QueryStatus.ACTIVE || status == QueryStatus.INITIALIZING) {
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
        if (source instanceof QueryReader reader) {
          reader.close();
        }
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

  /** The progress of the last batch, if one ran. */
  public Optional<StreamingQueryProgress> lastProgress() {
    synchronized (lock) {
      return Optional.ofNullable(progress.peekLast());
    }
  }

  private void runBatches() {
    Throwable failure = null;
    try (AutoCloseable registration = source.onNewData(this::signalNewData)) {
      RestartDecision restart = checkpoint == null ? null
          : RestartDecision.decide(checkpoint, 1, pinnedConf);
      long batchId = 0;
      long previousWatermark = 0;
      long lastBatchStartMs = 0;
      int batchesRun = 0;
      boolean resumed = false;
      restoreInitialOffset();
      if (restart != null && !restart.isFreshStart()) {
        resumed = true;
        batchId = restart.batchId();
        previousWatermark = restart.previousBatchWatermarkMs();
        for (EventTimeWatermarkOperator w : streamingPipeline.watermarks()) {
          w.advanceTo(restart.watermarkMs());
        }
        long restoredStart = restoreOffset(restart.startOffsets().get(0));
        long restoredEnd = restart.rerun()
            ? restoreOffset(restart.endOffsets().orElseThrow().get(0)) : restoredStart;
        synchronized (lock) {
          committedOffset = restoredStart;
          lastBatchId = batchId - 1;
        }
        checkSourceReaches(restoredEnd, restart.rerun() ? batchId : batchId - 1);
        if (restart.rerun()) {
          // The batch was planned and maybe half done: run it again exactly as recorded.
          long end = restoredEnd;
          lastBatchStartMs = restart.batchTimestampMs().orElse(clock.getAsLong());
          long started = System.nanoTime();
          BatchContext batch = new BatchContext(batchId, lastBatchStartMs, previousWatermark,
              restart.watermarkMs(), resources);
          RowCounts counts = runBatch(batch, committedOffset, end);
          commit(batch, committedOffset, end, counts, started);
          previousWatermark = restart.watermarkMs();
          batchId++;
          batchesRun++;
        }
      }
      // Once and AvailableNow process what is there at start, and no more.
      long target = trigger.isBounded() ? source.latestOffset() : Long.MAX_VALUE;
      while (true) {
        long start = committedOffsetSnapshot();
        checkSourceReaches(start, batchId - 1);
        long end = nextBatchEnd(start, target);
        long watermark = streamingPipeline.watermarkMs();
        boolean hasData = end > start;
        // A batch without data runs only to let the advanced watermark evict or finalize state.
        boolean noDataBatch = !hasData && (batchesRun > 0 || resumed)
            && pipeline.needsNoDataBatch(watermark);
        if (trigger instanceof Trigger.Once && batchesRun > 0) {
          break;
        }
        if (!hasData && !noDataBatch) {
          if (trigger.isBounded() || !awaitWork()) {
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
        end = nextBatchEnd(start, target);
        lastBatchStartMs = clock.getAsLong();
        long started = System.nanoTime();
        if (checkpoint != null) {
          // Write-ahead: the batch's offsets, watermark and time are durable before it runs.
          if (!checkpoint.offsetLog().add(batchId,
              new OffsetSeq(watermark, lastBatchStartMs, pinnedConf,
                  List.of(sourceOffset(end))))) {
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
      }
    } catch (QueryCancelledException stopped) {
      // stop() ended a running batch, which was aborted: a stop like any other.
    } catch (Throwable t) {
      failure = t;
      LOG.warn("Query {} failed", name, t);
    }
    resources.release();
    if (source instanceof QueryReader reader) {
      // This query's own reader (its connections and threads), not a stream others read.
      reader.close();
    }
    for (StatefulAggregateOperator op : streamingPipeline.statefulOperators()) {
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
      lock.notifyAll();
    }
  }

  /**
   * Makes a source with JSON offsets start where it started when the query first ran: recorded
   * in the checkpoint by the first run, taken back by every later one. A query without a
   * checkpoint starts wherever its source starts.
   */
  private void restoreInitialOffset() {
    if (checkpoint != null && source instanceof SupportsJsonOffsets json) {
      SourceOffset initial = checkpoint.recordInitialOffset(0,
          new SourceOffset(json.offsetJson(0)));
      json.restoreInitialOffset(initial.json());
    }
  }

  /** The offset log's form of the source's offset {@code offset}. */
  private SourceOffset sourceOffset(long offset) {
    return source instanceof SupportsJsonOffsets json
        ? new SourceOffset(json.offsetJson(offset)) : SourceOffset.of(offset);
  }

  /** The source's offset for what the offset log recorded. */
  private long restoreOffset(SourceOffset recorded) {
    if (source instanceof SupportsJsonOffsets json) {
      // A recorded 0 ("-" or a query that read nothing yet) is where the source starts.
      return recorded.asLong().isPresent() && recorded.asLong().getAsLong() == 0
          ? 0 : json.restoreOffset(recorded.json());
    }
    return recorded.asLong().orElseThrow(() -> new IllegalStateException("Source "
        + source.description() + " records its offsets as whole numbers, but the checkpoint"
        + " has " + recorded.json()));
  }

  /** Rows a batch read and rows it handed to the sink. */
  private record RowCounts(long input, long output) {}

  /** Runs the batch through the pipeline into the sink. */
  private RowCounts runBatch(BatchContext batch, long start, long end) {
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
    List<Object[]> rows = output.takeRows();
    sink.addBatch(batch.batchId(), rows);
    return new RowCounts(inputRows, rows.size());
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

  private void recordProgress(BatchContext batch, long startOffset, long endOffset,
      long inputRows, long outputRows, long durationMs) {
    List<StateOperatorProgress> operators = new java.util.ArrayList<>();
    for (StatefulAggregateOperator op : streamingPipeline.statefulOperators()) {
      AggregateMetrics m = op.metrics();
      operators.add(new StateOperatorProgress("stateStoreSave", m.numTotalStateRows(),
          m.numUpdatedStateRows(), m.numRemovedStateRows(), m.numRowsDroppedByWatermark(),
          op.numPartitions()));
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
    long dropped = streamingPipeline.rowErrors().droppedRows()
        + (source instanceof SupportsDroppedRecords skipping ? skipping.droppedRecords() : 0);
    long droppedInBatch = dropped - droppedBefore;
    droppedBefore = dropped;
    StreamingQueryProgress p = new StreamingQueryProgress(id, name, batch.batchId(),
        batch.batchTimestampMs(), inputRows, batch.evictionWatermarkMs(), durationMs, outputRows,
        droppedInBatch, operators, runId, inputRate, processedRate, eventTime,
        List.of(new SourceProgress(source.description(), sourceOffset(startOffset),
            sourceOffset(endOffset), inputRows,
            inputRate, processedRate)),
        new SinkProgress(sink.description(), outputRows));
    synchronized (lock) {
      progress.addLast(p);
      if (progress.size() > PROGRESS_RETAINED) {
        progress.removeFirst();
      }
    }
  }

  /**
   * Marks the batch done: in the commit log, in the progress (whose duration, like Spark's
   * {@code triggerExecution}, runs from before the offset log's write to after the commit log's),
   * then for waiting callers, who thus find its progress too.
   *
   * @param counts from {@link #runBatch}
   * @param startedNanos {@link System#nanoTime} before the batch's offsets were written
   */
  private void commit(BatchContext batch, long start, long end, RowCounts counts,
      long startedNanos) {
    long batchId = batch.batchId();
    if (checkpoint != null) {
      long nextWatermark = streamingPipeline.watermarkMs();
      if (!checkpoint.commitLog().add(batchId, new CommitMetadata(nextWatermark))) {
        throw CheckpointException.concurrentUpdate(checkpoint.commitLog().batchFile(batchId));
      }
    }
    sink.batchCommitted(batchId);
    recordProgress(batch, start, end, counts.input(), counts.output(),
        (System.nanoTime() - startedNanos) / 1_000_000);
    synchronized (lock) {
      committedOffset = end;
      lastBatchId = batchId;
      lock.notifyAll();
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
   * The end offset of the batch that starts after {@code start}: what is available, within the
   * source's admission control and the bounded trigger's {@code target}. {@link Trigger.Once}
   * runs one batch, so it takes everything, as Spark's {@code ReadAllAvailable} does.
   */
  private long nextBatchEnd(long start, long target) {
    long latest = source instanceof SupportsAdmissionControl limited
        && !(trigger instanceof Trigger.Once)
        ? limited.latestOffset(start) : source.latestOffset();
    return Math.min(latest, target);
  }

  /**
   * Fails the query if its source's latest offset is below {@code offset}, which batch
   * {@code batchId} recorded: the source lost data or went backwards, and the offsets it hands
   * out next would be taken for ones the query has read.
   */
  private void checkSourceReaches(long offset, long batchId) {
    long latest = source.latestOffset();
    if (latest < offset) {
      if (checkpoint == null) {
        throw new IllegalStateException("Query " + name + " has read " + source.description()
            + " up to offset " + offset + ", which is ahead of the source's latest offset "
            + latest + ": the source went backwards");
      }
      throw CheckpointException.aheadOfSource(checkpoint.offsetLog().batchFile(batchId),
          source.description(), offset, latest);
    }
  }

  private boolean isStopRequested() {
    synchronized (lock) {
      return stopRequested;
    }
  }

  /**
   * Waits until the source has data beyond the committed offset; false if stop was requested.
   * The source wakes it by its new-data signal or, if its data appears with time, the wait ends
   * when the next offset is due.
   */
  private boolean awaitWork() throws InterruptedException {
    synchronized (lock) {
      while (!stopRequested) {
        if (newData || source.latestOffset() > committedOffset) {
          newData = false;
          idle = false;
          return true;
        }
        idle = true;
        lock.notifyAll();
        OptionalLong due = source instanceof SupportsTimedAvailability timed
            ? timed.millisUntilAvailable(committedOffset + 1) : OptionalLong.empty();
        if (due.isPresent()) {
          lock.wait(Math.max(MIN_POLL_DELAY_MS, due.getAsLong()));
        } else {
          lock.wait();
        }
      }
      return false;
    }
  }

  private long committedOffsetSnapshot() {
    synchronized (lock) {
      return committedOffset;
    }
  }

  private void signalNewData() {
    synchronized (lock) {
      newData = true;
      lock.notifyAll();
    }
  }
}

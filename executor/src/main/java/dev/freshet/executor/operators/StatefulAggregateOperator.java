package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StatePartitions;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.vector.VectorType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Streaming aggregation over a versioned, partitioned state store.
 *
 * <p>While a batch's rows arrive it pre-aggregates them per key (the partial aggregate), routing
 * each key to its state partition. When the batch ends, every partition opens its store at the
 * batch's version, restores each key's saved value, merges the batch's partial value into it (the
 * saved value first), saves the result and commits, producing the next version. What it emits
 * depends on the output mode: in {@link OutputMode#UPDATE} one row per key the batch touched; in
 * {@link OutputMode#COMPLETE} every key in the store. An emitted row carries the SQL value of each
 * aggregate, which for a distinct aggregate is computed from the set of values the state keeps.
 *
 * <p>A global aggregation (no grouping columns) has one group that every batch touches, even a
 * batch none of whose rows reach the operator, as in Spark: its partial aggregate over no rows is
 * one row of initial values, so the batch re-emits the saved value (or the initial values on the
 * first batch) rather than nothing.
 *
 * <p>With an event-time key ({@link StatefulAggregateSpec#eventTimeKey()}), UPDATE and APPEND
 * follow Spark: a partial group at or before the previous batch's watermark is late, dropped and
 * counted; after the merge, groups at or before this batch's watermark are removed from state,
 * silently in UPDATE mode, emitted in APPEND mode; APPEND emits the groups the watermark made
 * final, each once. COMPLETE mode ignores the watermark.
 *
 * <p>With {@link StatefulAggregateSpec#emitNewKeyFlag()} each UPDATE row ends with whether its key
 * had no state before the batch: the state read the merge does anyway answers it, so a consumer
 * learns "new key" vs "new value" without a set of every key it has seen.
 *
 * <p>With {@link #emitGroupChanges()} (UPDATE mode only) each row ends with one more column, a
 * {@link GroupChange} byte, and the groups the watermark evicts are emitted too, marked
 * {@link GroupChange#EVICTED}: what a materialized view reading this state needs to know.
 *
 * <p><b>Retracting input.</b> Over a view's changes ({@link StatefulAggregateSpec#retracting()})
 * rows also arrive as {@link #retract retractions}: the accumulators then invert
 * ({@link RetractingAccumulators}), a hidden slot counts each group's rows, and a group with none
 * left is removed from the state and emitted once more, as it was, marked
 * {@link GroupChange#DELETED} (its new-key flag null). The appending path is unchanged.
 *
 * <p>Per key and batch it does one state read and one state write; values are immutable once saved,
 * so an aborted batch leaves the previous version intact.
 *
 * <p><b>Input tasks.</b> A batch's rows may be read by several threads at once, as Spark runs a
 * task per input partition: input task 0 pushes into this operator, task {@code t} into
 * {@link #inputTask(int) inputTask(t)}, each into partial aggregates of its own. When the batch
 * ends, each key's saved value folds in the partial value of every task that saw the key, in task
 * order, so the key is restored, saved and emitted once. A task may instead push vector batches
 * into its {@link #vectorInput columnar input}, whose primitive cells the merge reads directly
 * when the batch ends: the same values, keys and order as had the rows been pushed one by one,
 * without boxing each group into a buffer first.
 *
 * <p><b>State TTL.</b> With {@link #expireStateAfter(long)} each saved value ends with one more
 * slot, the batch time at which the group was last written; a batch whose time is at least that
 * plus the TTL removes the group from the state ({@link StateExpiry}) before merging its own
 * groups, so that a row of an expired group starts it afresh. A materialized view's aggregation
 * ({@link #emitGroupChanges()}) emits an expired group marked {@link GroupChange#DELETED}: its
 * row leaves the view. Other consumers hear nothing, as Flink's expired state retracts nothing.
 * Over a retracting input, taking back rows of an expired group leaves no group behind.
 *
 * <p><b>Limits.</b> The batch's groups and the state's keys count in the query's memory estimate
 * ({@link BatchContext#resources()}), at {@link #bytesPerGroup() an estimated size} each: an input
 * task checks its groups every {@value #CHECK_EVERY} new groups, the batch its state's keys
 * before it commits, so that a query over too many groups fails before it commits them. Merging
 * checks the query's cancellation flag every {@value #CHECK_EVERY} groups.
 */
public final class StatefulAggregateOperator implements StatefulOperator {
  /** New groups (or merged groups) between two checks of the budget or the flag. */
  static final int CHECK_EVERY = 1024;

  private final StatefulAggregateSpec spec;
  private final List<StateStoreProvider<Object, Object[]>> partitions;
  private final Operator downstream;
  private final KeyExtractor keys;
  private final KeyExtractor partialRowKeys;
  private final Accumulator[] partial;
  private final Accumulator[] merge;
  /** The emitted row of a group from its saved value. */
  private final AggregateRows rows;
  private final int keyCount;
  /**
   * Per input task, then per partition, this batch's partial aggregates: null until the task's
   * first row of the partition in a batch, which creates them on the task's thread (see
   * {@link Operator}), and null again between batches, when they would only hold heap.
   */
  private final PartialGroups[][] batchGroups;
  /** The partitions of the batch being finished, whose stores are open; for abort. */
  private List<PartitionTask> openTasks = List.of();
  /** Runs the partitions of a batch in parallel; null to run them on the batch thread. */
  private final Executor executor;
  private final AggregateMetrics metrics = new AggregateMetrics();
  /** The key carrying event time, or null when the watermark does not apply (COMPLETE mode). */
  private final EventTimeKey eventTimeKey;
  /** The eviction watermark of the last batch that finished; no-data batches run beyond it. */
  private long lastEvictionWatermarkMs = Long.MIN_VALUE;
  /** Whether rows end with a {@link GroupChange} and UPDATE mode emits evicted groups. */
  private boolean groupChanges;
  /** The estimated heap of one group, partial or saved: see {@link #bytesPerGroup()}. */
  private final long bytesPerGroup;
  /** The resources of the query's batches; replaced when a batch brings others. */
  private QueryResources resources;
  /** Per input task, the estimate of its partial groups; each used by its task's thread. */
  private final MemoryAccount[] groupAccounts;
  /** The estimate of the state's keys, set before each commit. */
  private MemoryAccount stateAccount;
  /** Whether the input retracts rows: see {@link StatefulAggregateSpec#retracting()}. */
  private final boolean retracting;
  /** Per input task, its columnar input, or null (see {@link #vectorInput}). */
  private final VectorAggregateInput[] vectorInputs;
  /** Per state partition, when its groups expire (see {@link #expireStateAfter}). */
  private final StateExpiry[] expiries;
  /** The slot of a saved value holding its last write time, or -1 without a state TTL. */
  private int writeTimeSlot = -1;

  /**
   * Creates the operator.
   *
   * @param spec what to compute
   * @param partitions one provider per state partition, in partition order
   * @param downstream receives the output rows
   */
  public StatefulAggregateOperator(StatefulAggregateSpec spec,
      List<StateStoreProvider<Object, Object[]>> partitions, Operator downstream) {
    this(spec, partitions, downstream, null);
  }

  /**
   * Creates the operator.
   *
   * @param spec what to compute
   * @param partitions one provider per state partition, in partition order
   * @param downstream receives the output rows
   * @param executor runs the state partitions of a batch in parallel; null runs them one by one
   *     on the batch thread
   */
  public StatefulAggregateOperator(StatefulAggregateSpec spec,
      List<StateStoreProvider<Object, Object[]>> partitions, Operator downstream,
      Executor executor) {
    this(spec, partitions, downstream, executor, 1);
  }

  /**
   * Creates the operator.
   *
   * @param spec what to compute
   * @param partitions one provider per state partition, in partition order
   * @param downstream receives the output rows
   * @param executor runs the state partitions of a batch in parallel; null runs them one by one
   *     on the batch thread
   * @param inputTasks how many threads may push a batch's rows at once (see
   *     {@link #inputTask(int)}); 1 for rows pushed only into this operator
   */
  public StatefulAggregateOperator(StatefulAggregateSpec spec,
      List<StateStoreProvider<Object, Object[]>> partitions, Operator downstream,
      Executor executor, int inputTasks) {
    if (inputTasks < 1) {
      throw new IllegalArgumentException("inputTasks must be positive: " + inputTasks);
    }
    this.executor = executor;
    this.spec = requireNonNull(spec, "spec");
    this.partitions = List.copyOf(partitions);
    this.downstream = requireNonNull(downstream, "downstream");
    if (partitions.size() != spec.numPartitions()) {
      throw new IllegalArgumentException("expected " + spec.numPartitions()
          + " state partitions, got " + partitions.size());
    }
    this.eventTimeKey = spec.outputMode() == OutputMode.COMPLETE ? null : spec.eventTimeKey();
    this.keys = new KeyExtractor(spec.keyIndexes());
    this.keyCount = keys.keyCount();
    int[] leading = new int[keyCount];
    for (int i = 0; i < keyCount; i++) {
      leading[i] = i;
    }
    this.partialRowKeys = new KeyExtractor(leading);
    int calls = spec.partialCalls().size();
    // Over a retracting input one more, hidden slot counts the group's rows: none left, and the
    // group is deleted.
    this.retracting = spec.retracting();
    this.partial = new Accumulator[calls + (retracting ? 1 : 0)];
    this.merge = new Accumulator[partial.length];
    for (int i = 0; i < calls; i++) {
      AggregateCall partialCall = spec.partialCalls().get(i);
      partial[i] = retracting ? RetractingAccumulators.partial(partialCall, keyCount + i)
          : Accumulator.partial(partialCall, keyCount + i);
      merge[i] = retracting ? RetractingAccumulators.merge(partialCall,
          spec.mergeCalls().get(i), keyCount + i)
          : Accumulator.merge(spec.mergeCalls().get(i), keyCount + i);
    }
    if (retracting) {
      partial[calls] = RetractingAccumulators.rowCount(keyCount + calls);
      merge[calls] = RetractingAccumulators.rowCountMerge(keyCount + calls, keyCount + calls);
    }
    this.rows = new AggregateRows(spec);
    this.batchGroups = new PartialGroups[inputTasks][spec.numPartitions()];
    this.groupAccounts = new MemoryAccount[inputTasks];
    this.vectorInputs = new VectorAggregateInput[inputTasks];
    this.expiries = new StateExpiry[spec.numPartitions()];
    Arrays.fill(expiries, StateExpiry.after(0));
    // Key columns and buffer slots: a reference, a boxed value each, the key's object and the
    // buffer's array headers, and the store's entry.
    this.bytesPerGroup = 96 + 40L * (keyCount + partial.length);
  }

  /**
   * The estimated heap of one group, partial or saved, in the query's memory estimate: an
   * estimate from its number of columns, not a measure.
   */
  public long bytesPerGroup() {
    return bytesPerGroup;
  }

  /**
   * The input of input task {@code task}: a copy of the pipeline below this operator pushes the
   * rows of the task's slice of a batch into it, on the task's thread, while other tasks push
   * theirs. Task 0's input is this operator itself. The runtime starts and finishes a batch on
   * this operator, so the returned input ignores {@code startBatch}, {@code finishBatch} and
   * {@code abortBatch}.
   *
   * <pre>{@code
   * Operator task1 = new CalcOperator(calc1, width, aggregate.inputTask(1));
   * aggregate.startBatch(batch);            // via task 0's chain
   * // thread A: rows (s, m] -> task 0's chain; thread B: rows (m, e] -> task1
   * aggregate.finishBatch(batch);           // merges both partial aggregates into state
   * }</pre>
   *
   * @param task at least 1, below the {@code inputTasks} the operator was created with
   */
  public Operator inputTask(int task) {
    if (task < 1 || task >= batchGroups.length) {
      throw new IndexOutOfBoundsException("input task " + task + " of " + batchGroups.length);
    }
    return new Operator() {
      @Override public void startBatch(BatchContext batch) {
      }

      @Override public void push(Object[] row) {
        aggregate(task, row);
      }

      @Override public void retract(Object[] row) {
        retractRow(task, row);
      }

      @Override public void finishBatch(BatchContext batch) {
      }

      @Override public boolean needsNoDataBatch(long newWatermarkMs) {
        return StatefulAggregateOperator.this.needsNoDataBatch(newWatermarkMs);
      }
    };
  }

  /**
   * Makes each emitted row end with one more column, a {@link GroupChange} byte, and emit the
   * groups the watermark evicts (marked {@link GroupChange#EVICTED}); UPDATE mode only. Called
   * before the first batch. A runtime choice of the consumer: the plan, and so the state, is the
   * same either way.
   *
   * @return this operator
   */
  public StatefulAggregateOperator emitGroupChanges() {
    if (spec.outputMode() != OutputMode.UPDATE) {
      throw new IllegalStateException("only UPDATE mode emits group changes, not "
          + spec.outputMode());
    }
    groupChanges = true;
    return this;
  }

  /**
   * Drops a group from the state once no batch wrote it for {@code ttlMs} of processing time
   * (Flink's state TTL); called before the first batch. The saved values then keep their write
   * time, so a query's TTL is fixed when its state is first written.
   */
  @Override public void expireStateAfter(long ttlMs) {
    for (int p = 0; p < expiries.length; p++) {
      expiries[p] = StateExpiry.after(ttlMs);
    }
    writeTimeSlot = ttlMs > 0 ? keyCount + merge.length : -1;
  }

  @Override public String stateKind() {
    return spec.eventTimeKey() != null ? "window aggregation" : "aggregation";
  }

  @Override public StateBound stateBound() {
    return StateBound.of(eventTimeKey != null, expiries[0].ttlMs());
  }

  @Override public long nextExpiryMs() {
    long next = Long.MAX_VALUE;
    for (StateExpiry expiry : expiries) {
      next = Math.min(next, expiry.nextExpiryMs());
    }
    return next;
  }

  @Override public long stateBytes() {
    return metrics.numTotalStateRows * bytesPerGroup;
  }

  /**
   * Whether {@link #vectorInput} accepts input columns of {@code inputTypes}: the key is one or
   * more INTEGER, BIGINT, TIMESTAMP or VARCHAR columns, and every call is COUNT, or SUM, $SUM0,
   * MIN or MAX over an integer or a double column, without DISTINCT or FILTER.
   *
   * @param inputTypes per input column its vector type, null for a column that has none
   */
  public boolean acceptsVectors(VectorType[] inputTypes) {
    // Vectors only add; a retracting input keeps the row path.
    return !retracting
        && VectorAggregateInput.supports(spec.keyIndexes(), spec.partialCalls(), inputTypes);
  }

  /**
   * The columnar input of input task {@code task} (0 too): the task pushes vector batches of the
   * rows it would push into {@link #inputTask(int)} (or this operator, for task 0), which are
   * aggregated into primitive cells on its thread and merged from them as the task's partial
   * aggregates, with the row path's values (see {@link VectorAggregateInput}). In one batch a
   * task pushes rows or vector batches, not both.
   *
   * <pre>{@code
   * if (aggregate.acceptsVectors(types)) {
   *   VectorOperator in = aggregate.vectorInput(0, types);
   *   source.readVectors(start, end, batch, in::push);     // between startBatch and finishBatch
   * }
   * }</pre>
   *
   * @param inputTypes per input column its vector type, null for a column that has none
   * @throws IllegalArgumentException unless {@link #acceptsVectors acceptsVectors(inputTypes)}
   */
  public VectorOperator vectorInput(int task, VectorType[] inputTypes) {
    if (task < 0 || task >= batchGroups.length) {
      throw new IndexOutOfBoundsException("input task " + task + " of " + batchGroups.length);
    }
    if (!acceptsVectors(inputTypes)) {
      throw new IllegalArgumentException("no vector input for keys " + Arrays.toString(
          spec.keyIndexes()) + " and calls " + spec.partialCalls() + " over "
          + Arrays.toString(inputTypes));
    }
    VectorAggregateInput input = new VectorAggregateInput(this, task, spec.keyIndexes(),
        spec.partialCalls(), inputTypes);
    vectorInputs[task] = input;
    return input;
  }

  /** Counts the groups of input task {@code task}'s vector input in the memory estimate. */
  void countVectorGroups(int task, long groups) {
    groupAccounts[task].set(groups * bytesPerGroup);
  }

  /**
   * Orders the groups of the vector inputs by state partition for the merge, which reads them
   * from their primitive cells (see {@link PartitionTask}); per input task, its vector input if
   * it has groups in this batch, else null.
   */
  private VectorAggregateInput[] routeVectorInputs() {
    VectorAggregateInput[] routed = new VectorAggregateInput[vectorInputs.length];
    for (int t = 0; t < vectorInputs.length; t++) {
      if (vectorInputs[t] != null && vectorInputs[t].hasGroups()) {
        vectorInputs[t].route(batchGroups[t], partitions.size());
        routed[t] = vectorInputs[t];
      }
    }
    return routed;
  }

  /** Forgets what the vector inputs gathered. */
  private void clearVectorInputs() {
    for (VectorAggregateInput input : vectorInputs) {
      if (input != null) {
        input.clear();
      }
    }
  }

  /** How many threads may push a batch's rows at once. */
  public int inputTasks() {
    return batchGroups.length;
  }

  /** Closes the state store providers; the operator is not used afterwards. */
  @Override public void closeStores() {
    for (StateStoreProvider<Object, Object[]> provider : partitions) {
      provider.close();
    }
  }

  /** Number of state partitions. */
  @Override public int numPartitions() {
    return partitions.size();
  }

  /** Metrics of the last batch. */
  public AggregateMetrics metrics() {
    return metrics;
  }

  /** Spark's name for it: {@code stateStoreSave}. */
  @Override public String operatorName() {
    return "stateStoreSave";
  }

  @Override public StateMetrics stateMetrics() {
    return new StateMetrics(metrics.numOutputRows, metrics.numTotalStateRows,
        metrics.numUpdatedStateRows, metrics.numRemovedStateRows,
        metrics.numRowsDroppedByWatermark);
  }

  @Override public void startBatch(BatchContext batch) {
    clearGroups();
    clearVectorInputs();
    if (batch.resources() != resources) {
      resources = batch.resources();
      for (int t = 0; t < groupAccounts.length; t++) {
        groupAccounts[t] = resources.newAccount();
      }
      stateAccount = resources.newAccount();
    }
    if (keyCount == 0) {
      // The global group exists in every batch, so that the batch emits it even if no row comes.
      PartialGroups groups = groups(batchGroups[0], partitionOf(GroupKey.EMPTY.hashCode()));
      groups.add(GroupKey.EMPTY, groups.hashOfKey(GroupKey.EMPTY), newBuffer(partial));
    }
    metrics.reset();
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    aggregate(0, row);
  }

  /**
   * Takes {@code row}, pushed in this or an earlier batch, back out of its group: only over a
   * retracting input ({@link StatefulAggregateSpec#retracting()}).
   */
  @Override public void retract(Object[] row) {
    retractRow(0, row);
  }

  /** Folds {@code row} into the partial aggregate of its key in input task {@code task}'s groups. */
  private void aggregate(int task, Object[] row) {
    Object[] buffer = partialBuffer(task, row);
    for (Accumulator a : partial) {
      a.accumulate(buffer, row);
    }
  }

  /** Takes {@code row} out of the partial aggregate of its key in input task {@code task}'s. */
  private void retractRow(int task, Object[] row) {
    if (!retracting) {
      throw new UnsupportedOperationException("this aggregation's input retracts nothing");
    }
    Object[] buffer = partialBuffer(task, row);
    for (Accumulator a : partial) {
      a.retract(buffer, row);
    }
  }

  /** The partial buffer of {@code row}'s key in input task {@code task}'s groups, made if new. */
  private Object[] partialBuffer(int task, Object[] row) {
    PartialGroups[] taskGroups = batchGroups[task];
    // The partition comes from the key's stable hash; the table has a hash of its own.
    PartialGroups groups = groups(taskGroups,
        partitions.size() == 1 ? 0 : partitionOf(keys.hashOf(row)));
    int hash = groups.hashOf(row, keys);
    Object[] buffer = groups.get(row, keys, hash);
    if (buffer == null) {
      buffer = newBuffer(partial);
      groups.add(keys.keyOf(row), hash, buffer);
      if (groups.size() % CHECK_EVERY == 0) {
        groupAccounts[task].set(groupCount(taskGroups) * bytesPerGroup);
      }
    }
    return buffer;
  }

  @Override public void finishBatch(BatchContext batch) {
    VectorAggregateInput[] vectors = routeVectorInputs();
    List<PartitionTask> tasks = new ArrayList<>(partitions.size());
    for (int p = 0; p < partitions.size(); p++) {
      tasks.add(new PartitionTask(p, vectors));
    }
    openTasks = tasks;
    runAll(tasks, task -> task.process(batch));
    // The state's keys now include the batch's new ones: checked before they are committed.
    long stateKeys = 0;
    for (PartitionTask task : tasks) {
      stateKeys += task.store.numKeys();
    }
    for (MemoryAccount account : groupAccounts) {
      account.set(0);
    }
    stateAccount.set(partitions.get(0).keepsStateOnHeap() ? stateKeys * bytesPerGroup : 0);
    // Rows go downstream from this thread only, in partition order.
    for (PartitionTask task : tasks) {
      for (Object[] row : task.output) {
        metrics.numOutputRows++;
        downstream.push(row);
      }
    }
    runAll(tasks, PartitionTask::commit);
    for (PartitionTask task : tasks) {
      metrics.numRowsDroppedByWatermark += task.dropped;
      metrics.numUpdatedStateRows += task.updated;
      metrics.numRemovedStateRows += task.removed;
      metrics.numTotalStateRows += task.totalKeys;
    }
    openTasks = List.of();
    lastEvictionWatermarkMs = batch.evictionWatermarkMs();
    for (PartialGroups[] task : batchGroups) {
      for (PartialGroups groups : task) {
        metrics.partialAggregateProbes += groups == null ? 0 : groups.probes();
      }
    }
    clearGroups();
    clearVectorInputs();
    downstream.finishBatch(batch);
  }

  /** How many groups one input task's partial aggregates hold, over all partitions. */
  private static long groupCount(PartialGroups[] taskGroups) {
    long n = 0;
    for (PartialGroups groups : taskGroups) {
      n += groups == null ? 0 : groups.size();
    }
    return n;
  }

  /** One input task's partial aggregates of {@code partition}, created if the batch has none. */
  private static PartialGroups groups(PartialGroups[] taskGroups, int partition) {
    PartialGroups groups = taskGroups[partition];
    if (groups == null) {
      groups = taskGroups[partition] = new PartialGroups();
    }
    return groups;
  }

  /** Drops the partial aggregates, which between batches would only hold heap. */
  private void clearGroups() {
    for (PartialGroups[] task : batchGroups) {
      Arrays.fill(task, null);
    }
  }

  /**
   * Runs {@code action} for every partition: in parallel on the executor when there is one
   * ({@link ParallelTasks}); a failure of any is rethrown here after all have finished.
   */
  private void runAll(List<PartitionTask> tasks, Consumer<PartitionTask> action) {
    List<Runnable> runs = new ArrayList<>(tasks.size());
    for (PartitionTask task : tasks) {
      runs.add(() -> action.accept(task));
    }
    ParallelTasks.runAll(runs, executor);
  }

  /**
   * The work of one state partition in one batch: restore, merge, save and evict against the
   * partition's store. Partitions share nothing but the (stateless) accumulators, so they can run
   * on different threads; their output rows are collected and emitted by the batch thread.
   */
  private final class PartitionTask {
    private final int partition;
    /** Per input task, its vector input if the batch's groups are there (routed), else null. */
    private final VectorAggregateInput[] vectors;
    private final Object[] partialRow = new Object[keyCount + partial.length];
    private final List<Object[]> output = new ArrayList<>();
    private StateStore<Object, Object[]> store;
    private long dropped;
    private long updated;
    private long removed;
    private long totalKeys;
    /** Where a key is taken apart to look it up in a vector input's table. */
    private final long[] lookupKey = new long[keyCount];
    /** Groups merged so far, for checking the cancellation flag now and then. */
    private int seen;
    /** Whether the last {@link #restoreAndMerge} found no saved value: the key is new. */
    private boolean restoredNothing;
    /** The saved value the last {@link #restoreAndMerge} found, or null. */
    private Object[] lastRestored;
    /**
     * Per input task after the first, which of its groups in this partition an earlier task's
     * group of the same key has merged already; null with one input task.
     */
    private boolean[][] claimed;

    PartitionTask(int partition, VectorAggregateInput[] vectors) {
      this.partition = partition;
      this.vectors = vectors;
    }

    void process(BatchContext batch) {
      store = partitions.get(partition).getStore(batch.stateVersion());
      if (expiries[partition].due(batch.batchTimestampMs())) {
        // First, so that a row of an expired group starts it afresh, as if it had been removed
        // in an earlier batch: expired state is never read.
        expire(batch.batchTimestampMs());
      }
      if (batchGroups.length > 1) {
        claimed = new boolean[batchGroups.length][];
        for (int t = 1; t < batchGroups.length; t++) {
          // A vector input's groups are claimed by their index in its table.
          PartialGroups groups = batchGroups[t][partition];
          claimed[t] = new boolean[vectors[t] != null ? vectors[t].groupCount()
              : groups == null ? 0 : groups.size()];
        }
      }
      for (int t = 0; t < batchGroups.length; t++) {
        VectorAggregateInput vector = vectors[t];
        if (vector != null) {
          // The columnar partial aggregates merge from their cells: no group is boxed into a
          // buffer and a table of the row path's form first.
          int end = vector.partitionStart(partition + 1);
          for (int i = vector.partitionStart(partition); i < end; i++) {
            int g = vector.routedGroup(i);
            if (t == 0 || !claimed[t][g]) {
              mergeGroup(batch, vector.keyOf(g), t, null, vector, g);
            }
          }
          continue;
        }
        PartialGroups groups = batchGroups[t][partition];
        for (int g = 0; groups != null && g < groups.size(); g++) {
          if (t == 0 || !claimed[t][g]) {
            mergeGroup(batch, groups.key(g), t, groups.buffer(g), null, 0);
          }
        }
      }
      claimed = null;
      if (spec.outputMode() == OutputMode.COMPLETE) {
        for (Map.Entry<Object, Object[]> e : store.entries()) {
          emit(e.getKey(), e.getValue());
        }
      } else if (eventTimeKey != null) {
        evict(batch.evictionWatermarkMs());
      }
    }

    /**
     * Removes the groups no batch wrote for the TTL; a view's aggregation emits each marked
     * {@link GroupChange#DELETED}, so its row leaves the view (and comes back as a new group if
     * the batch has rows of it).
     */
    private void expire(long nowMs) {
      StateExpiry expiry = expiries[partition];
      List<Map.Entry<Object, Object[]>> expired = new ArrayList<>();
      long oldestKept = Long.MAX_VALUE;
      for (Map.Entry<Object, Object[]> e : store.entries()) {
        Object[] value = e.getValue();
        // A value saved without a write time (none can be, but a wrong one must not stay).
        long written = value.length > writeTimeSlot && value[writeTimeSlot] != null
            ? (Long) value[writeTimeSlot] : Long.MIN_VALUE / 2;
        if (expiry.expired(written, nowMs)) {
          expired.add(e);
        } else {
          oldestKept = Math.min(oldestKept, written);
        }
      }
      for (Map.Entry<Object, Object[]> e : expired) {
        store.remove(e.getKey());
        removed++;
        if (groupChanges) {
          Object[] row = emit(e.getKey(), e.getValue());
          if (spec.emitNewKeyFlag()) {
            row[spec.outputFieldCount() - 1] = null;
          }
          row[row.length - 1] = GroupChange.DELETED;
        }
      }
      expiry.scanned(oldestKept);
    }

    /**
     * Merges the partial aggregate of {@code key} in input task {@code task} (its buffer
     * {@code part}, or group {@code g} of its vector input {@code vector}) and those of the later
     * tasks that saw the key into the key's saved value; saves and emits the result.
     */
    private void mergeGroup(BatchContext batch, Object key, int task, Object[] part,
        VectorAggregateInput vector, int g) {
      if (++seen % CHECK_EVERY == 0) {
        resources.throwIfCancelled();
      }
      if (eventTimeKey != null && isAtOrBefore(key, batch.lateEventsWatermarkMs())) {
        // One late key counts once, however many tasks saw it.
        claimInLaterTasks(task, key);
        dropped++;
        return;
      }
      Object[] merged = restoreAndMerge(key, task, part, vector, g);
      // None left: or fewer, when the TTL dropped the group before its rows were taken back.
      if (retracting && keyCount > 0 && (Long) merged[keyCount + merge.length - 1] <= 0) {
        deleteGroup(key);
        return;
      }
      if (writeTimeSlot >= 0) {
        merged[writeTimeSlot] = batch.batchTimestampMs();
        expiries[partition].wrote(batch.batchTimestampMs());
      }
      store.put(key, merged);
      updated++;
      if (spec.outputMode() == OutputMode.UPDATE) {
        Object[] row = emit(key, merged);
        if (spec.emitNewKeyFlag()) {
          row[spec.outputFieldCount() - 1] = restoredNothing;
        }
        if (groupChanges) {
          row[row.length - 1] = restoredNothing ? GroupChange.NEW : GroupChange.UPDATED;
        }
      }
    }

    /**
     * Deletes group {@code key}, whose rows a retracting input all took back, from the state; in
     * UPDATE mode it emits its row before the batch, with a null new-key flag and marked
     * {@link GroupChange#DELETED}. A group added and taken back in one batch leaves no trace.
     */
    private void deleteGroup(Object key) {
      if (restoredNothing) {
        return;
      }
      store.remove(key);
      removed++;
      if (spec.outputMode() == OutputMode.UPDATE) {
        Object[] row = emit(key, lastRestored);
        if (spec.emitNewKeyFlag()) {
          row[spec.outputFieldCount() - 1] = null;
        }
        if (groupChanges) {
          row[row.length - 1] = GroupChange.DELETED;
        }
      }
    }

    void commit() {
      store.commit();
      totalKeys = store.numKeys();
    }

    void abort() {
      if (store != null) {
        store.abort();
      }
    }

    /**
     * Removes the groups the watermark made final; APPEND mode emits them, UPDATE drops them
     * (or emits them marked evicted, with {@link #emitGroupChanges()}).
     */
    private void evict(long watermarkMs) {
      List<Map.Entry<Object, Object[]>> done = new ArrayList<>();
      for (Map.Entry<Object, Object[]> e : store.entries()) {
        if (isAtOrBefore(e.getKey(), watermarkMs)) {
          done.add(e);
        }
      }
      for (Map.Entry<Object, Object[]> e : done) {
        store.remove(e.getKey());
        removed++;
        if (spec.outputMode() == OutputMode.APPEND) {
          emit(e.getKey(), e.getValue());
        } else if (groupChanges) {
          Object[] row = emit(e.getKey(), e.getValue());
          if (spec.emitNewKeyFlag()) {
            row[spec.outputFieldCount() - 1] = false;
          }
          row[row.length - 1] = GroupChange.EVICTED;
        }
      }
    }

    /**
     * Returns a new saved value: the restored value (if any) with the partial value of input task
     * {@code task} folded in (its buffer {@code part}, or group {@code g} of its vector input
     * {@code vector}), then those of the later tasks that saw the key.
     */
    private Object[] restoreAndMerge(Object key, int task, Object[] part,
        VectorAggregateInput vector, int g) {
      Object[] restored = store.get(key);
      restoredNothing = restored == null;
      lastRestored = restored;
      Object[] merged = restored == null ? newBuffer(merge)
          : restored.length < keyCount + merge.length + (writeTimeSlot >= 0 ? 1 : 0)
          ? Arrays.copyOf(restored, keyCount + merge.length + 1) : restored.clone();
      if (keyCount > 0) {
        partialRowKeys.writeKey(key, partialRow);
      }
      fold(merged, part, vector, g);
      if (task + 1 < batchGroups.length) {
        for (int t = task + 1; t < batchGroups.length; t++) {
          int other = claim(t, key);
          if (other >= 0) {
            if (vectors[t] != null) {
              fold(merged, null, vectors[t], other);
            } else {
              fold(merged, batchGroups[t][partition].buffer(other), null, 0);
            }
          }
        }
      }
      return merged;
    }

    /**
     * Folds a partial value, the buffer {@code part} or else group {@code g} of {@code vector},
     * into {@code merged}; {@link #partialRow} holds the key already.
     */
    private void fold(Object[] merged, Object[] part, VectorAggregateInput vector, int g) {
      for (int i = 0; i < partial.length; i++) {
        partialRow[keyCount + i] = part != null ? partial[i].finishPartial(part[keyCount + i])
            : vector.partialValue(i, g);
      }
      for (Accumulator a : merge) {
        a.accumulate(merged, partialRow);
      }
    }

    /** Marks the groups of {@code key} in the tasks after {@code task} as merged. */
    private void claimInLaterTasks(int task, Object key) {
      for (int t = task + 1; t < batchGroups.length; t++) {
        claim(t, key);
      }
    }

    /**
     * Marks the group of {@code key} in task {@code t}'s groups of this partition as merged; its
     * position (in the task's vector input, if it has one) or -1.
     */
    private int claim(int t, Object key) {
      int g;
      if (vectors[t] != null) {
        // The vector input's table holds every partition's groups; the key's are this one's.
        g = vectors[t].indexOf(key, lookupKey);
      } else {
        PartialGroups groups = batchGroups[t][partition];
        g = groups == null ? -1 : groups.indexOf(key, groups.hashOfKey(key));
      }
      if (g >= 0) {
        claimed[t][g] = true;
      }
      return g;
    }

    private Object[] emit(Object key, Object[] value) {
      Object[] row = new Object[spec.outputFieldCount() + (groupChanges ? 1 : 0)];
      rows.write(key, value, row);
      output.add(row);
      return row;
    }
  }

  /** Whether the group's event time is at or before {@code watermarkMs} (Spark's {@code <=}). */
  private boolean isAtOrBefore(Object key, long watermarkMs) {
    Object value = keyCount == 1 ? key : ((GroupKey) key).get(eventTimeKey.keyIndex());
    return value != null && (Long) value + eventTimeKey.offsetMs() <= watermarkMs;
  }

  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    return eventTimeKey != null && newWatermarkMs > lastEvictionWatermarkMs
        || downstream.needsNoDataBatch(newWatermarkMs);
  }

  @Override public void abortBatch(BatchContext batch) {
    for (PartitionTask task : openTasks) {
      task.abort();
    }
    openTasks = List.of();
    for (StateExpiry expiry : expiries) {
      // The write times seen may be of groups the aborted batch wrote: scan again.
      expiry.forget();
    }
    clearGroups();
    clearVectorInputs();
    for (MemoryAccount account : groupAccounts) {
      if (account != null) {
        account.set(0);
      }
    }
    downstream.abortBatch(batch);
  }

  private Object[] newBuffer(Accumulator[] accumulators) {
    // A saved value ends with its write time when groups expire.
    Object[] buffer = new Object[keyCount + accumulators.length
        + (accumulators == merge && writeTimeSlot >= 0 ? 1 : 0)];
    for (Accumulator a : accumulators) {
      buffer[a.slot] = a.initial();
    }
    return buffer;
  }

  /** The state partition of a key whose {@code hashCode()} is {@code hash}; stable across JVMs. */
  int partitionOf(int hash) {
    return StatePartitions.ofHash(hash, partitions.size());
  }
}

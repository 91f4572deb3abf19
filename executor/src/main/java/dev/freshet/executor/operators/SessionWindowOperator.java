package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.state.StatePartitions;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Aggregation by session window over a versioned, partitioned state store, as Spark's
 * {@code MergingSessionsExec} with {@code SessionWindowStateStoreRestoreExec} and
 * {@code SessionWindowStateStoreSaveExec}.
 *
 * <p>While a batch's rows arrive it folds each into the batch's sessions of its key (a row is the
 * session {@code [t, t + gap)}, merged with those it overlaps or touches). When the batch ends,
 * every partition opens its store at the batch's version and merges each touched key's batch
 * sessions into its saved ones: a batch session that bridges two saved sessions merges them into
 * one, their values merged. It saves the key's sessions (one state row per key) and commits.
 *
 * <p>{@link OutputMode#COMPLETE} emits every session of every key, every batch; the merged
 * session replaces the two it was made of, and the watermark is ignored. {@link OutputMode#APPEND}
 * follows Spark's watermark: a row whose own session ends at or before the previous batch's
 * watermark is late, dropped and counted; a session that ends at or before this batch's watermark
 * is final, emitted once and removed from state.
 *
 * <pre>{@code
 * SessionWindowOperator op = new SessionWindowOperator(spec, providers, downstream);
 * op.startBatch(batch); op.push(row); ... op.finishBatch(batch);   // commits version N + 1
 * }</pre>
 *
 * <p><b>Limits.</b> The batch's keys (every {@value #CHECK_EVERY} new ones) and the keys in the
 * state (before each commit) count in the query's memory estimate
 * ({@link BatchContext#resources()}), at an estimated size per key and session, so that a query
 * with too many open sessions fails its batch instead of the engine's heap.
 *
 * <p>Per row it allocates the row's partial aggregate (as the first row of a group does in
 * {@link StatefulAggregateOperator}); rows of one session then fold into one buffer. Per key and
 * batch it does one state read and one state write; an aborted batch leaves the previous version
 * intact.
 */
public final class SessionWindowOperator implements StatefulOperator {
  /** New keys of a batch between two updates of its memory account. */
  private static final int CHECK_EVERY = 1024;

  private final SessionWindowSpec spec;
  private final List<StateStoreProvider<Object, Object[]>> partitions;
  private final Operator downstream;
  private final KeyExtractor keys;
  private final Accumulator[] partial;
  private final Accumulator[] merge;
  private final int groupCount;
  private final int timeIndex;
  private final long timeOffsetMs;
  private final SessionRows rows;
  private final boolean append;
  /** Per partition, this batch's sessions by key; null between batches. */
  private List<Map<Object, SessionList>> batchSessions;
  private BatchContext batch;
  /** The stores of the batch being finished, for abort. */
  private final List<StateStore<Object, Object[]>> openStores = new ArrayList<>();
  private long lastEvictionWatermarkMs = Long.MIN_VALUE;
  private final AggregateMetrics metrics = new AggregateMetrics();
  /** The estimated heap of one key with one session, in a batch or in the state. */
  private final long bytesPerKey;
  /** This batch's keys so far, over every partition. */
  private long batchKeys;
  private QueryResources resources;
  private MemoryAccount batchAccount;
  private MemoryAccount stateAccount;

  /**
   * Creates the operator.
   *
   * @param spec what to compute
   * @param partitions one provider per state partition, in partition order
   * @param downstream receives the output rows
   */
  public SessionWindowOperator(SessionWindowSpec spec,
      List<StateStoreProvider<Object, Object[]>> partitions, Operator downstream) {
    this.spec = requireNonNull(spec, "spec");
    this.partitions = List.copyOf(partitions);
    this.downstream = requireNonNull(downstream, "downstream");
    if (partitions.size() != spec.numPartitions()) {
      throw new IllegalArgumentException("expected " + spec.numPartitions()
          + " state partitions, got " + partitions.size());
    }
    this.keys = new KeyExtractor(spec.keyIndexes());
    this.groupCount = spec.groupSet().length;
    this.partial = new Accumulator[spec.partialCalls().size()];
    this.merge = new Accumulator[spec.mergeCalls().size()];
    for (int i = 0; i < partial.length; i++) {
      partial[i] = Accumulator.partial(spec.partialCalls().get(i), groupCount + i);
      merge[i] = Accumulator.merge(spec.mergeCalls().get(i), groupCount + i);
      if (spec.mergeCalls().get(i).argIndex() != groupCount + i) {
        throw new IllegalArgumentException("merge call " + i + " reads column "
            + spec.mergeCalls().get(i).argIndex() + ", not " + (groupCount + i));
      }
    }
    this.timeIndex = spec.timeIndex();
    this.timeOffsetMs = spec.timeOffsetMs();
    this.rows = new SessionRows(spec);
    this.append = spec.outputMode() == OutputMode.APPEND;
    this.bytesPerKey = 160 + 40L * (groupCount + merge.length);
  }

  /** Spark's name for it: {@code sessionWindowStateStoreSaveExec}. */
  @Override public String operatorName() {
    return "sessionWindowStateStoreSaveExec";
  }

  @Override public String stateKind() {
    return "session window";
  }

  /** In APPEND mode the watermark closes sessions; COMPLETE mode keeps every one. */
  @Override public StateBound stateBound() {
    return append ? StateBound.BOUNDED_BY_WATERMARK : StateBound.UNBOUNDED;
  }

  @Override public StateMetrics stateMetrics() {
    return new StateMetrics(metrics.numOutputRows, metrics.numTotalStateRows,
        metrics.numUpdatedStateRows, metrics.numRemovedStateRows,
        metrics.numRowsDroppedByWatermark);
  }

  @Override public int numPartitions() {
    return partitions.size();
  }

  @Override public void closeStores() {
    for (StateStoreProvider<Object, Object[]> provider : partitions) {
      provider.close();
    }
  }

  @Override public void startBatch(BatchContext batch) {
    this.batch = batch;
    batchSessions = new ArrayList<>(partitions.size());
    for (int p = 0; p < partitions.size(); p++) {
      batchSessions.add(new HashMap<>());
    }
    metrics.reset();
    batchKeys = 0;
    if (batch.resources() != resources) {
      resources = batch.resources();
      batchAccount = resources.newAccount();
      stateAccount = resources.newAccount();
    }
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    Object time = row[timeIndex];
    if (time == null) {
      // A row without event time is in no session (Spark's session_window of NULL is NULL).
      return;
    }
    long start = (Long) time - timeOffsetMs;
    long end = start + spec.gapMs();
    if (append && end <= batch.lateEventsWatermarkMs()) {
      metrics.numRowsDroppedByWatermark++;
      return;
    }
    int p = partitions.size() == 1 ? 0 : StatePartitions.ofHash(keys.hashOf(row),
        partitions.size());
    Map<Object, SessionList> partition = batchSessions.get(p);
    Object key = keys.keyOf(row);
    SessionList sessions = partition.get(key);
    if (sessions == null) {
      partition.put(key, sessions = new SessionList(merge));
      if (++batchKeys % CHECK_EVERY == 0) {
        batchAccount.set(batchKeys * bytesPerKey);
      }
    }
    Object[] partialBuffer = newBuffer(partial);
    for (Accumulator a : partial) {
      a.accumulate(partialBuffer, row);
    }
    for (Accumulator a : partial) {
      partialBuffer[a.slot] = a.finishPartial(partialBuffer[a.slot]);
    }
    sessions.add(start, end, partialBuffer, () -> newBuffer(merge));
  }

  @Override public void finishBatch(BatchContext batch) {
    List<Object[]> output = new ArrayList<>();
    for (int p = 0; p < partitions.size(); p++) {
      StateStore<Object, Object[]> store = partitions.get(p).getStore(batch.stateVersion());
      openStores.add(store);
      for (Map.Entry<Object, SessionList> e : batchSessions.get(p).entrySet()) {
        batch.resources().throwIfCancelled();
        SessionList saved = SessionList.restore(store.get(e.getKey()), merge);
        for (SessionList.Session s : e.getValue().sessions()) {
          saved.add(s.start, s.end, s.buffer, () -> newBuffer(merge));
        }
        store.put(e.getKey(), saved.toSaved());
        metrics.numUpdatedStateRows++;
      }
      if (append) {
        evict(store, batch.evictionWatermarkMs(), output);
      } else {
        for (Map.Entry<Object, Object[]> e : store.entries()) {
          output.addAll(rows.rows(e.getKey(), e.getValue()));
        }
      }
    }
    for (Object[] row : output) {
      metrics.numOutputRows++;
      downstream.push(row);
    }
    long stateKeys = 0;
    for (StateStore<Object, Object[]> store : openStores) {
      stateKeys += store.numKeys();
    }
    // The state now holds the batch's keys: checked against the budget before it commits them.
    batchAccount.set(0);
    stateAccount.set(partitions.get(0).keepsStateOnHeap() ? stateKeys * bytesPerKey : 0);
    for (StateStore<Object, Object[]> store : openStores) {
      store.commit();
    }
    metrics.numTotalStateRows = stateKeys;
    openStores.clear();
    batchSessions = null;
    lastEvictionWatermarkMs = batch.evictionWatermarkMs();
    downstream.finishBatch(batch);
  }

  /** Emits and removes the sessions that end at or before {@code watermarkMs}. */
  private void evict(StateStore<Object, Object[]> store, long watermarkMs,
      List<Object[]> output) {
    List<Map.Entry<Object, Object[]>> touched = new ArrayList<>();
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      // The first session ends first: a key has nothing final unless it does.
      if ((Long) e.getValue()[1] <= watermarkMs) {
        touched.add(Map.entry(e.getKey(), e.getValue()));
      }
    }
    for (Map.Entry<Object, Object[]> e : touched) {
      SessionList sessions = SessionList.restore(e.getValue(), merge);
      for (SessionList.Session s : sessions.removeEndingAtOrBefore(watermarkMs)) {
        output.add(rows.row(e.getKey(), s));
      }
      if (sessions.size() == 0) {
        store.remove(e.getKey());
        metrics.numRemovedStateRows++;
      } else {
        store.put(e.getKey(), sessions.toSaved());
        metrics.numUpdatedStateRows++;
      }
    }
  }

  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    return append && newWatermarkMs > lastEvictionWatermarkMs
        || downstream.needsNoDataBatch(newWatermarkMs);
  }

  @Override public void abortBatch(BatchContext batch) {
    for (StateStore<Object, Object[]> store : openStores) {
      store.abort();
    }
    openStores.clear();
    batchSessions = null;
    if (batchAccount != null) {
      batchAccount.set(0);
    }
    downstream.abortBatch(batch);
  }

  private Object[] newBuffer(Accumulator[] accumulators) {
    Object[] buffer = new Object[groupCount + accumulators.length];
    for (Accumulator a : accumulators) {
      buffer[a.slot] = a.initial();
    }
    return buffer;
  }
}

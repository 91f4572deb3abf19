package dev.freshet.executor.operators.rank;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.ForwardingOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.SortKey;
import dev.freshet.executor.operators.StateBound;
import dev.freshet.executor.operators.StateExpiry;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreProvider;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the {@code limit} best rows of each group of a stream and emits their ranks: the
 * {@code ROW_NUMBER() OVER (PARTITION BY keys ORDER BY ...) <= N} of a stream (Flink SQL's
 * top-N). Each emitted row is the input row, then its rank ({@code rn}, a BIGINT from 1), then,
 * with {@link TopNSpec#newKeyFlag()}, whether the rank is new to its group.
 *
 * <p><b>Why N rows are enough.</b> The input is append-only, so a row pushed out of a group's
 * first N by better rows can never come back: only the N best rows of each group are kept.
 *
 * <p><b>Per batch.</b> Each group keeps, in memory, its N best rows of the batch. When the batch
 * finishes, each group's N best rows in state are merged with them: rows equal on every
 * {@code ORDER BY} column rank by arrival (a row of an earlier batch before a row of this one,
 * and within a batch the first pushed first). In {@link OutputMode#UPDATE} the ranks whose row
 * changed are emitted (a row entering at rank 2 of 3 emits ranks 2 and 3, not rank 1); in
 * {@link OutputMode#COMPLETE} every rank of every group, after the batch's changes.
 *
 * <p><b>State.</b> One partition: key a {@link GroupKey} of the group's key values and the rank
 * (a {@code Long}), value the input row at that rank. Batch {@code N} opens version {@code N}
 * and commits {@code N + 1}; an abort gives the store up, and the next run of the batch, or an
 * operator rebuilt on the same provider, starts from the committed version. Without a state TTL
 * nothing expires: a group's ranks are kept for as long as the query runs.
 *
 * <p><b>State TTL.</b> With {@link #expireStateAfter(long)} each group also keeps, under rank 0,
 * the batch time of its last input row; a batch at least the TTL later drops the group's ranks
 * ({@link StateExpiry}), silently as Flink's top-N does, and a later row of the group ranks
 * first again.
 *
 * <pre>{@code
 * StreamTopNOperator topN = new StreamTopNOperator(spec, provider, sink);
 * topN.startBatch(batch);
 * topN.push(row);           // ... every row of the batch
 * topN.finishBatch(batch);  // merges, emits the changed ranks, commits
 * }</pre>
 *
 * <p>Per row, one key is made and one hash lookup done; a row is copied only when it is among
 * its group's N best of the batch. The batch's kept rows and the state's rows count in the
 * query's memory estimate ({@link BatchContext#resources()}), so that a top-N whose groups
 * outgrow the budget fails its batch instead of committing it.
 */
public final class StreamTopNOperator extends ForwardingOperator
    implements StatefulOperator {
  private final TopNSpec spec;
  private final int[] keys;
  /** Negative if a row ranks before another on the ORDER BY columns, 0 if equal. */
  private final Comparator<Object[]> order;
  private final int limit;
  private final StateStoreProvider<Object, Object[]> provider;
  /** This batch's best rows of each group, best first, in the order the groups arrived. */
  private final Map<GroupKey, List<Object[]>> candidates = new LinkedHashMap<>();
  private long candidateRows;
  /** Candidates between two updates of {@link #candidatesAccount}. */
  private static final int CHECK_EVERY = 1024;
  /** The store of the batch being finished, or null. */
  private StateStore<Object, Object[]> store;
  private StateMetrics metrics = new StateMetrics(0, 0, 0, 0, 0);
  /** The estimated heap of a state row besides its values; 40 bytes a value come on top. */
  private final long bytesPerEntry;
  /** Values per input row, once a row was seen. */
  private int width = -1;
  /** The row emitted downstream, reused: downstream copies what it keeps. */
  private Object[] out;
  private QueryResources resources;
  private MemoryAccount candidatesAccount;
  private MemoryAccount stateAccount;
  /** When groups expire by processing time; none unless {@link #expireStateAfter}. */
  private StateExpiry ttl = StateExpiry.after(0);

  /**
   * Creates the operator.
   *
   * @param spec what to rank
   * @param provider the state store provider (one partition)
   * @param downstream receives the ranked rows
   */
  public StreamTopNOperator(TopNSpec spec, StateStoreProvider<Object, Object[]> provider,
      Operator downstream) {
    super(downstream);
    this.spec = requireNonNull(spec, "spec");
    this.keys = spec.keys();
    this.order = SortKey.order(spec.order());
    this.limit = (int) spec.limit();
    this.provider = requireNonNull(provider, "provider");
    this.bytesPerEntry = 120 + 40L * (keys.length + 1);
  }

  /** What this operator ranks. */
  public TopNSpec spec() {
    return spec;
  }

  /** Its name in progress reports. */
  @Override public String operatorName() {
    return "topN";
  }

  /** The last batch's metrics: emitted rows, ranks in state, ranks written. */
  @Override public StateMetrics stateMetrics() {
    return metrics;
  }

  @Override public int numPartitions() {
    return 1;
  }

  @Override public void closeStores() {
    provider.close();
  }

  @Override public String stateKind() {
    return "top-n";
  }

  @Override public StateBound stateBound() {
    return StateBound.of(false, ttl.ttlMs());
  }

  /** Drops a group once no row of it came for {@code ttlMs}; called before the first batch. */
  @Override public void expireStateAfter(long ttlMs) {
    ttl = StateExpiry.after(ttlMs);
  }

  @Override public long nextExpiryMs() {
    return ttl.nextExpiryMs();
  }

  @Override public long stateBytes() {
    return metrics.numTotalStateRows() * (bytesPerEntry + 40L * Math.max(width, 0));
  }

  @Override public void startBatch(BatchContext batch) {
    candidates.clear();
    candidateRows = 0;
    if (batch.resources() != resources) {
      resources = batch.resources();
      candidatesAccount = resources.newAccount();
      stateAccount = resources.newAccount();
    }
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    width = row.length;
    GroupKey key = groupOf(row);
    List<Object[]> best = candidates.get(key);
    if (best == null) {
      best = new ArrayList<>(Math.min(limit, 16));
      candidates.put(key, best);
    }
    // After every row not worse than it: equal rows rank by arrival.
    int at = best.size();
    while (at > 0 && order.compare(row, best.get(at - 1)) < 0) {
      at--;
    }
    if (at >= limit) {
      return;
    }
    if (best.size() == limit) {
      best.remove(limit - 1);
    } else if (++candidateRows % CHECK_EVERY == 0) {
      candidatesAccount.set(candidateRows * (bytesPerEntry + 40L * row.length));
    }
    best.add(at, row.clone());
  }

  private GroupKey groupOf(Object[] row) {
    if (keys.length == 0) {
      return GroupKey.EMPTY;
    }
    Object[] values = new Object[keys.length];
    for (int i = 0; i < keys.length; i++) {
      values[i] = row[keys[i]];
    }
    return GroupKey.adopt(values);
  }

  private GroupKey rankKey(GroupKey group, long rank) {
    Object[] values = new Object[keys.length + 1];
    for (int i = 0; i < keys.length; i++) {
      values[i] = group.get(i);
    }
    values[keys.length] = rank;
    return GroupKey.adopt(values);
  }

  @Override public void finishBatch(BatchContext batch) {
    store = provider.getStore(batch.stateVersion());
    // Before the merge: a row of a group whose TTL ran out ranks in an empty group.
    long removed = ttl.due(batch.batchTimestampMs()) ? expire(batch.batchTimestampMs()) : 0;
    long updated = 0;
    long emitted = 0;
    List<Object[]> old = new ArrayList<>();
    List<Object[]> ranked = new ArrayList<>();
    for (Map.Entry<GroupKey, List<Object[]>> e : candidates.entrySet()) {
      GroupKey group = e.getKey();
      old.clear();
      for (long rank = 1; rank <= limit; rank++) {
        Object[] row = store.get(rankKey(group, rank));
        if (row == null) {
          break;
        }
        old.add(row);
      }
      merge(old, e.getValue(), ranked);
      if (ttl.enabled()) {
        // Rank 0 holds the group's last write time, which every row of it renews.
        store.put(rankKey(group, 0), new Object[] {batch.batchTimestampMs()});
        ttl.wrote(batch.batchTimestampMs());
      }
      for (int r = 0; r < ranked.size(); r++) {
        Object[] row = ranked.get(r);
        boolean isNew = r >= old.size();
        if (!isNew && row == old.get(r)) {
          continue;
        }
        store.put(rankKey(group, r + 1), row);
        updated++;
        if (spec.mode() == OutputMode.UPDATE) {
          emit(row, r + 1, isNew);
          emitted++;
        }
      }
    }
    candidates.clear();
    candidateRows = 0;
    candidatesAccount.set(0);
    if (spec.mode() == OutputMode.COMPLETE) {
      for (Map.Entry<Object, Object[]> e : store.entries()) {
        GroupKey key = (GroupKey) e.getKey();
        if ((Long) key.get(keys.length) == 0) {
          continue;
        }
        // Every rank of the result is emitted again; none is new to a reader of the whole.
        emit(e.getValue(), (Long) key.get(keys.length), false);
        emitted++;
      }
    }
    long total = store.numKeys();
    // The state now holds the batch's rows: checked against the budget before it commits them.
    stateAccount.set(provider.keepsStateOnHeap()
        ? total * (bytesPerEntry + 40L * Math.max(width, 0)) : 0);
    store.commit();
    store = null;
    metrics = new StateMetrics(emitted, total, updated, removed, 0);
    downstream.finishBatch(batch);
  }

  /** Removes the ranks of the groups no row came for the TTL before {@code nowMs}. */
  private long expire(long nowMs) {
    List<GroupKey> expired = new ArrayList<>();
    long oldestKept = Long.MAX_VALUE;
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      GroupKey key = (GroupKey) e.getKey();
      if ((Long) key.get(keys.length) != 0) {
        continue;
      }
      long written = (Long) e.getValue()[0];
      if (ttl.expired(written, nowMs)) {
        expired.add(key);
      } else {
        oldestKept = Math.min(oldestKept, written);
      }
    }
    long removed = 0;
    for (GroupKey meta : expired) {
      for (long rank = 0; rank <= limit; rank++) {
        GroupKey key = rankKey(meta, rank);
        if (rank == 0 || store.get(key) != null) {
          store.remove(key);
          removed++;
        }
      }
    }
    ttl.scanned(oldestKept);
    return removed;
  }

  /**
   * Puts into {@code into} the first {@code limit} rows of {@code old} (the state's, earlier
   * arrivals) and {@code fresh} (the batch's), both best first; on a tie the old row first.
   */
  private void merge(List<Object[]> old, List<Object[]> fresh, List<Object[]> into) {
    into.clear();
    int i = 0;
    int j = 0;
    while (into.size() < limit && (i < old.size() || j < fresh.size())) {
      if (j >= fresh.size() || i < old.size() && order.compare(old.get(i), fresh.get(j)) <= 0) {
        into.add(old.get(i++));
      } else {
        into.add(fresh.get(j++));
      }
    }
  }

  private void emit(Object[] row, long rank, boolean isNew) {
    int size = row.length + 1 + (spec.newKeyFlag() ? 1 : 0);
    if (out == null || out.length != size) {
      out = new Object[size];
    }
    System.arraycopy(row, 0, out, 0, row.length);
    out[row.length] = rank;
    if (spec.newKeyFlag()) {
      out[row.length + 1] = isNew;
    }
    downstream.push(out);
  }

  @Override public void abortBatch(BatchContext batch) {
    candidates.clear();
    candidateRows = 0;
    if (candidatesAccount != null) {
      candidatesAccount.set(0);
    }
    if (store != null) {
      store.abort();
      store = null;
    }
    ttl.forget();
    downstream.abortBatch(batch);
  }
}

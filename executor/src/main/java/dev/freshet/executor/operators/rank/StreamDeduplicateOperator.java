package dev.freshet.executor.operators.rank;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.StateBound;
import dev.freshet.executor.operators.StateExpiry;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Emits the first row of each key once and drops the key's later rows: the
 * {@code ROW_NUMBER() OVER (PARTITION BY keys ORDER BY col) = 1} of a stream, as Spark's
 * {@code StreamingDeduplicateExec} and {@code StreamingDeduplicateWithinWatermarkExec}.
 *
 * <p><b>Per batch.</b> A row whose event time is at or before the batch's late-events watermark
 * is dropped as late ({@code numRowsDroppedByWatermark}), as Spark drops it before deduplicating.
 * Of the other rows, each key keeps one candidate: the one with the least {@code ORDER BY} value,
 * the first to arrive among equal ones. When the batch finishes, a candidate whose key the state
 * does not hold is emitted, in the order its key first arrived, and its key is kept; the others
 * are duplicates of an earlier batch's row and go. So the first batch in which a key appears
 * decides its row: a row of a later batch never replaces it, whatever its {@code ORDER BY} value,
 * because the row emitted cannot be taken back (the output is append-only).
 *
 * <p><b>State.</b> One partition: key a {@link GroupKey} of the key columns, value a row of one
 * column, the time at which the key expires ({@code expiryIndex} value of its row plus
 * {@code expiryDelayMs}), or NULL for a key kept forever. After emitting, the batch removes the
 * keys whose expiry is at or before its eviction watermark (Spark's
 * {@code dropDuplicatesWithinWatermark} state, {@code expiresAt <= watermark}), then commits:
 * batch {@code N} opens version {@code N} and commits {@code N + 1}. An abort gives the store
 * up; the next run of the batch, or an operator rebuilt on the same provider, starts from the
 * committed version.
 *
 * <p><b>State TTL.</b> With {@link #expireStateAfter(long)} the value also holds the batch time
 * at which the key was kept, and a batch at least the TTL later forgets the key
 * ({@link StateExpiry}): a later row of it is emitted again. A duplicate does not renew the key,
 * as in Flink's keep-first-row deduplication, which writes state only for the first row.
 *
 * <pre>{@code
 * StreamDeduplicateOperator dedup = new StreamDeduplicateOperator(spec, provider, sink);
 * dedup.startBatch(batch);
 * dedup.push(row);           // ... every row of the batch
 * dedup.finishBatch(batch);  // emits each new key's row, evicts, commits
 * }</pre>
 *
 * <p>Rows are copied only when they become a key's candidate; per row, one key is made and one
 * hash lookup done; the store is read once per candidate key.
 *
 * <p><b>Limits.</b> The batch's candidates (every {@value #CHECK_EVERY} of them) and the keys in
 * state (before each commit) count in the query's memory estimate
 * ({@link BatchContext#resources()}) at an estimated size each, so that a deduplication whose
 * keys outgrow the budget fails its batch instead of committing it.
 */
public final class StreamDeduplicateOperator implements StatefulOperator {
  private final DeduplicateSpec spec;
  private final int[] keys;
  private final StateStoreProvider<Object, Object[]> provider;
  private final Operator downstream;
  /** This batch's candidate row of each key, in the order the keys first arrived. */
  private final Map<GroupKey, Object[]> candidates = new LinkedHashMap<>();
  /** The late-events watermark of the batch under way. */
  private long lateWatermarkMs = BatchContext.NO_WATERMARK;
  /** The store of the batch being finished, or null. */
  private StateStore<Object, Object[]> store;
  /**
   * The least expiry of the keys in state, {@link Long#MAX_VALUE} if none expires, or
   * {@link #UNKNOWN} before the first batch and after an abort, when the state was not read.
   */
  private long minExpiryMs = UNKNOWN;
  private static final long UNKNOWN = Long.MIN_VALUE;
  private long dropped;
  private StateMetrics metrics = new StateMetrics(0, 0, 0, 0, 0);
  /** Candidates between two updates of {@link #candidatesAccount}. */
  private static final int CHECK_EVERY = 1024;
  /**
   * The estimated heap of a key in state: its {@link GroupKey}, boxed values and the store's
   * entry and value row. An estimate from the number of key columns, not a measure.
   */
  private final long bytesPerKey;
  private QueryResources resources;
  private MemoryAccount candidatesAccount;
  private MemoryAccount stateAccount;
  /** When kept keys expire by processing time; none unless {@link #expireStateAfter}. */
  private StateExpiry ttl = StateExpiry.after(0);

  /**
   * Creates the operator.
   *
   * @param spec what to deduplicate
   * @param provider the state store provider (one partition)
   * @param downstream receives each key's first row
   */
  public StreamDeduplicateOperator(DeduplicateSpec spec,
      StateStoreProvider<Object, Object[]> provider, Operator downstream) {
    this.spec = requireNonNull(spec, "spec");
    this.keys = spec.keys();
    this.provider = requireNonNull(provider, "provider");
    this.downstream = requireNonNull(downstream, "downstream");
    this.bytesPerKey = 120 + 40L * keys.length;
  }

  /** What this operator deduplicates. */
  public DeduplicateSpec spec() {
    return spec;
  }

  /**
   * Spark's name for it: {@code dedupeWithinWatermark} if keys expire by the ORDER BY column (the
   * watermark's), else {@code dedupe} (also when an event-time key expires them).
   */
  @Override public String operatorName() {
    return spec.expires() && spec.expiryIndex() == spec.orderIndex() ? "dedupeWithinWatermark"
        : "dedupe";
  }

  /** The last batch's metrics: kept keys, new keys, expired keys, late rows. */
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
    return "deduplication";
  }

  @Override public StateBound stateBound() {
    return StateBound.of(spec.expires(), ttl.ttlMs());
  }

  /** Forgets a key once {@code ttlMs} passed since it was kept; before the first batch. */
  @Override public void expireStateAfter(long ttlMs) {
    ttl = StateExpiry.after(ttlMs);
  }

  @Override public long nextExpiryMs() {
    return ttl.nextExpiryMs();
  }

  @Override public long stateBytes() {
    return metrics.numTotalStateRows() * bytesPerKey;
  }

  @Override public void startBatch(BatchContext batch) {
    candidates.clear();
    dropped = 0;
    lateWatermarkMs = batch.lateEventsWatermarkMs();
    if (batch.resources() != resources) {
      resources = batch.resources();
      candidatesAccount = resources.newAccount();
      stateAccount = resources.newAccount();
    }
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    int eventTime = spec.eventTimeIndex();
    if (eventTime >= 0 && row[eventTime] != null
        && lateWatermarkMs != BatchContext.NO_WATERMARK
        && (Long) row[eventTime] <= lateWatermarkMs) {
      dropped++;
      return;
    }
    GroupKey key = keyOf(row);
    Object[] candidate = candidates.get(key);
    if (candidate == null) {
      candidates.put(key, row.clone());
      if (candidates.size() % CHECK_EVERY == 0) {
        candidatesAccount.set(candidates.size() * (bytesPerKey + 40L * row.length));
      }
    } else if (spec.orderIndex() >= 0 && before(row, candidate)) {
      // Same key and slot: the map keeps the key's first arrival position.
      candidates.put(key, row.clone());
    }
  }

  private GroupKey keyOf(Object[] row) {
    if (keys.length == 0) {
      return GroupKey.EMPTY;
    }
    Object[] values = new Object[keys.length];
    for (int i = 0; i < keys.length; i++) {
      values[i] = row[keys[i]];
    }
    return GroupKey.adopt(values);
  }

  /** Whether {@code row} sorts strictly before {@code candidate} on the ORDER BY column. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private boolean before(Object[] row, Object[] candidate) {
    Object a = row[spec.orderIndex()];
    Object b = candidate[spec.orderIndex()];
    if (a == null || b == null) {
      return a != b && (a == null) == spec.nullsFirst();
    }
    return ((Comparable) a).compareTo(b) < 0;
  }

  @Override public void finishBatch(BatchContext batch) {
    store = provider.getStore(batch.stateVersion());
    long updated = 0;
    long emitted = 0;
    if (minExpiryMs == UNKNOWN) {
      minExpiryMs = spec.expires() ? minExpiry(store) : Long.MAX_VALUE;
    }
    // Before the candidates: a row of a key whose TTL ran out is a first row again.
    long expiredByTtl = ttl.due(batch.batchTimestampMs())
        ? expireByTtl(batch.batchTimestampMs()) : 0;
    for (Map.Entry<GroupKey, Object[]> e : candidates.entrySet()) {
      if (store.get(e.getKey()) != null) {
        continue;
      }
      Object[] row = e.getValue();
      Long expiry = null;
      if (spec.expires() && row[spec.expiryIndex()] != null) {
        expiry = (Long) row[spec.expiryIndex()] + spec.expiryDelayMs();
        minExpiryMs = Math.min(minExpiryMs, expiry);
      }
      store.put(e.getKey(), ttl.enabled() ? new Object[] {expiry, batch.batchTimestampMs()}
          : new Object[] {expiry});
      ttl.wrote(batch.batchTimestampMs());
      updated++;
      emitted++;
      downstream.push(row);
    }
    candidates.clear();
    candidatesAccount.set(0);
    long removed = evict(batch.evictionWatermarkMs()) + expiredByTtl;
    long total = store.numKeys();
    // The state now holds the batch's keys: checked against the budget before it commits them.
    stateAccount.set(provider.keepsStateOnHeap() ? total * bytesPerKey : 0);
    store.commit();
    store = null;
    metrics = new StateMetrics(emitted, total, updated, removed, dropped);
    downstream.finishBatch(batch);
  }

  /** Removes the keys that expire at or before {@code watermarkMs}; returns how many. */
  private long evict(long watermarkMs) {
    if (!spec.expires() || watermarkMs == BatchContext.NO_WATERMARK
        || minExpiryMs > watermarkMs) {
      return 0;
    }
    List<Object> expired = new ArrayList<>();
    long min = Long.MAX_VALUE;
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      Object expiry = e.getValue()[0];
      if (expiry == null) {
        continue;
      }
      if ((Long) expiry <= watermarkMs) {
        expired.add(e.getKey());
      } else {
        min = Math.min(min, (Long) expiry);
      }
    }
    for (Object key : expired) {
      store.remove(key);
    }
    minExpiryMs = min;
    return expired.size();
  }

  /** Removes the keys kept at least the TTL before {@code nowMs}; returns how many. */
  private long expireByTtl(long nowMs) {
    List<Object> expired = new ArrayList<>();
    long oldestKept = Long.MAX_VALUE;
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      Object[] value = e.getValue();
      long kept = value.length > 1 && value[1] != null ? (Long) value[1] : Long.MIN_VALUE / 2;
      if (ttl.expired(kept, nowMs)) {
        expired.add(e.getKey());
      } else {
        oldestKept = Math.min(oldestKept, kept);
      }
    }
    for (Object key : expired) {
      store.remove(key);
    }
    ttl.scanned(oldestKept);
    return expired.size();
  }

  private static long minExpiry(StateStore<Object, Object[]> store) {
    long min = Long.MAX_VALUE;
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      Object expiry = e.getValue()[0];
      if (expiry != null) {
        min = Math.min(min, (Long) expiry);
      }
    }
    return min;
  }

  @Override public void abortBatch(BatchContext batch) {
    candidates.clear();
    if (candidatesAccount != null) {
      candidatesAccount.set(0);
    }
    if (store != null) {
      store.abort();
      store = null;
    }
    // The expiries seen may have been of keys the aborted batch added: read them again.
    minExpiryMs = UNKNOWN;
    ttl.forget();
    downstream.abortBatch(batch);
  }

  /**
   * True when the watermark {@code newWatermarkMs} would expire a key, so that a batch without
   * data forgets it on time (Spark's no-data batch), or before the state was read, whenever keys
   * can expire.
   */
  @Override public boolean needsNoDataBatch(long newWatermarkMs) {
    boolean evicts = spec.expires() && newWatermarkMs != BatchContext.NO_WATERMARK
        && (minExpiryMs == UNKNOWN || minExpiryMs <= newWatermarkMs);
    return evicts || downstream.needsNoDataBatch(newWatermarkMs);
  }
}

package dev.freshet.executor.operators.join;

import dev.freshet.executor.limits.MemoryAccount;
import dev.freshet.executor.operators.KeyExtractor;
import dev.freshet.executor.operators.StateExpiry;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * One side of a stream-stream join: the rows of its earlier batches, found by join key, and the
 * rows its input pushed in the current batch.
 *
 * <p><b>State layout.</b> The side's store holds one entry per kept row: key the row's id (a
 * {@code Long}, unique within the side), value the row's columns followed by its matched flag
 * ({@link StateRow}). Lookups by join key go through an index on the heap, built from the store
 * when the operator first opens a version and kept in step with it afterwards, so that a batch
 * reads the store only then; at the end of a batch only the rows it added or newly matched are
 * written and the evicted ones removed. A restarted operator, or one whose batch was aborted,
 * rebuilds the index from the version it opens, ordering each key's rows by id, which is the
 * order they arrived in: a re-run batch sees and emits the same rows in the same order.
 *
 * <p><b>State TTL.</b> With {@link #expireStateAfter} a kept row's value ends with one more
 * slot, the batch time at which it was kept, and a batch at least the TTL later removes it
 * ({@link StateExpiry}), silently: an outer side's unmatched row is not emitted, as Flink's
 * expired join state emits nothing.
 *
 * <p>Used by the batch thread only, except {@link #add}, which the side's input thread calls.
 */
final class JoinSide {
  private final int width;
  private final int eventTime;
  private final KeyExtractor keys;
  private final StateStoreProvider<Object, Object[]> provider;
  /** Whether unmatched rows are emitted when evicted (the outer side of an outer join). */
  final boolean keepsUnmatched;
  /** Rows by join key; each key's rows in id order. */
  private final Map<Object, List<StateRow>> rowsByKey = new HashMap<>();
  /** The state version {@link #rowsByKey} shows, -1 when it must be rebuilt. */
  private long loadedVersion = -1;
  private long nextId;
  /** Ids from here on were given in this batch and are not in the store yet. */
  private long firstNewId;
  /** Rows in state. */
  private long numRows;
  /** The least event time of the rows in state (those without one count as the least). */
  private long minEventTimeMs = Long.MAX_VALUE;
  /** The store of the batch being finished, or null. */
  private StateStore<Object, Object[]> store;
  /** This batch's input, not late. */
  final List<StateRow> input = new ArrayList<>();
  /** This batch's rows to write at its end. */
  private final List<StateRow> dirty = new ArrayList<>();
  /** Late-events watermark of the batch being read, for {@link #add}. */
  private long lateWatermarkMs = Long.MIN_VALUE;
  long dropped;
  long updated;
  long removed;
  /** When kept rows expire by processing time; none unless {@link #expireStateAfter}. */
  private StateExpiry ttl = StateExpiry.after(0);
  /** The time of the batch under way, which the rows it keeps record with a TTL. */
  private long batchTimeMs;
  /** Buffered input rows between two updates of {@link #inputAccount}. */
  static final int CHECK_EVERY = 1024;
  /**
   * The estimated heap of one kept row: its columns boxed, its array, its {@link StateRow}, its
   * index and store entries. An estimate from its width, not a measure.
   */
  /** The estimated heap of one row the side keeps; 0 if its provider keeps it on disk. */
  final long bytesPerStateRow;
  final long bytesPerRow;
  /** The estimate of this batch's buffered input, set by the input's thread. */
  private MemoryAccount inputAccount;

  JoinSide(int width, int eventTime, int[] keyColumns,
      StateStoreProvider<Object, Object[]> provider, boolean keepsUnmatched) {
    this.width = width;
    this.eventTime = eventTime;
    this.keys = new KeyExtractor(keyColumns);
    this.provider = provider;
    this.keepsUnmatched = keepsUnmatched;
    this.bytesPerRow = 160 + 40L * (width + 1);
    this.bytesPerStateRow = provider.keepsStateOnHeap() ? bytesPerRow : 0;
  }

  /** Begins reading a batch's input, whose buffered rows count in {@code account}. */
  void startInput(long lateEventsWatermarkMs, MemoryAccount account) {
    input.clear();
    inputAccount = account;
    dropped = 0;
    lateWatermarkMs = lateEventsWatermarkMs;
  }

  /**
   * Keeps a copy of {@code row} for the batch, or drops it as late: its event time is at or
   * before the late-events watermark, as Spark's join drops it before joining.
   */
  void add(Object[] row) {
    if (row.length < width) {
      throw new IllegalArgumentException("expected a row of " + width + " columns, got "
          + row.length);
    }
    long ts = 0;
    boolean hasTime = false;
    if (eventTime >= 0 && row[eventTime] != null) {
      ts = (Long) row[eventTime];
      hasTime = true;
      if (lateWatermarkMs != Long.MIN_VALUE && ts <= lateWatermarkMs) {
        dropped++;
        return;
      }
    }
    Object[] value = new Object[width + (ttl.enabled() ? 2 : 1)];
    System.arraycopy(row, 0, value, 0, width);
    value[width] = Boolean.FALSE;
    input.add(new StateRow(value, ts, hasTime, false));
    if (input.size() % CHECK_EVERY == 0) {
      inputAccount.set(input.size() * bytesPerRow);
    }
  }

  /** Forgets the estimate of the buffered input, once the rows are in the state's. */
  void releaseInput() {
    if (inputAccount != null) {
      inputAccount.set(0);
    }
  }

  /**
   * Opens the store at {@code version} for the batch being finished; rebuilds the index if it does
   * not show that version (first batch of this operator, or after an abort).
   */
  void open(long version, long batchTimestampMs) {
    batchTimeMs = batchTimestampMs;
    store = provider.getStore(version);
    updated = 0;
    removed = 0;
    dirty.clear();
    if (loadedVersion != version) {
      load();
      loadedVersion = version;
    }
    firstNewId = nextId;
  }

  private void load() {
    rowsByKey.clear();
    numRows = 0;
    nextId = 0;
    minEventTimeMs = Long.MAX_VALUE;
    List<StateRow> loaded = new ArrayList<>();
    for (Map.Entry<Object, Object[]> e : store.entries()) {
      Object[] value = e.getValue();
      Object ts = eventTime >= 0 ? value[eventTime] : null;
      StateRow row = new StateRow(value, ts == null ? 0 : (Long) ts, ts != null,
          (Boolean) value[width]);
      row.id = (Long) e.getKey();
      row.saved = true;
      loaded.add(row);
    }
    loaded.sort((a, b) -> Long.compare(a.id, b.id));
    for (StateRow row : loaded) {
      index(keyOf(row), row);
      nextId = row.id + 1;
    }
  }

  /** The join key of a kept row. */
  Object keyOf(StateRow row) {
    return keys.keyOf(row.value);
  }

  /** Whether a key has a NULL column: it equals nothing, as SQL's {@code =}. */
  static boolean hasNull(Object key) {
    if (key == null) {
      return true;
    }
    if (key instanceof GroupKey k) {
      for (int i = 0; i < k.size(); i++) {
        if (k.get(i) == null) {
          return true;
        }
      }
    }
    return false;
  }

  /** The rows of {@code key} in state, in id order, or null. */
  List<StateRow> rowsOf(Object key) {
    return rowsByKey.get(key);
  }

  /** Adds a row of this batch's input to the state, under {@code key}; written at the end. */
  void keep(Object key, StateRow row) {
    if (ttl.enabled()) {
      row.value[width + 1] = batchTimeMs;
      ttl.wrote(batchTimeMs);
    }
    row.id = nextId++;
    row.dirty = true;
    dirty.add(row);
    index(key, row);
  }

  private void index(Object key, StateRow row) {
    rowsByKey.computeIfAbsent(key, k -> new ArrayList<>(2)).add(row);
    numRows++;
    if (!row.hasTime) {
      minEventTimeMs = Long.MIN_VALUE;
    } else if (row.eventTimeMs < minEventTimeMs) {
      minEventTimeMs = row.eventTimeMs;
    }
  }

  /** Records that {@code row}, in state, matched a row of the other side. */
  void markMatched(StateRow row) {
    if (row.matched || !keepsUnmatched) {
      // Only an outer side needs the flag: it decides whether an evicted row is emitted.
      return;
    }
    row.matched = true;
    if (row.saved) {
      // The saved array belongs to the store; the flag goes into a copy, saved at the end.
      row.value = row.value.clone();
      row.saved = false;
    }
    row.value[width] = Boolean.TRUE;
    if (!row.dirty) {
      row.dirty = true;
      dirty.add(row);
    }
  }

  /**
   * Whether the state holds a row that a batch with state watermark {@code stateWatermarkMs}
   * would evict; false for {@link Long#MIN_VALUE}, which evicts nothing.
   */
  boolean wouldEvict(long stateWatermarkMs) {
    return stateWatermarkMs != Long.MIN_VALUE && numRows > 0
        && minEventTimeMs <= stateWatermarkMs;
  }

  /** Whether the index shows a version, so that {@link #wouldEvict} knows the state. */
  boolean loaded() {
    return loadedVersion >= 0;
  }

  /**
   * Removes the rows at or before {@code stateWatermarkMs} (and those without event time); adds
   * the unmatched ones of an outer side to {@code unmatched}. Scans every row, as Spark does.
   */
  void evict(long stateWatermarkMs, List<StateRow> unmatched) {
    if (stateWatermarkMs == Long.MIN_VALUE || numRows == 0
        || minEventTimeMs > stateWatermarkMs) {
      return;
    }
    minEventTimeMs = sweep(row -> !row.hasTime || row.eventTimeMs <= stateWatermarkMs,
        row -> row.eventTimeMs, keepsUnmatched ? unmatched : null);
  }

  /**
   * Removes the rows {@code drops} accepts from the state, adding the unmatched ones among them
   * to {@code unmatched} unless it is null; returns the least {@code timeOf} of the rows kept
   * ({@link Long#MAX_VALUE} if none), which says when the next sweep can find anything.
   */
  private long sweep(Predicate<StateRow> drops, ToLongFunction<StateRow> timeOf,
      List<StateRow> unmatched) {
    long min = Long.MAX_VALUE;
    Iterator<List<StateRow>> lists = rowsByKey.values().iterator();
    while (lists.hasNext()) {
      List<StateRow> rows = lists.next();
      int kept = 0;
      for (int i = 0; i < rows.size(); i++) {
        StateRow row = rows.get(i);
        if (drops.test(row)) {
          row.evicted = true;
          numRows--;
          if (row.id < firstNewId) {
            store.remove(row.id);
            removed++;
          }
          if (unmatched != null && !row.matched) {
            unmatched.add(row);
          }
        } else {
          rows.set(kept++, row);
          min = Math.min(min, timeOf.applyAsLong(row));
        }
      }
      if (kept == 0) {
        lists.remove();
      } else {
        rows.subList(kept, rows.size()).clear();
      }
    }
    return min;
  }

  /** Makes kept rows expire {@code ttlMs} after the batch that kept them; before the first. */
  void expireStateAfter(long ttlMs) {
    ttl = StateExpiry.after(ttlMs);
  }

  /** When a kept row may expire: see {@link StateExpiry#nextExpiryMs()}. */
  long nextExpiryMs() {
    return ttl.nextExpiryMs();
  }

  /** Removes the rows kept at least the TTL before the batch under way, if any may be. */
  void expireByTtl() {
    if (!ttl.due(batchTimeMs)) {
      return;
    }
    // Flink's expired state retracts nothing: an expired unmatched row is not emitted.
    ttl.scanned(sweep(row -> ttl.expired(writtenMs(row), batchTimeMs), JoinSide.this::writtenMs,
        null));
  }

  /** The batch time at which {@code row} was kept, the slot after its columns under a TTL. */
  private long writtenMs(StateRow row) {
    Object written = row.value.length > width + 1 ? row.value[width + 1] : null;
    return written == null ? Long.MIN_VALUE / 2 : (Long) written;
  }

  /** Writes the rows the batch added or newly matched and still keeps, then commits. */
  void commit() {
    for (StateRow row : dirty) {
      row.dirty = false;
      if (!row.evicted) {
        store.put(row.id, row.value);
        row.saved = true;
        updated++;
      }
    }
    dirty.clear();
    input.clear();
    long version = store.commit();
    store = null;
    loadedVersion = version;
  }

  /** Gives up the batch: the store is aborted and the index rebuilt when next opened. */
  void abort() {
    if (store != null) {
      store.abort();
      store = null;
    }
    input.clear();
    releaseInput();
    dirty.clear();
    rowsByKey.clear();
    numRows = 0;
    loadedVersion = -1;
    ttl.forget();
  }

  /** Rows in state. */
  long numRows() {
    return numRows;
  }

  void close() {
    provider.close();
  }
}

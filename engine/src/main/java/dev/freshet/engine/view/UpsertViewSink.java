package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.push.RowKind;
import dev.freshet.engine.spi.ViewBatchSink;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreProvider;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sink of a view that another engine runs in UPDATE or COMPLETE mode (keyed rows, {@link
 * ViewBatchSink}): it upserts each delivered group's row into a versioned state store of its own,
 * keyed by the group, and removes a group that HAVING now rejects (and, in COMPLETE mode, every
 * group the batch did not deliver). Version {@code b + 1} of the store is the view after batch
 * {@code b}; {@link StateViewResult} reads it as it reads Freshet's own aggregation's state
 * ({@link GroupRows#SAVED_ROW}), so readers, subscribers and views over this view work alike.
 *
 * <pre>{@code
 * UpsertViewSink sink = new UpsertViewSink("PER_USER", result, store, 2, false);
 * sink.addBatch(0, List.of(new Object[] {"u1", 3L, "u1", true}));   // INSERT u1
 * sink.addBatch(0, ...);                                            // applied already: nothing
 * }</pre>
 *
 * <p><b>Exactly once.</b> The store commits a batch's groups atomically with its version; a batch
 * delivered again (the engine failed after delivering it, before its own commit) finds its
 * version committed and changes nothing, so subscribers see it once.
 */
public final class UpsertViewSink implements ViewBatchSink {
  private final String view;
  private final StateViewResult result;
  private final StateStoreProvider<Object, Object[]> store;
  private final int columns;
  private final boolean complete;
  /**
   * The last batch applied: the store's committed version less one, read from the store once
   * (it lists files) and kept here, since readers of the query's progress ask for it often.
   */
  private volatile long lastApplied;

  /**
   * @param store the view's rows by group key, version {@code b + 1} after batch {@code b}: the
   *     one partition {@code result} reads
   * @param columns the view's columns (a delivered row has the key's after them, then the flag)
   * @param complete whether each batch delivers every group (COMPLETE mode)
   */
  public UpsertViewSink(String view, StateViewResult result,
      StateStoreProvider<Object, Object[]> store, int columns, boolean complete) {
    this.view = requireNonNull(view, "view");
    this.result = requireNonNull(result, "result");
    this.store = requireNonNull(store, "store");
    this.columns = columns;
    this.complete = complete;
    this.lastApplied = store.latestCommittedVersion() - 1;
  }

  @Override public long lastAppliedBatch() {
    return lastApplied;
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) throws SQLException {
    if (DeliveredBatches.of(view, batchId, lastApplied) == DeliveredBatches.APPLIED) {
      return;
    }
    StateStore<Object, Object[]> next = store.getStore(batchId);
    List<Object[]> changes = new ArrayList<>(rows.size());
    Set<Object> delivered = complete ? new HashSet<>() : Set.of();
    try {
      for (Object[] row : rows) {
        Object key = keyOf(row);
        Object[] was = next.get(key);
        if (complete) {
          delivered.add(key);
        }
        if (Boolean.TRUE.equals(row[row.length - 1])) {
          Object[] is = Arrays.copyOf(row, columns);
          next.put(key, is);
          if (was == null || !Arrays.equals(was, is)) {
            changes.add(ViewChanges.row(is, columns, batchId,
                was == null ? RowKind.INSERT : RowKind.UPDATE, key));
          }
        } else if (was != null) {
          next.remove(key);
          changes.add(ViewChanges.row(was, columns, batchId, RowKind.DELETE, key));
        }
      }
      if (complete) {
        List<Map.Entry<Object, Object[]>> gone = new ArrayList<>();
        for (Map.Entry<Object, Object[]> e : next.entries()) {
          if (!delivered.contains(e.getKey())) {
            gone.add(e);
          }
        }
        for (Map.Entry<Object, Object[]> e : gone) {
          next.remove(e.getKey());
          changes.add(ViewChanges.row(e.getValue(), columns, batchId, RowKind.DELETE,
              e.getKey()));
        }
      }
      next.commit();
      lastApplied = batchId;
    } catch (RuntimeException e) {
      if (!next.hasCommitted()) {
        next.abort();
      }
      throw e;
    }
    result.publish(batchId, changes, List.of(), List.of());
    result.publishStaged();
  }

  /**
   * The group's state key: its one key column as it is (a lookup by the key finds it), else a
   * {@link GroupKey} of its columns (none: the one group of an aggregation without GROUP BY;
   * one NULL: the NULL group).
   */
  private Object keyOf(Object[] row) {
    int keys = row.length - columns - 1;
    if (keys == 1 && row[columns] != null) {
      return row[columns];
    }
    return keys == 0 ? GroupKey.EMPTY
        : GroupKey.adopt(Arrays.copyOfRange(row, columns, columns + keys));
  }
}

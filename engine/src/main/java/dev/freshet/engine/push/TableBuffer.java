package dev.freshet.engine.push;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The unread rows of a COMPLETE result ({@link PushPolicy.Table}): the rest of the table being
 * read and the latest table, which replaces an unread one, so that memory is bounded by twice
 * the table whatever the reader's pace. Each batch's rows say how the table changed since the
 * table the reader will have read: deletes first, then inserts and updates.
 *
 * <pre>{@code
 * PushBuffer buffer = new TableBuffer(new PushPolicy.Table(new int[] {0}), 2, false);
 * }</pre>
 */
final class TableBuffer extends PushBuffer {
  /** Positions of the group key in the rows the query emits. */
  private final int[] keyColumns;
  /** The latest table no row of which has been read, with kinds against pendingBase. */
  private List<Object[]> pendingTable;
  /** The table the reader will have once it has read {@link #ready}. */
  private Map<Object, Object[]> pendingBase;
  /** The latest batch's table by key; what the next batch is compared with. */
  private Map<Object, Object[]> lastTable = new HashMap<>();

  TableBuffer(PushPolicy.Table table, int visible, boolean markers) {
    super(visible, markers);
    this.keyColumns = table.keyColumns();
  }

  /** Each row with its key: {@code {key, row}}. */
  @Override List<Object[]> prepare(long batchId, List<Object[]> rows) {
    List<Object[]> keys = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      Object key = keyOf(keyColumns, row);
      keys.add(new Object[] {key, row});
    }
    return keys;
  }

  @Override int add(long batchId, List<Object[]> keys) {
    Long id = batchId;
    Map<Object, Object[]> table = new HashMap<>(Math.max(16, keys.size() * 2));
    // Kinds are relative to what the reader will have read: an unread table is replaced, so
    // the new one is compared with the table before it.
    Map<Object, Object[]> base = pendingTable != null ? pendingBase : lastTable;
    List<Object[]> outs = new ArrayList<>(keys.size() + 1);
    for (Object[] pair : keys) {
      Object key = pair[0];
      Object[] out = out((Object[]) pair[1], id,
          base.containsKey(key) ? RowKind.UPDATE : RowKind.INSERT);
      table.put(key, out);
      outs.add(out);
    }
    List<Object[]> deletes = new ArrayList<>();
    for (Map.Entry<Object, Object[]> old : base.entrySet()) {
      if (!table.containsKey(old.getKey())) {
        Object[] deleted = old.getValue().clone();
        deleted[visible] = id;
        deleted[visible + 1] = RowKind.DELETE;
        deletes.add(deleted);
      }
    }
    // Deletes first, so that a consumer applying rows in order never holds more groups than
    // either table has.
    deletes.addAll(outs);
    if (markers) {
      deletes.add(marker(id));
    }
    pendingBase = base;
    pendingTable = deletes;
    lastTable = table;
    return ready.size() + deletes.size();
  }

  /** The rest of the table being read, then the latest table. */
  @Override Object[] take() {
    Object[] row = ready.poll();
    if (row != null || pendingTable == null) {
      return row;
    }
    ready.addAll(pendingTable);
    pendingTable = null;
    pendingBase = null;
    return ready.poll();
  }

  @Override int size() {
    return ready.size() + (pendingTable == null ? 0 : pendingTable.size());
  }

  @Override void clear() {
    ready.clear();
    pendingTable = null;
    pendingBase = null;
    lastTable = new HashMap<>();
  }
}

package dev.freshet.engine.push;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The unread rows of an UPDATE result ({@link PushPolicy.Upsert}): the latest unread row per
 * key, oldest first, so that memory is bounded by the number of groups whatever the reader's
 * pace. A row's kind is what it is to the reader: a key the reader never saw stays an INSERT.
 *
 * <pre>{@code
 * PushBuffer buffer = new UpsertBuffer(new PushPolicy.Upsert(new int[] {0}, 2), 2, false);
 * }</pre>
 */
final class UpsertBuffer extends PushBuffer {
  /** Key of the batch marker among the unread rows. */
  private static final Object MARKER_KEY = new Object();

  /** Positions of the group key in the rows the query emits. */
  private final int[] keyColumns;
  private final int newKeyColumn;
  private final int kindColumn;
  /** The latest unread row per key, oldest first; the marker under {@link #MARKER_KEY}. */
  private final LinkedHashMap<Object, Object[]> unread = new LinkedHashMap<>();

  UpsertBuffer(PushPolicy.Upsert upsert, int visible, boolean markers) {
    super(visible, markers);
    this.keyColumns = upsert.keyColumns();
    this.newKeyColumn = upsert.newKeyColumn();
    this.kindColumn = upsert.kindColumn();
  }

  @Override int add(long batchId, List<Object[]> rows) {
    Long id = batchId;
    for (Object[] row : rows) {
      Object key = keyOf(keyColumns, row);
      // A null new-key flag: an aggregation over a view's changes deleted the group.
      RowKind kind = kindColumn >= 0 && row[kindColumn] == RowKind.DELETE
          || kindColumn < 0 && row[newKeyColumn] == null ? RowKind.DELETE
          : Boolean.TRUE.equals(row[newKeyColumn]) ? RowKind.INSERT : RowKind.UPDATE;
      Object[] previous = unread.remove(key);
      Object unreadKind = previous == null ? null : previous[visible + 1];
      if (unreadKind == RowKind.INSERT) {
        if (kind == RowKind.DELETE) {
          // The reader never saw the row: it saw nothing of the key, and needs nothing.
          continue;
        }
        // The reader never saw the key: to it the latest value is still a new key.
        kind = RowKind.INSERT;
      } else if (unreadKind == RowKind.DELETE && kind == RowKind.INSERT) {
        // The reader still has the row the unread DELETE removes: to it this replaces it.
        kind = RowKind.UPDATE;
      }
      // Removed and put again so that unread rows stay in batch order.
      unread.put(key, out(row, id, kind));
    }
    if (markers) {
      unread.remove(MARKER_KEY);
      unread.put(MARKER_KEY, marker(id));
    }
    return unread.size();
  }

  /**
   * The rest of the batch the reader has begun (in {@link #ready}, which no later batch
   * coalesces into), then the oldest unread row.
   */
  @Override Object[] take() {
    Object[] row = ready.poll();
    if (row != null || unread.isEmpty()) {
      return row;
    }
    Iterator<Object[]> first = unread.values().iterator();
    row = first.next();
    first.remove();
    // The reader has begun this batch: the batch's other unread rows (next in line, since
    // unread rows are in batch order) leave the coalescing for the queue read first, so that
    // a later batch cannot replace them and the reader never gets a batch torn in two.
    Object batch = row[visible];
    while (first.hasNext()) {
      Object[] next = first.next();
      if (!batch.equals(next[visible])) {
        break;
      }
      ready.add(next);
      first.remove();
    }
    return row;
  }

  @Override int size() {
    return ready.size() + unread.size();
  }

  @Override void clear() {
    ready.clear();
    unread.clear();
  }
}

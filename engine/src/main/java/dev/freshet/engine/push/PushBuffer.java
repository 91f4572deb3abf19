package dev.freshet.engine.push;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * How a {@link PushQuery} keeps the rows its reader has not read yet: one strategy per
 * {@link PushPolicy}, each bounding its memory its own way ({@link InOrderBuffer} for APPEND
 * results and a view's changes, {@link UpsertBuffer} for UPDATE, {@link TableBuffer} for
 * COMPLETE).
 *
 * <p>Rows carry their batch id and {@link RowKind} in the two columns after the query's own
 * ({@code visible} of them). Guarded by the push query's monitor, except {@link #prepare}, which
 * the batch thread calls before taking it.
 *
 * <pre>{@code
 * PushBuffer buffer = PushBuffer.of(policy, visible, markers);
 * List<Object[]> prepared = buffer.prepare(batchId, rows);      // outside the monitor
 * synchronized (monitor) { buffered = buffer.add(batchId, prepared); }
 * synchronized (monitor) { row = buffer.take(); }                  // the reader
 * }</pre>
 */
abstract class PushBuffer {
  /** What {@link #add} returns when the rows do not fit: nothing was added. */
  static final int OVERFLOW = -1;
  /** Key of every row of a result without grouping columns: it has one group. */
  private static final Object NO_KEY = new Object();

  /** Number of the query's own columns, before the batch id and the row kind. */
  protected final int visible;
  /** Whether each batch ends with a {@link RowKind#BATCH_END} row. */
  protected final boolean markers;
  /** Rows next in line for the reader, in order. */
  protected final ArrayDeque<Object[]> ready = new ArrayDeque<>();

  PushBuffer(int visible, boolean markers) {
    this.visible = visible;
    this.markers = markers;
  }

  /** The buffer that keeps rows as {@code policy} says. */
  static PushBuffer of(PushPolicy policy, int visible, boolean markers) {
    // Java 17 has no switch over a sealed type's records: one branch per record, and the
    // cast of the last fails loudly should a policy be added without a branch.
    if (policy instanceof PushPolicy.Upsert upsert) {
      return new UpsertBuffer(upsert, visible, markers);
    } else if (policy instanceof PushPolicy.Table table) {
      return new TableBuffer(table, visible, markers);
    } else if (policy instanceof PushPolicy.Changes changes) {
      return InOrderBuffer.ofChanges(changes, visible, markers);
    }
    return InOrderBuffer.ofAppends((PushPolicy.Append) policy, visible, markers);
  }

  /**
   * The rows of batch {@code batchId} as the query emitted them, made ready for {@link #add}:
   * what can be done without the monitor (copies), so that the reader waits less.
   */
  List<Object[]> prepare(long batchId, List<Object[]> rows) {
    return rows;
  }

  /**
   * Adds the rows {@link #prepare} made of batch {@code batchId}.
   *
   * @return the number of rows buffered now, as {@link PushQuery#maxBufferedRows} counts them,
   *     or {@link #OVERFLOW} if they do not fit, when nothing was added
   */
  abstract int add(long batchId, List<Object[]> prepared);

  /** The error of batch {@code batchId} not fitting ({@link #add} returned OVERFLOW). */
  SQLException overflow(String queryName, long batchId) {
    throw new IllegalStateException(getClass().getSimpleName() + " does not overflow");
  }

  /** Takes the next unread row, or null if there is none. */
  Object[] take() {
    return ready.poll();
  }

  /** Number of rows buffered now, markers included. */
  int size() {
    return ready.size();
  }

  /** Drops every unread row: the subscription failed. */
  void clear() {
    ready.clear();
  }

  /** The reader's copy of {@code row}, of batch {@code batchId}, which is a {@code kind}. */
  protected Object[] out(Object[] row, Long batchId, RowKind kind) {
    // One copy per emitted row: it drops the hidden columns and makes room for the two trailing
    // ones. Rows are the batch's output, one per changed group, not its input.
    Object[] out = Arrays.copyOf(row, visible + 2);
    out[visible] = batchId;
    out[visible + 1] = kind;
    return out;
  }

  /** The {@link RowKind#BATCH_END} row of batch {@code batchId}. */
  protected Object[] marker(Long batchId) {
    Object[] out = new Object[visible + 2];
    out[visible] = batchId;
    out[visible + 1] = RowKind.BATCH_END;
    return out;
  }

  /** The group key of {@code row}: the values of {@code keyColumns}, one object. */
  protected static Object keyOf(int[] keyColumns, Object[] row) {
    if (keyColumns.length == 0) {
      return NO_KEY;
    }
    if (keyColumns.length == 1) {
      return row[keyColumns[0]];
    }
    Object[] key = new Object[keyColumns.length];
    for (int i = 0; i < key.length; i++) {
      key[i] = row[keyColumns[i]];
    }
    return Arrays.asList(key);
  }
}

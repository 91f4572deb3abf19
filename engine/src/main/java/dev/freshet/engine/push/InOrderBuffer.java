package dev.freshet.engine.push;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The unread rows of a result whose rows never change (APPEND, {@link PushPolicy.Append}) or of a
 * view's changes ({@link PushPolicy.Changes}): every row in order, at most {@code bufferRows} of
 * them, beyond which the subscription fails.
 *
 * <pre>{@code
 * PushBuffer buffer = InOrderBuffer.ofAppends(new PushPolicy.Append(10_000), 3, false);
 * }</pre>
 */
final class InOrderBuffer extends PushBuffer {
  private final long bufferRows;
  /** Whether the rows carry their batch id and kind already, as a view's changes do. */
  private final boolean changes;

  private InOrderBuffer(long bufferRows, boolean changes, int visible, boolean markers) {
    super(visible, markers);
    this.bufferRows = bufferRows;
    this.changes = changes;
  }

  /** The buffer of an APPEND result: each row an INSERT. */
  static InOrderBuffer ofAppends(PushPolicy.Append append, int visible, boolean markers) {
    return new InOrderBuffer(append.bufferRows(), false, visible, markers);
  }

  /** The buffer of a view's changes, whose rows carry their batch id and kind. */
  static InOrderBuffer ofChanges(PushPolicy.Changes changes, int visible, boolean markers) {
    return new InOrderBuffer(changes.bufferRows(), true, visible, markers);
  }

  @Override List<Object[]> prepare(long batchId, List<Object[]> rows) {
    Long id = batchId;
    List<Object[]> outs = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      // A view's rows are copied even when they have no extra column: the view hands the same
      // rows to every subscriber.
      outs.add(changes ? Arrays.copyOf(row, visible + 2) : out(row, id, RowKind.INSERT));
    }
    return outs;
  }

  @Override int add(long batchId, List<Object[]> outs) {
    Long id = batchId;
    if (ready.size() + (long) outs.size() > bufferRows) {
      return OVERFLOW;
    }
    ready.addAll(outs);
    if (markers) {
      // An unread marker is superseded by the next one: batches that change nothing cost
      // one row, not one each.
      Object[] last = ready.peekLast();
      if (last != null && last[visible + 1] == RowKind.BATCH_END) {
        ready.pollLast();
      }
      ready.add(marker(id));
    }
    return ready.size();
  }

  @Override SQLException overflow(String queryName, long batchId) {
    return Errors.of(SqlState.INSUFFICIENT_RESOURCES, "Push query " + queryName
        + " stopped: its reader fell more than "
        + bufferRows + " rows behind (batch " + batchId + "), which is what option '"
        + SessionOption.PUSH_BUFFER_ROWS.key() + "' allows for a result whose rows never"
        + " change. Read faster, raise it with SET '" + SessionOption.PUSH_BUFFER_ROWS.key()
        + "' = '...',"
        + " or aggregate with EMIT UPDATE, whose unread rows are coalesced per key");
  }
}

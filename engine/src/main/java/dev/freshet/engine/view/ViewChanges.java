package dev.freshet.engine.view;

import dev.freshet.engine.push.RowKind;
import java.util.Arrays;

/**
 * The change rows a view hands its subscribers: the view's columns, then the batch id
 * ({@code Long}), the {@link RowKind}, the group's state key (a value or a
 * {@link dev.freshet.executor.state.GroupKey}, with stable {@code equals}) and whether the kind
 * is INSERT, so that a slow subscriber's unread rows coalesce per group.
 *
 * <pre>{@code
 * Object[] change = ViewChanges.row(new Object[] {7L, 3L}, 2, 12, RowKind.UPDATE, 7L);
 * // [7, 3, 12, UPDATE, 7, false]
 * }</pre>
 */
public final class ViewChanges {
  /** Elements of a change row after the view's columns. */
  public static final int EXTRA_COLUMNS = 4;

  private ViewChanges() {
  }

  /** The change row of the first {@code columns} values of {@code row}. */
  public static Object[] row(Object[] row, int columns, long batchId, RowKind kind, Object key) {
    Object[] change = Arrays.copyOf(row, columns + EXTRA_COLUMNS);
    change[columns] = batchId;
    change[columns + 1] = kind;
    change[columns + 2] = key;
    change[columns + 3] = kind == RowKind.INSERT;
    return change;
  }
}

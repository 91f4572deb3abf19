package dev.freshet.engine.view;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Turns what an UPDATE view's state holds for a group into the view's row: Freshet's own
 * aggregation saves aggregate buffers ({@link ViewFinalizer} computes the row when it is read);
 * a view another engine runs saves the row itself ({@link #SAVED_ROW}).
 *
 * <pre>{@code
 * Object[] row = groupRows.row(key, pinned.get(key));   // null: the view has no row for it
 * }</pre>
 */
@FunctionalInterface
public interface GroupRows {
  /** The state holds each group's row as the view shows it. */
  GroupRows SAVED_ROW = (key, saved) -> saved;

  /** The view's row of group {@code key} saved as {@code saved}, or null if it shows none. */
  @Nullable Object[] row(Object key, Object[] saved);
}

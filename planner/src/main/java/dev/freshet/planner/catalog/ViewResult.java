package dev.freshet.planner.catalog;

import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where a materialized view's committed result is kept, as its {@link ViewTable} reads it.
 *
 * <pre>{@code
 * ViewResult result = view.result();
 * long batchId = result.batchId();                 // -1 before the first batch
 * for (Object[] row : result.scan(dataContext)) { ... }
 * // k = 7 AND n > 1, columns 0 and 2 only: at least the rows that pass, maybe more
 * result.scan(dataContext, List.of(kIs7, nAbove1), new int[] {0, 2});
 * }</pre>
 *
 * <p>A reader sees the results of whole batches only. A statement that reads several views, or one
 * view twice, reads one committed state of each when whoever executes it pins one in the
 * {@link DataContext}; the implementation documents the variable.
 */
public interface ViewResult {
  /**
   * A new source of the result's changes, for one continuous query that reads the view, or
   * empty if this result cannot hand out its changes: see {@link ViewChangelog}.
   */
  default java.util.Optional<dev.freshet.executor.source.Source> newChangeSource() {
    return java.util.Optional.empty();
  }

  /** The last batch whose rows the result holds; -1 before the first batch completes. */
  long batchId();

  /**
   * The view's rows, in Calcite's internal representation (TIMESTAMP as {@code Long}
   * milliseconds, DATE as {@code Integer} days), as a {@code ScannableTable} returns them.
   */
  Enumerable<@Nullable Object[]> scan(DataContext root);

  /**
   * The view's rows as {@link #scan(DataContext)} returns them, but at least those that pass
   * every one of {@code filters} (conditions on the view's columns, as Calcite hands a
   * {@code ProjectableFilterableTable}), and only the columns {@code projects} if not null.
   * The filters are only a hint: an implementation may return rows that fail them, and never
   * removes one from the list, so that Calcite applies each of them again.
   */
  default Enumerable<@Nullable Object[]> scan(DataContext root, List<RexNode> filters,
      int @Nullable [] projects) {
    Enumerable<@Nullable Object[]> rows = scan(root);
    if (projects == null) {
      return rows;
    }
    return rows.select(row -> {
      Object[] projected = new Object[projects.length];
      for (int i = 0; i < projects.length; i++) {
        projected[i] = row[projects[i]];
      }
      return projected;
    });
  }
}

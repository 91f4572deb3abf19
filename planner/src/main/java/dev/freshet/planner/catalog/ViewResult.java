package dev.freshet.planner.catalog;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where a materialized view's committed result is kept, as its {@link ViewTable} reads it.
 *
 * <pre>{@code
 * ViewResult result = view.result();
 * long batchId = result.batchId();                 // -1 before the first batch
 * for (Object[] row : result.scan(dataContext)) { ... }
 * }</pre>
 *
 * <p>A reader sees the results of whole batches only. A statement that reads several views, or one
 * view twice, reads one committed state of each when whoever executes it pins one in the
 * {@link DataContext}; the implementation documents the variable.
 */
public interface ViewResult {
  /** The last batch whose rows the result holds; -1 before the first batch completes. */
  long batchId();

  /**
   * The view's rows, in Calcite's internal representation (TIMESTAMP as {@code Long}
   * milliseconds, DATE as {@code Integer} days), as a {@code ScannableTable} returns them.
   */
  Enumerable<@Nullable Object[]> scan(DataContext root);
}

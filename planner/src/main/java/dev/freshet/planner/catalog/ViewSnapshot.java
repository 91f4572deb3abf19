package dev.freshet.planner.catalog;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The result of a materialized view after a whole micro-batch: what a plain {@code SELECT} over
 * the view reads.
 *
 * <pre>{@code
 * ViewSnapshot s = view.snapshot();
 * long batchId = s.batchId();        // -1 until the view's query completes its first batch
 * List<Object[]> rows = s.rows();    // never changes: the next batch publishes a new snapshot
 * }</pre>
 *
 * <p>Rows are in Calcite's internal representation (TIMESTAMP as {@code Long} milliseconds, DATE
 * as {@code Integer} days), as a {@code ScannableTable} must return them. Neither the list nor its
 * arrays may be modified by anyone once the snapshot is published.
 *
 * @param batchId the batch whose result this is, or -1 for the empty result before any batch
 * @param rows the view's rows after that batch
 */
public record ViewSnapshot(long batchId, List<Object[]> rows) {
  /** The snapshot of a view whose query has not completed a batch yet. */
  public static final ViewSnapshot EMPTY = new ViewSnapshot(-1, List.of());

  public ViewSnapshot {
    if (batchId < -1) {
      throw new IllegalArgumentException("batchId must be -1 or more: " + batchId);
    }
    requireNonNull(rows, "rows");
  }
}

package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.AggregateRows;
import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.planner.exec.ExecPlanBuilder.FinalCalc;
import java.util.Arrays;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Computes a view's row from its aggregation's saved state when the row is read: the group's
 * aggregate row ({@link AggregateRows}: AVG's SUM and COUNT, a distinct aggregate's set), then the
 * calcs the view's plan has above its aggregation (AVG as SUM / COUNT, HAVING, projections),
 * keeping the view's own columns.
 *
 * <pre>{@code
 * // SELECT k, AVG(v) AS a FROM s GROUP BY k HAVING COUNT(*) > 1
 * Object[] row = finalizer.row(key, pinned.get(key));   // [k, a], or null while HAVING rejects it
 * }</pre>
 *
 * <p>Stateless: readers on any thread share one instance (the compiled calcs keep no state).
 */
public final class ViewFinalizer implements GroupRows {
  private final AggregateRows aggregateRows;
  /** Columns the first calc reads: the aggregate row and, if the plan has it, its new-key flag. */
  private final int inputWidth;
  /** Where the aggregate row has its new-key flag, or -1. */
  private final int newKeyColumn;
  private final FinalCalc[] calcs;
  private final int visible;
  private final boolean filters;
  /** What a row whose expressions fail does: fails the batch or read, or is dropped. */
  private final RowErrors rowErrors;

  /**
   * Creates the finalizer of a view.
   *
   * @param aggregate the view's aggregation
   * @param calcs the calcs above it, in order
   * @param visible how many leading columns of the last calc's row are the view's (the rest are
   *     hidden key columns that the plan computes for other readers)
   * @param rowErrors the query's: a row whose expressions fail fails the batch (and a read), or
   *     is dropped, and counted when the batch drops it
   */
  public ViewFinalizer(StatefulAggregateSpec aggregate, List<FinalCalc> calcs, int visible,
      RowErrors rowErrors) {
    this.rowErrors = requireNonNull(rowErrors, "rowErrors");
    requireNonNull(aggregate, "aggregate");
    this.aggregateRows = new AggregateRows(aggregate);
    this.inputWidth = aggregate.outputFieldCount();
    this.newKeyColumn = aggregate.emitNewKeyFlag() ? inputWidth - 1 : -1;
    this.calcs = calcs.toArray(new FinalCalc[0]);
    this.visible = visible;
    boolean anyFilter = false;
    for (FinalCalc calc : calcs) {
      anyFilter |= calc.filters();
    }
    this.filters = anyFilter;
    int width = calcs.isEmpty() ? aggregateRows.width() : calcs.get(calcs.size() - 1).width();
    if (visible > width) {
      throw new IllegalArgumentException("the view has " + visible + " columns, its plan "
          + width);
    }
  }

  /** Whether a condition (HAVING) may reject a group: then a row can appear and disappear. */
  public boolean filters() {
    return filters;
  }

  /** The state key of an aggregate row (the aggregation's emitted row starts with its key). */
  public Object keyOf(Object[] aggregateRow) {
    return aggregateRows.keyOf(aggregateRow);
  }

  /** The view's row of group {@code key} saved as {@code saved}, or null if rejected. */
  @Override public @Nullable Object[] row(Object key, Object[] saved) {
    Object[] in = new Object[inputWidth];
    aggregateRows.write(key, saved, in);
    if (newKeyColumn >= 0) {
      // Hidden columns only read it; its value is the same whatever a reader finds here.
      in[newKeyColumn] = Boolean.FALSE;
    }
    try {
      return finish(in);
    } catch (RuntimeException e) {
      // The batch that saved the value computed the same (or dropped it); a read does too.
      if (rowErrors.skips()) {
        return null;
      }
      throw e;
    }
  }

  /**
   * The view's row of a row the aggregation emitted in a batch (extra columns after its own are
   * ignored), or null if rejected; a row whose expressions fail is counted as dropped, or fails
   * the batch.
   */
  public @Nullable Object[] rowOfEmitted(Object[] aggregateRow) {
    try {
      return finish(aggregateRow);
    } catch (RuntimeException e) {
      if (rowErrors.skips()) {
        rowErrors.dropped(e);
        return null;
      }
      throw e;
    }
  }

  private @Nullable Object[] finish(Object[] in) {
    Object[] row = in;
    for (FinalCalc calc : calcs) {
      Object[] out = new Object[calc.width()];
      if (!calc.calc().apply(row, out)) {
        return null;
      }
      row = out;
    }
    return row.length == visible ? row : Arrays.copyOf(row, visible);
  }
}

package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.push.RowKind;
import dev.freshet.executor.operators.GroupChange;
import dev.freshet.executor.runtime.Sink;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Sink of a materialized view that reads its aggregation's state ({@link StateViewResult}): it
 * writes nothing per group. The aggregation has saved and committed the batch's groups when the
 * sink gets their rows (each marked with its {@link GroupChange}); the sink turns them into the
 * subscribers' change rows and publishes the batch.
 *
 * <pre>{@code
 * Sink sink = new StateViewSink("PER_USER", result, finalizer, 2);
 * sink.addBatch(7, aggregateRows);   // keeps batch 7's changes (its evicted rows durably)
 * sink.batchCommitted(7);            // readers see batch 7 from now on
 * }</pre>
 *
 * <p>Kinds follow what a reader of the view saw: a group new to the view is an INSERT, a changed
 * one an UPDATE, and one that a HAVING clause stops admitting a DELETE (its row leaves the view,
 * as it leaves the same query run over all input).
 */
public final class StateViewSink implements Sink {
  private final String view;
  private final StateViewResult result;
  private final ViewFinalizer finalizer;
  private final int columns;

  /**
   * Creates the sink of {@code view}.
   *
   * @param columns the view's columns
   */
  public StateViewSink(String view, StateViewResult result, ViewFinalizer finalizer,
      int columns) {
    this.view = requireNonNull(view, "view");
    this.result = requireNonNull(result, "result");
    this.finalizer = requireNonNull(finalizer, "finalizer");
    this.columns = columns;
  }

  @Override public String description() {
    return "MaterializedView[" + view + "]";
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) {
    if (batchId <= result.batchId()) {
      // A batch re-run after a restart: its state is committed again, as it was, and the rows
      // of the groups it evicted are kept already.
      result.publish(batchId, List.of(), List.of(), List.of());
      return;
    }
    List<Object[]> changes = new ArrayList<>(rows.size());
    List<Object[]> evictedRows = new ArrayList<>();
    List<Object> evictedKeys = new ArrayList<>();
    boolean keysEvicted = result.keysEvicted();
    for (Object[] row : rows) {
      byte change = (Byte) row[row.length - 1];
      if (change == GroupChange.EVICTED) {
        // The group leaves the state, not the view: its final row is kept beside the state.
        Object[] last = finalizer.rowOfEmitted(row);
        if (last != null) {
          evictedRows.add(last);
          if (keysEvicted) {
            evictedKeys.add(finalizer.keyOf(row));
          }
        }
        continue;
      }
      Object key = finalizer.keyOf(row);
      if (change == GroupChange.DELETED) {
        // A retracting input emptied the group: it leaves the view, as the row a reader has.
        @Nullable Object[] was = finalizer.filters() ? result.publishedRow(key)
            : finalizer.rowOfEmitted(row);
        if (was != null) {
          changes.add(ViewChanges.row(was, columns, batchId, RowKind.DELETE, key));
        }
        continue;
      }
      Object[] is = finalizer.rowOfEmitted(row);
      @Nullable Object[] was = change == GroupChange.NEW ? null
          : finalizer.filters() ? result.publishedRow(key) : is;
      if (is != null) {
        changes.add(ViewChanges.row(is, columns, batchId,
            was == null ? RowKind.INSERT : RowKind.UPDATE, key));
      } else if (was != null) {
        changes.add(ViewChanges.row(was, columns, batchId, RowKind.DELETE, key));
      }
    }
    result.publish(batchId, changes, evictedRows, evictedKeys);
  }

  /** Shows the batch to readers and subscribers: its {@code commits/N} is durable now. */
  @Override public void batchCommitted(long batchId) {
    result.publishStaged();
  }
}

package dev.freshet.engine.view;

import dev.freshet.engine.push.RowKind;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.state.ReadStateStore;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.planner.exec.ExecPlanBuilder.AfterAggregate;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The result of a materialized view in COMPLETE mode: each batch's rows are the whole result
 * (its ORDER BY and LIMIT applied), which the view holds in memory, as the batch built them, with
 * the rows of the batch before for a subscriber that saw that one. Nothing is written: after a
 * restart the rows are computed again from the aggregation's committed state.
 *
 * <pre>{@code
 * CompleteViewResult result = CompleteViewResult.open("TOP", 2, providers, after, committed);
 * result.publish(7, rows);           // batch thread
 * result.scan(root, filters, null);  // any thread: batch 7's rows
 * }</pre>
 *
 * <p>Subscribers get, per batch, a DELETE of every row of the batch before and an INSERT of every
 * row of the new one; a subscriber resuming after the batch before the latest gets that
 * replacement, one resuming after an older one a 22023 error.
 */
public final class CompleteViewResult extends PublishedResult {
  private CompleteViewResult(String view, int columns) {
    super(view, columns);
  }

  /**
   * Opens the result of a view, with the rows of batch {@code committedBatch} (-1: none yet)
   * computed from version {@code committedBatch + 1} of the aggregation's state, before its
   * query runs.
   *
   * @param partitions the query's state stores, not in use yet (those of the operator that
   *     {@code after} reads are read)
   * @param after the operators above the aggregation, which turn its rows into the view's
   * @param committedBatchTimestampMs the processing time batch {@code committedBatch} ran with,
   *     which its expressions read as the current time again
   */
  public static CompleteViewResult open(String view, int columns,
      List<StateStoreProvider<Object, Object[]>> partitions, AfterAggregate after,
      long committedBatch, long committedBatchTimestampMs) {
    CompleteViewResult result = new CompleteViewResult(view, columns);
    if (committedBatch >= 0) {
      BatchContext batch = new BatchContext(committedBatch, committedBatchTimestampMs);
      after.input().startBatch(batch);
      for (StateStoreProvider<Object, Object[]> p : partitions) {
        if (p.id().operatorId() != after.operatorId()) {
          // A stateful operator below (a deduplication) keeps other rows.
          continue;
        }
        ReadStateStore<Object, Object[]> store = p.getReadStore(committedBatch + 1);
        try {
          for (Map.Entry<Object, Object[]> e : store.entries()) {
            for (Object[] row : after.rowsOf(e.getKey(), e.getValue())) {
              after.input().push(row);
            }
          }
        } finally {
          store.abort();
        }
      }
      after.input().finishBatch(batch);
      result.publish(new ViewVersion(committedBatch, after.output().takeRows(), null),
          List.of(), true);
    }
    return result;
  }

  /**
   * Publishes the rows of batch {@code batchId}, the whole result; a batch published already (a
   * re-run after a restart) replaces the rows and hands nothing to subscribers. Batch thread.
   */
  public void publish(long batchId, List<Object[]> rows) {
    ViewVersion previous = current();
    boolean rerun = batchId <= previous.batchId();
    ViewVersion next = new ViewVersion(batchId, rows, rerun ? previous.previous() : previous);
    stage(next, rerun ? List.of() : replacement(previous, next), rerun);
  }

  /** DELETE of every row of {@code from}, INSERT of every row of {@code to}, as of {@code to}. */
  private List<Object[]> replacement(ViewVersion from, ViewVersion to) {
    List<Object[]> changes = new ArrayList<>(from.rows().size() + to.rows().size());
    for (Object[] row : from.rows()) {
      changes.add(ViewChanges.row(row, columns, to.batchId(), RowKind.DELETE, null));
    }
    changes.addAll(snapshot(to));
    return changes;
  }

  @Override List<Object[]> snapshot(ViewVersion v) {
    List<Object[]> changes = new ArrayList<>(v.rows().size());
    for (Object[] row : v.rows()) {
      changes.add(ViewChanges.row(row, columns, v.batchId(), RowKind.INSERT, null));
    }
    return changes;
  }

  /** {@inheritDoc} Only after the batch before the latest, whose rows the view keeps. */
  @Override void replay(long sinceBatch, ViewVersion v, ChangeListener listener)
      throws SQLException {
    ViewVersion previous = v.previous();
    if (previous == null || previous.batchId() != sinceBatch) {
      throw changesNotKept(sinceBatch, previous == null ? v.batchId() : previous.batchId(), null);
    }
    listener.committed(v.batchId(), replacement(previous, v));
  }

  /** The rows of the statement's version, in the batch's order; filters are left to Calcite. */
  @Override public Enumerable<@Nullable Object[]> scan(DataContext root, List<RexNode> filters,
      int @Nullable [] projects) {
    return new AbstractEnumerable<>() {
      @Override public Enumerator<@Nullable Object[]> enumerator() {
        ViewVersion v = versionOfRows(root);
        List<@Nullable Object[]> rows = new ArrayList<>(v.rows().size());
        for (Object[] row : v.rows()) {
          rows.add(project(row, projects));
        }
        return Linq4j.enumerator(rows);
      }
    };
  }
}

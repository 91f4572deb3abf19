package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.push.RowKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The result of a materialized view in APPEND mode (a windowed aggregation whose windows the
 * watermark closes, or a query without aggregation): every row a batch emits is final, and is
 * appended once to the view's {@link AppendedRows}, its only copy.
 *
 * <pre>{@code
 * AppendViewResult result = AppendViewResult.open("PER_MINUTE", 3, rows);
 * result.publish(7, batchRows);      // batch thread: appended durably, then visible
 * result.scan(root, filters, null);  // any thread: the rows of batches up to 7
 * }</pre>
 *
 * <p>Subscribers get the rows as INSERTs; one that resumes after a version gets the rows of each
 * later batch, all of which the view keeps.
 */
public final class AppendViewResult extends PublishedResult {
  private final AppendedRows rows;

  private AppendViewResult(String view, int columns, AppendedRows rows) {
    super(view, columns);
    this.rows = requireNonNull(rows, "rows");
  }

  /** Opens the result of a view whose rows {@code rows} keeps, as its last batch left them. */
  public static AppendViewResult open(String view, int columns, AppendedRows rows) {
    AppendViewResult result = new AppendViewResult(view, columns, rows);
    long last = rows.lastBatch();
    if (last >= 0) {
      result.publish(new ViewVersion(last, List.of(), rows.snapshot(last)), List.of(), true);
    }
    return result;
  }

  /**
   * Appends the rows of batch {@code batchId} durably and publishes them; a batch appended
   * already (a re-run after a restart) changes nothing. Batch thread.
   */
  public void publish(long batchId, List<Object[]> batchRows) {
    if (!rows.addBatch(batchId, batchRows, null)) {
      return;
    }
    List<Object[]> changes = new ArrayList<>(batchRows.size());
    for (Object[] row : batchRows) {
      changes.add(ViewChanges.row(row, columns, batchId, RowKind.INSERT, null));
    }
    stage(new ViewVersion(batchId, List.of(), rows.snapshot(batchId)), changes, false);
  }

  @Override List<Object[]> snapshot(ViewVersion v) {
    List<Object[]> changes = new ArrayList<>();
    for (Object[] row : requireNonNull(v.appended()).rows()) {
      changes.add(ViewChanges.row(row, columns, v.batchId(), RowKind.INSERT, null));
    }
    return changes;
  }

  /** {@inheritDoc} The view keeps every batch's rows: any version it had can be resumed. */
  @Override void replay(long sinceBatch, ViewVersion v, ChangeListener listener) {
    requireNonNull(v.appended()).forEachBatchAfter(sinceBatch, (batchId, batchRows) -> {
      List<Object[]> changes = new ArrayList<>(batchRows.size());
      for (Object[] row : batchRows) {
        changes.add(ViewChanges.row(row, columns, batchId, RowKind.INSERT, null));
      }
      listener.committed(batchId, changes);
    });
  }

  /** The rows of the statement's version, in append order; filters are left to Calcite. */
  @Override public Enumerable<@Nullable Object[]> scan(DataContext root, List<RexNode> filters,
      int @Nullable [] projects) {
    return new AbstractEnumerable<>() {
      @Override public Enumerator<@Nullable Object[]> enumerator() {
        ViewVersion v = versionOfRows(root);
        AppendedRows.Snapshot appended = v.appended();
        if (appended == null) {
          return Linq4j.emptyEnumerator();
        }
        return Linq4j.transform(Linq4j.iterableEnumerator(appended.rows()),
            row -> project(row, projects));
      }
    };
  }

  /** {@inheritDoc} The view's new rows, batch by batch ({@link AppendedChangeSource}). */
  @Override public java.util.Optional<dev.freshet.executor.source.Source> newChangeSource() {
    return java.util.Optional.of(new AppendedChangeSource(this));
  }

  /** The view's rows, every batch's. */
  AppendedRows rows() {
    return rows;
  }

  /** {@inheritDoc} Then closes the rows' file. */
  @Override public void close() {
    super.close();
    rows.close();
  }
}

package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.source.Source;
import java.util.function.Consumer;

/**
 * The new rows of an APPEND view ({@link AppendViewResult}), as the source of a continuous query
 * that reads the view: an append-only stream whose offset {@code n} is the view's batch
 * {@code n - 1}. The view keeps every batch's rows, so any range can be read again, alike.
 *
 * <pre>{@code
 * Source rows = appendViewResult.newChangeSource().orElseThrow();
 * rows.readRange(3, 5, push);   // the rows batches 3 and 4 appended, in order
 * }</pre>
 */
final class AppendedChangeSource implements Source {
  private final AppendViewResult view;

  AppendedChangeSource(AppendViewResult view) {
    this.view = requireNonNull(view, "view");
  }

  @Override public String description() {
    return "ViewRows[" + view.view + "]";
  }

  @Override public long latestOffset() {
    return Math.max(0, view.batchId() + 1);
  }

  @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
    if (end <= start) {
      return;
    }
    view.rows().snapshot(end - 1).forEachBatchAfter(start - 1,
        (batchId, batchRows) -> batchRows.forEach(rows));
  }

  @Override public AutoCloseable onNewData(Runnable listener) {
    return view.onPublished(listener);
  }
}

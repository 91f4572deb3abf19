package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.spi.ViewBatchSink;
import java.sql.SQLException;
import java.util.List;

/**
 * Sink of a view that another engine runs in APPEND mode (or without aggregation): each batch's
 * rows are appended to the view's {@link AppendViewResult}, durably, once, whatever the engine
 * delivers again after a failure.
 *
 * <pre>{@code
 * ViewBatchSink sink = new AppendViewSink("PER_MINUTE", result);
 * sink.addBatch(3, rows);   // appended and shown
 * sink.addBatch(3, rows);   // applied already: nothing
 * }</pre>
 */
public final class AppendViewSink implements ViewBatchSink {
  private final String view;
  private final AppendViewResult result;

  public AppendViewSink(String view, AppendViewResult result) {
    this.view = requireNonNull(view, "view");
    this.result = requireNonNull(result, "result");
  }

  @Override public long lastAppliedBatch() {
    return result.rows().lastBatch();
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) throws SQLException {
    if (DeliveredBatches.of(view, batchId, lastAppliedBatch())
        == DeliveredBatches.APPLIED) {
      return;
    }
    result.publish(batchId, rows);
    result.publishStaged();
  }
}

package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.Sink;
import java.util.List;

/**
 * Sink of a materialized view in APPEND mode: each batch's rows are appended to the view's
 * result ({@link AppendViewResult}), once however often the batch runs.
 *
 * <pre>{@code
 * Sink sink = new AppendViewSink("PER_MINUTE", result);
 * sink.addBatch(7, rows);   // appended and visible
 * sink.addBatch(7, rows);   // a re-run after a restart: skipped
 * }</pre>
 */
public final class AppendViewSink implements Sink {
  private final String view;
  private final AppendViewResult result;

  public AppendViewSink(String view, AppendViewResult result) {
    this.view = requireNonNull(view, "view");
    this.result = requireNonNull(result, "result");
  }

  @Override public String description() {
    return "MaterializedView[" + view + "]";
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) {
    result.publish(batchId, rows);
  }
}

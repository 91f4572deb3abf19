package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.Sink;
import java.util.List;

/**
 * Sink of a materialized view in COMPLETE mode: each batch's rows are the view's whole result,
 * published as its new version ({@link CompleteViewResult}).
 *
 * <pre>{@code
 * Sink sink = new CompleteViewSink("TOP", result);
 * sink.addBatch(7, rows);   // readers see these rows from now on
 * }</pre>
 */
public final class CompleteViewSink implements Sink {
  private final String view;
  private final CompleteViewResult result;

  public CompleteViewSink(String view, CompleteViewResult result) {
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

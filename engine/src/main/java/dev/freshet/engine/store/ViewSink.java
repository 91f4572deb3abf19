package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.Sink;
import java.sql.SQLException;
import java.util.List;

/**
 * Sink of a materialized view's query: folds each micro-batch into the view's {@link ResultTable}
 * once, however often the batch runs.
 *
 * <pre>{@code
 * Sink sink = new ViewSink("PER_USER", resultTable);
 * sink.addBatch(0, rows);   // applied
 * sink.addBatch(0, rows);   // a re-run after a restart: skipped
 * }</pre>
 *
 * <p>How a batch changes the result follows the query's output mode ({@link ResultTable.Layout}):
 * in UPDATE mode each row replaces the row of the same group (an upsert), in COMPLETE mode the
 * batch's rows replace the whole result, in APPEND mode they are added to it. The aggregation
 * emits no deletions, so in UPDATE mode a group that a HAVING clause stops admitting keeps its
 * last row, as in Spark's update-mode sinks.
 */
public final class ViewSink implements Sink {
  private final String view;
  private final ResultTable result;

  public ViewSink(String view, ResultTable result) {
    this.view = requireNonNull(view, "view");
    this.result = requireNonNull(result, "result");
  }

  @Override public String description() {
    return "MaterializedView[" + view + "]";
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) {
    if (batchId <= result.batchId()) {
      // A batch re-run after a crash: the table committed its rows with its id already.
      return;
    }
    try {
      result.apply(batchId, rows);
    } catch (SQLException e) {
      // The batch fails and the query stops; its rows were rolled back, so a restart re-runs it.
      throw new IllegalStateException("Cannot write batch " + batchId + " into the result of"
          + " materialized view " + view + ": " + e.getMessage(), e);
    }
  }

  @Override public void queryTerminated(Throwable error) {
    result.closeWriter();
  }
}

package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.runtime.Sink;
import java.util.List;

/**
 * Sink of a materialized view whose batches' rows are its result as they are: a COMPLETE view's
 * (each batch's rows replace the result, {@link CompleteViewResult}) or an APPEND view's (each
 * batch's rows are added, {@link AppendViewResult}). It hands every batch to the result, which
 * keeps it, once however often the batch runs, and shows it once the query committed it.
 *
 * <pre>{@code
 * Sink sink = new PublishingSink("PER_MINUTE", result::publish, result::publishStaged);
 * sink.addBatch(7, rows);     // kept (an APPEND view's rows durably)
 * sink.batchCommitted(7);     // readers see batch 7 from now on
 * }</pre>
 */
public final class PublishingSink implements Sink {
  /** Publishes a batch's rows as a view's new version. */
  @FunctionalInterface
  public interface Publisher {
    void publish(long batchId, List<Object[]> rows);
  }

  private final String view;
  private final Publisher result;
  private final Runnable publishStaged;

  /**
   * @param result keeps a batch's rows
   * @param publishStaged shows the kept batch to readers
   */
  public PublishingSink(String view, Publisher result, Runnable publishStaged) {
    this.view = requireNonNull(view, "view");
    this.result = requireNonNull(result, "result");
    this.publishStaged = requireNonNull(publishStaged, "publishStaged");
  }

  @Override public String description() {
    return "MaterializedView[" + view + "]";
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) {
    result.publish(batchId, rows);
  }

  @Override public void batchCommitted(long batchId) {
    publishStaged.run();
  }
}

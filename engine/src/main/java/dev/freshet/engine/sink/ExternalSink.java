package dev.freshet.engine.sink;

import dev.freshet.executor.runtime.Sink;
import java.util.List;

/**
 * The sink a {@code CREATE SINK}'s query writes into: each batch's rows go to the target through
 * its {@link SinkWriter}, exactly once; a failure of the target fails the batch, which is not
 * committed, so that the next run writes it again.
 *
 * <pre>{@code
 * new MicroBatchExecution(id, name, pipeline, new ExternalSink("JdbcSink[totals]", writer), ...);
 * }</pre>
 */
public final class ExternalSink implements Sink {
  private final String description;
  private final SinkWriter writer;

  /** A sink of {@code writer}, described as {@code description} in progress. */
  public ExternalSink(String description, SinkWriter writer) {
    this.description = description;
    this.writer = writer;
  }

  @Override public void addBatch(long batchId, List<Object[]> rows) {
    writer.write(batchId, rows);
  }

  @Override public String description() {
    return description;
  }

  @Override public void queryTerminated(Throwable error) {
    writer.close();
  }
}

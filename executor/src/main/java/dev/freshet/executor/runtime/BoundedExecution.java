package dev.freshet.executor.runtime;

import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import java.util.List;

/**
 * Runs a pipeline once, synchronously, over everything a source holds: a bounded query.
 *
 * <p>This is how a plain {@code SELECT} over a stream (without {@code STREAM} or {@code EMIT})
 * reads the rows the stream retains; for an aggregation its single batch emits every group.
 */
public final class BoundedExecution {
  private BoundedExecution() {
  }

  /**
   * Runs one batch over each source's offsets {@code (0, latest]} and returns its output rows.
   * Nothing is late and nothing final: the watermark has no say over a bounded query.
   */
  public static List<Object[]> run(StreamingPipeline streamingPipeline, long batchTimestampMs) {
    return run(streamingPipeline, batchTimestampMs, QueryResources.unlimited("bounded"));
  }

  /** Rows between two checks of the cancellation while a source's rows are read. */
  private static final int CHECK_EVERY = 256;

  /**
   * {@link #run(StreamingPipeline, long)} within {@code resources}: the operators' state and the
   * rows collected count against its budget, and {@link QueryResources#cancel()} ends the run
   * within {@value #CHECK_EVERY} rows read.
   *
   * @throws dev.freshet.executor.limits.MemoryBudgetExceededException over the budget
   * @throws dev.freshet.executor.limits.QueryCancelledException once cancelled
   */
  public static List<Object[]> run(StreamingPipeline streamingPipeline, long batchTimestampMs,
      QueryResources resources) {
    List<SourceInput> inputs = streamingPipeline.inputs();
    BatchContext batch = new BatchContext(0, batchTimestampMs, BatchContext.NO_WATERMARK,
        BatchContext.NO_WATERMARK, resources);
    long[] ends = new long[inputs.size()];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = inputs.get(i).source().latestOffset();
    }
    SourceInput.inOneBatch(inputs, batch, i -> {
      Operator head = inputs.get(i).head();
      long[] read = {0};
      inputs.get(i).source().readRange(0, ends[i], row -> {
        if (++read[0] % CHECK_EVERY == 0) {
          resources.throwIfCancelled();
        }
        head.push(row);
      });
    });
    resources.throwIfCancelled();
    return streamingPipeline.output().takeRows();
  }
}

package dev.freshet.executor.runtime;

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
    List<SourceInput> inputs = streamingPipeline.inputs();
    BatchContext batch = new BatchContext(0, batchTimestampMs, BatchContext.NO_WATERMARK,
        BatchContext.NO_WATERMARK);
    long[] ends = new long[inputs.size()];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = inputs.get(i).source().latestOffset();
    }
    try {
      for (SourceInput input : inputs) {
        input.head().startBatch(batch);
      }
      for (int i = 0; i < ends.length; i++) {
        Operator head = inputs.get(i).head();
        inputs.get(i).source().readRange(0, ends[i], head::push);
      }
      for (SourceInput input : inputs) {
        input.head().finishBatch(batch);
      }
    } catch (RuntimeException | Error e) {
      for (SourceInput input : inputs) {
        input.head().abortBatch(batch);
      }
      throw e;
    }
    return streamingPipeline.output().takeRows();
  }
}

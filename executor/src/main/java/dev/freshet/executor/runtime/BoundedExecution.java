package dev.freshet.executor.runtime;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.source.Source;
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
   * Runs one batch over the source's offsets {@code (0, latest]} and returns its output rows.
   * Nothing is late and nothing final: the watermark has no say over a bounded query.
   */
  public static List<Object[]> run(StreamingPipeline streamingPipeline, long batchTimestampMs) {
    Source source = streamingPipeline.source();
    Operator pipeline = streamingPipeline.head();
    BatchContext batch = new BatchContext(0, batchTimestampMs, BatchContext.NO_WATERMARK,
        BatchContext.NO_WATERMARK);
    long end = source.latestOffset();
    pipeline.startBatch(batch);
    try {
      source.readRange(0, end, pipeline::push);
      pipeline.finishBatch(batch);
    } catch (RuntimeException | Error e) {
      pipeline.abortBatch(batch);
      throw e;
    }
    return streamingPipeline.output().takeRows();
  }
}

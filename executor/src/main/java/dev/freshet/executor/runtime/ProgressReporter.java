package dev.freshet.executor.runtime;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.source.SupportsDroppedRecords;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a query's {@link StreamingQueryProgress} after each committed batch and keeps the most
 * recent ones, as Spark's {@code ProgressReporter}: rows and rates per batch and per stream, the
 * state of every stateful operator, the watermark, the rows dropped. Thread-safe: the batch
 * thread records, any thread reads.
 *
 * <pre>{@code
 * ProgressReporter progress = new ProgressReporter(id, name, runId, pipeline, sink, logs);
 * progress.record(batch, start, end, rowsPerStream, outputRows, durationMs);
 * progress.last().map(StreamingQueryProgress::numInputRows);
 * }</pre>
 */
final class ProgressReporter {
  private static final DateTimeFormatter WATERMARK_FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final String id;
  private final String name;
  private final String runId;
  private final StreamingPipeline pipeline;
  private final List<SourceInput> inputs;
  private final Sink sink;
  /** How each stream's offsets are shown: as the offset log records them. */
  private final OffsetCommitLog logs;

  /** The most recent progress records, oldest first; at most {@code PROGRESS_RETAINED}. */
  private final ArrayDeque<StreamingQueryProgress> progress = new ArrayDeque<>();
  /** Every batch of this run added up; replaced as each batch commits. */
  private ProgressTotals totals = ProgressTotals.NONE;
  /** Rows the pipeline had dropped by the end of the previous batch's progress. */
  private long droppedBefore;

  ProgressReporter(String id, String name, String runId, StreamingPipeline pipeline, Sink sink,
      OffsetCommitLog logs) {
    this.id = id;
    this.name = name;
    this.runId = runId;
    this.pipeline = pipeline;
    this.inputs = pipeline.inputs();
    this.sink = sink;
    this.logs = logs;
  }

  /**
   * Records the progress of a committed batch.
   *
   * @param start every stream's offset before the batch
   * @param end every stream's offset after it
   * @param streamRows rows read, per stream
   * @param outputRows rows handed to the sink
   * @param durationMs from before the offset log's write to after the commit log's
   */
  void record(BatchContext batch, long[] start, long[] end, long[] streamRows, long outputRows,
      long durationMs) {
    long inputRows = 0;
    for (long n : streamRows) {
      inputRows += n;
    }
    List<StateOperatorProgress> operators = new ArrayList<>();
    for (StatefulOperator op : pipeline.statefulOperators()) {
      StateMetrics m = op.stateMetrics();
      operators.add(new StateOperatorProgress(op.operatorName(), m.numTotalStateRows(),
          m.numUpdatedStateRows(), m.numRemovedStateRows(), m.numRowsDroppedByWatermark(),
          op.numPartitions(), op.stateKind(), op.stateBound().label(), op.stateBytes()));
    }
    StreamingQueryProgress previous = last().orElse(null);
    // As Spark's ProgressReporter: input rate over the time since the previous batch started
    // (none before the first batch: 0), processing rate over at least 1 ms.
    long sincePreviousMs = previous == null ? 0 : batch.batchTimestampMs() - previous.timestampMs();
    double inputRate = sincePreviousMs > 0 ? inputRows * 1000.0 / sincePreviousMs : 0;
    double processedRate = inputRows * 1000.0 / Math.max(1, durationMs);
    Map<String, String> eventTime = pipeline.watermarks().isEmpty()
        ? Map.of()
        : Map.of("watermark",
            WATERMARK_FORMAT.format(Instant.ofEpochMilli(batch.evictionWatermarkMs())));
    long dropped = pipeline.rowErrors().droppedRows();
    for (SourceInput input : this.inputs) {
      if (input.source() instanceof SupportsDroppedRecords skipping) {
        dropped += skipping.droppedRecords();
      }
    }
    long droppedInBatch = dropped - droppedBefore;
    droppedBefore = dropped;
    StreamingQueryProgress p = new StreamingQueryProgress(id, name, batch.batchId(),
        batch.batchTimestampMs(), inputRows, batch.evictionWatermarkMs(), durationMs, outputRows,
        droppedInBatch, operators, runId, inputRate, processedRate, eventTime,
        sourceProgress(start, end, streamRows, sincePreviousMs, durationMs),
        new SinkProgress(sink.description(), outputRows));
    synchronized (this) {
      totals = totals.plus(p);
      progress.addLast(p);
      if (progress.size() > MicroBatchExecution.PROGRESS_RETAINED) {
        progress.removeFirst();
      }
    }
  }

  /** The progress of the most recent batches, oldest first. */
  synchronized List<StreamingQueryProgress> recent() {
    return List.copyOf(progress);
  }

  /** The progress of the last batch, if one ran. */
  synchronized Optional<StreamingQueryProgress> last() {
    return Optional.ofNullable(progress.peekLast());
  }

  /** Every batch of this run added up. */
  synchronized ProgressTotals totals() {
    return totals;
  }

  /** Each stream's part of a batch's progress, its rates as the batch's (Spark's). */
  private List<SourceProgress> sourceProgress(long[] start, long[] end, long[] rows,
      long sincePreviousMs, long durationMs) {
    List<SourceProgress> sources = new ArrayList<>(rows.length);
    for (int i = 0; i < rows.length; i++) {
      double inputRate = sincePreviousMs > 0 ? rows[i] * 1000.0 / sincePreviousMs : 0;
      sources.add(new SourceProgress(inputs.get(i).source().description(),
          logs.sourceOffset(i, start[i]), logs.sourceOffset(i, end[i]), rows[i], inputRate,
          rows[i] * 1000.0 / Math.max(1, durationMs)));
    }
    return sources;
  }
}

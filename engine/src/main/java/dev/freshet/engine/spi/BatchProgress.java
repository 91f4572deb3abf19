package dev.freshet.engine.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * What another engine's query did in one batch, with the names of Spark's
 * {@code StreamingQueryProgress}: what a {@link ViewProgressListener} receives. The engine shows
 * it under the view's query id and name, whatever the other engine's own ids.
 *
 * <pre>{@code
 * new BatchProgress("spark-id", "CLICKS-q1", "run-1", 3, timestampMs, 10, 0, 12, -1, 0, 830.5,
 *     Map.of(), List.of(new BatchProgress.StateOperator("stateStoreSave", 4, 2, 0, 0, 200)),
 *     List.of(new BatchProgress.Source("MemoryStream[CLICKS]", "2", "3", 10, 0, 830.5)),
 *     "ForeachBatchSink");
 * }</pre>
 *
 * @param id the other engine's query id
 * @param name the other engine's query name
 * @param runId the id of this run of the query
 * @param batchId the batch
 * @param timestampMs when the batch was planned, epoch milliseconds
 * @param numInputRows rows read from the sources
 * @param batchWatermarkMs the watermark the batch ran with (0 without one, or before any event
 *     time)
 * @param durationMs the whole batch, as Spark's {@code triggerExecution}
 * @param numOutputRows rows handed to the sink, -1 if the engine does not count them
 * @param inputRowsPerSecond rows per second at which the input arrived (a number, never NaN)
 * @param processedRowsPerSecond rows per second at which the batch processed them
 * @param eventTime as Spark's: {@code watermark} (ISO-8601, UTC) when the query has one
 * @param stateOperators one entry per stateful operator
 * @param sources one entry per source
 * @param sinkDescription the sink as the engine describes it
 */
public record BatchProgress(String id, String name, String runId, long batchId, long timestampMs,
    long numInputRows, long batchWatermarkMs, long durationMs, long numOutputRows,
    double inputRowsPerSecond, double processedRowsPerSecond, Map<String, String> eventTime,
    List<StateOperator> stateOperators, List<Source> sources, String sinkDescription) {
  public BatchProgress {
    requireNonNull(id, "id");
    requireNonNull(name, "name");
    requireNonNull(runId, "runId");
    eventTime = Map.copyOf(eventTime);
    stateOperators = List.copyOf(stateOperators);
    sources = List.copyOf(sources);
    requireNonNull(sinkDescription, "sinkDescription");
  }

  /**
   * What one stateful operator did in the batch, as Spark's {@code StateOperatorProgress}.
   *
   * @param operatorName e.g. {@code stateStoreSave}
   * @param numRowsTotal keys in state after the batch
   * @param numRowsUpdated keys written by the batch
   * @param numRowsRemoved keys evicted
   * @param numRowsDroppedByWatermark late rows dropped
   * @param numShufflePartitions state partitions
   */
  public record StateOperator(String operatorName, long numRowsTotal, long numRowsUpdated,
      long numRowsRemoved, long numRowsDroppedByWatermark, int numShufflePartitions) {
    public StateOperator {
      requireNonNull(operatorName, "operatorName");
    }
  }

  /**
   * What one source contributed to the batch, as Spark's {@code SourceProgress}.
   *
   * @param description the source, e.g. {@code MemoryStream[CLICKS]}
   * @param startOffset where the batch started reading, as one line of JSON that Freshet's offset
   *     log takes: a non-negative whole number ({@code 0}: from the beginning) or an object
   * @param endOffset the last offset the batch read, the same way
   * @param numInputRows rows the batch read from the source
   * @param inputRowsPerSecond rows per second at which they arrived
   * @param processedRowsPerSecond rows per second at which the batch processed them
   */
  public record Source(String description, String startOffset, String endOffset,
      long numInputRows, double inputRowsPerSecond, double processedRowsPerSecond) {
    public Source {
      requireNonNull(description, "description");
      requireNonNull(startOffset, "startOffset");
      requireNonNull(endOffset, "endOffset");
    }
  }
}

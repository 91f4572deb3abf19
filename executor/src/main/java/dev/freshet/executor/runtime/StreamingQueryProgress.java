package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a streaming query did in one micro-batch, with the names of Spark's
 * {@code StreamingQueryProgress}.
 *
 * <pre>{@code
 * StreamingQueryProgress p = query.recentProgress().get(0);
 * p.numInputRows();                          // rows the batch read
 * p.stateOperators().get(0).numRowsTotal();  // groups in state after it
 * p.eventTime().get("watermark");            // e.g. 1970-01-01T00:00:05.000Z, if a watermark
 * }</pre>
 *
 * @param id query id
 * @param name query name
 * @param batchId the batch
 * @param timestampMs processing time at which the batch was planned
 * @param numInputRows rows read from the source
 * @param batchWatermarkMs the watermark the batch ran with (0 before any event time)
 * @param durationMs the whole batch, as Spark's {@code triggerExecution}: from before its offsets
 *     are written to after its commit is
 * @param numOutputRows rows handed to the sink
 * @param numRowsDroppedByError rows dropped because an expression failed on them, with
 *     {@code 'on.error' = 'skip'}; always 0 otherwise (a failing row fails the batch)
 * @param stateOperators one entry per stateful operator
 * @param runId id of this run of the query
 * @param inputRowsPerSecond {@code numInputRows} over the seconds since the previous batch
 *     started (0 for the first batch, as Spark)
 * @param processedRowsPerSecond {@code numInputRows} over the batch's duration (at least 1 ms)
 * @param eventTime as Spark's: {@code watermark} (ISO-8601, UTC) when the query has a watermark,
 *     otherwise empty
 * @param sources one entry per source
 * @param sink the sink
 */
public record StreamingQueryProgress(String id, String name, long batchId, long timestampMs,
    long numInputRows, long batchWatermarkMs, long durationMs, long numOutputRows,
    long numRowsDroppedByError, List<StateOperatorProgress> stateOperators, String runId, double inputRowsPerSecond,
    double processedRowsPerSecond, Map<String, String> eventTime, List<SourceProgress> sources,
    SinkProgress sink) {
  public StreamingQueryProgress {
    stateOperators = List.copyOf(stateOperators);
    requireNonNull(runId, "runId");
    eventTime = Map.copyOf(eventTime);
    sources = List.copyOf(sources);
    requireNonNull(sink, "sink");
  }

  /**
   * How far the watermark trails the batch's time, in milliseconds: empty for a query without
   * a watermark, and before its first event time moved the watermark off the epoch, where it
   * starts (as Spark's): a lag from 1970 says nothing about the stream.
   */
  public OptionalLong watermarkLagMs() {
    if (!eventTime.containsKey("watermark") || batchWatermarkMs <= 0) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(timestampMs - batchWatermarkMs);
  }
}

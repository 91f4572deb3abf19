package dev.freshet.executor.runtime;

import java.util.List;

/**
 * What a streaming query did in one micro-batch, with the names of Spark's
 * {@code StreamingQueryProgress}.
 *
 * @param id query id
 * @param name query name
 * @param batchId the batch
 * @param timestampMs processing time at which the batch was planned
 * @param numInputRows rows read from the source
 * @param batchWatermarkMs the watermark the batch ran with (0 before any event time)
 * @param durationMs time from planning the batch to handing its output to the sink
 * @param numOutputRows rows handed to the sink
 * @param stateOperators one entry per stateful operator
 */
public record StreamingQueryProgress(String id, String name, long batchId, long timestampMs,
    long numInputRows, long batchWatermarkMs, long durationMs, long numOutputRows,
    List<StateOperatorProgress> stateOperators) {
  public StreamingQueryProgress {
    stateOperators = List.copyOf(stateOperators);
  }
}

package dev.freshet.server.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * {@code GET /api/queries/{name}/progress?after=N}: the progress records a query keeps (its
 * last 100 batches) after batch {@code N}, ascending, with what the charts plot. The same
 * records as {@code sys.query_progress}; the state columns add up the query's stateful
 * operators.
 *
 * <pre>{@code
 * BatchProgressJson.after(query, 41);   // {"batches":[{"batchId":42,"inputRows":3,...}]}
 * }</pre>
 */
final class BatchProgressJson {
  private BatchProgressJson() {
  }

  /** {@code {"batches": [...]}} with the records of batches after {@code after}. */
  static ObjectNode after(ContinuousQuery query, long after) {
    ObjectNode json = JsonResponses.object();
    ArrayNode batches = json.putArray("batches");
    List<StreamingQueryProgress> recent = query.recentProgress().stream()
        .filter(p -> p.batchId() > after)
        .sorted(Comparator.comparingLong(StreamingQueryProgress::batchId))
        .toList();
    for (StreamingQueryProgress p : recent) {
      ObjectNode batch = batches.addObject();
      batch.put("batchId", p.batchId());
      batch.put("timestamp", p.timestampMs());
      batch.put("inputRows", p.numInputRows());
      batch.put("inputRowsPerSecond", p.inputRowsPerSecond());
      batch.put("processedRowsPerSecond", p.processedRowsPerSecond());
      batch.put("durationMs", p.durationMs());
      batch.put("stateRows", sum(p, StateOperatorProgress::numRowsTotal));
      // None for a query without a watermark, or before its first event time.
      if (p.watermarkLagMs().isPresent()) {
        batch.put("watermark", p.batchWatermarkMs());
        batch.put("watermarkLagMs", p.watermarkLagMs().getAsLong());
      } else {
        batch.putNull("watermark");
        batch.putNull("watermarkLagMs");
      }
      batch.put("lateRows", sum(p, StateOperatorProgress::numRowsDroppedByWatermark));
    }
    return json;
  }

  private static long sum(StreamingQueryProgress p, ToLongFunction<StateOperatorProgress> metric) {
    return p.stateOperators().stream().mapToLong(metric).sum();
  }
}

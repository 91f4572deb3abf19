package dev.freshet.server.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.query.QueryMonitor;
import java.util.Comparator;
import java.util.List;

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
    List<QueryMonitor.Batch> recent = QueryMonitor.recentBatches(query).stream()
        .filter(p -> p.batchId() > after)
        .sorted(Comparator.comparingLong(QueryMonitor.Batch::batchId))
        .toList();
    for (QueryMonitor.Batch p : recent) {
      ObjectNode batch = batches.addObject();
      batch.put("batchId", p.batchId());
      batch.put("timestamp", p.timestampMs());
      batch.put("inputRows", p.inputRows());
      batch.put("inputRowsPerSecond", p.inputRowsPerSecond());
      batch.put("processedRowsPerSecond", p.processedRowsPerSecond());
      batch.put("durationMs", p.durationMs());
      batch.put("stateRows", p.stateRows());
      // None for a query without a watermark, or before its first event time.
      if (p.watermarkLagMs().isPresent()) {
        batch.put("watermark", p.watermarkMs());
        batch.put("watermarkLagMs", p.watermarkLagMs().getAsLong());
      } else {
        batch.putNull("watermark");
        batch.putNull("watermarkLagMs");
      }
      batch.put("lateRows", p.lateRows());
    }
    return json;
  }
}

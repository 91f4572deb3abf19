package dev.freshet.spark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.freshet.executor.checkpoint.SourceOffset;
import dev.freshet.executor.runtime.SinkProgress;
import dev.freshet.executor.runtime.SourceProgress;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Spark's progress of one micro-batch as Freshet's {@link StreamingQueryProgress}, which has
 * Spark's names: what the web UI, {@code /metrics} and {@code sys.query_progress} read.
 *
 * <pre>{@code
 * StreamingQueryProgress p = SparkProgress.of(sparkQuery.lastProgress());
 * p.batchWatermarkMs();   // Spark's eventTime.watermark in epoch ms, 0 without one
 * }</pre>
 */
final class SparkProgress {
  // Spark's Jackson, as the rest of this module.
  private static final JsonMapper MAPPER = new JsonMapper();
  /** The phase of {@code durationMs} that only a batch that ran has (its sink's write). */
  private static final String ADD_BATCH = "addBatch";
  private static final String TRIGGER_EXECUTION = "triggerExecution";
  private static final String WATERMARK = "watermark";

  private SparkProgress() {
  }

  /**
   * Whether {@code progress} reports a batch that ran: a trigger that found no data (Spark may
   * report one, with the id of the next batch) wrote nothing to its sink.
   */
  static boolean ranABatch(org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    return progress.durationMs().containsKey(ADD_BATCH);
  }

  /** Spark's {@code progress} in Freshet's terms. */
  static StreamingQueryProgress of(org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    Map<String, String> eventTime = progress.eventTime();
    String watermark = eventTime.get(WATERMARK);
    // Spark reports the watermark of every batch of a query with one (the epoch before any
    // event time), as Freshet does; a query without one has none.
    long watermarkMs = watermark == null ? 0 : Instant.parse(watermark).toEpochMilli();
    Long duration = progress.durationMs().get(TRIGGER_EXECUTION);
    long outputRows = progress.sink() == null ? -1 : progress.sink().numOutputRows();
    SinkProgress sink = new SinkProgress(
        progress.sink() == null ? "" : progress.sink().description(), outputRows);
    return new StreamingQueryProgress(progress.id().toString(),
        progress.name() == null ? progress.id().toString() : progress.name(), progress.batchId(),
        Instant.parse(progress.timestamp()).toEpochMilli(), progress.numInputRows(), watermarkMs,
        duration == null ? 0 : duration, outputRows, 0, stateOperators(progress),
        progress.runId().toString(), finite(progress.inputRowsPerSecond()),
        finite(progress.processedRowsPerSecond()),
        watermark == null ? Map.of() : Map.of(WATERMARK, watermark), sources(progress), sink);
  }

  /**
   * {@code p} as the progress of Freshet's query {@code id} named {@code name}: a view's, whose
   * Spark query has Spark's id and a name unique in the session.
   */
  static StreamingQueryProgress asQuery(StreamingQueryProgress p, String id, String name) {
    return new StreamingQueryProgress(id, name, p.batchId(), p.timestampMs(), p.numInputRows(),
        p.batchWatermarkMs(), p.durationMs(), p.numOutputRows(), p.numRowsDroppedByError(),
        p.stateOperators(), p.runId(), p.inputRowsPerSecond(), p.processedRowsPerSecond(),
        p.eventTime(), p.sources(), p.sink());
  }

  private static List<StateOperatorProgress> stateOperators(
      org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    List<StateOperatorProgress> operators = new ArrayList<>();
    for (org.apache.spark.sql.streaming.StateOperatorProgress op : progress.stateOperators()) {
      operators.add(new StateOperatorProgress(op.operatorName(), op.numRowsTotal(),
          op.numRowsUpdated(), op.numRowsRemoved(), op.numRowsDroppedByWatermark(),
          (int) op.numShufflePartitions()));
    }
    return operators;
  }

  private static List<SourceProgress> sources(
      org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    List<SourceProgress> sources = new ArrayList<>();
    for (org.apache.spark.sql.streaming.SourceProgress source : progress.sources()) {
      sources.add(new SourceProgress(source.description(), offset(source.startOffset()),
          offset(source.endOffset()), source.numInputRows(), finite(source.inputRowsPerSecond()),
          finite(source.processedRowsPerSecond())));
    }
    return sources;
  }

  /**
   * A source's offset as Spark's JSON text, on one line (Jackson's): a whole number or an object
   * as they are; none (the first batch's start) is {@link SourceOffset#ZERO}, "from the
   * beginning", as Freshet's; any other JSON (a string, a negative number) kept as
   * {@code {"spark":...}}, and text that is not JSON as a string there.
   */
  static SourceOffset offset(String json) {
    if (json == null || json.isBlank()) {
      return SourceOffset.ZERO;
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JsonProcessingException notJson) {
      node = TextNode.valueOf(json);
    }
    if (node == null || node.isNull()) {
      return SourceOffset.ZERO;
    }
    // Jackson writes it on one line, as the offset log wants it.
    String line = node.toString();
    try {
      return new SourceOffset(line);
    } catch (IllegalArgumentException notFreshets) {
      return new SourceOffset(MAPPER.createObjectNode().set("spark", node).toString());
    }
  }

  /** Spark reports NaN for a rate it cannot compute; Freshet's rates are numbers. */
  private static double finite(double rate) {
    return Double.isFinite(rate) ? rate : 0;
  }
}

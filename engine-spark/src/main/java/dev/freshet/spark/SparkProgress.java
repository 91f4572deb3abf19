package dev.freshet.spark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.freshet.engine.spi.BatchProgress;
import dev.freshet.executor.checkpoint.SourceOffset;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Spark's progress of one micro-batch as the SPI's {@link BatchProgress}, which has Spark's
 * names; the engine shows it in the web UI, {@code /metrics} and {@code sys.query_progress}.
 *
 * <pre>{@code
 * BatchProgress p = SparkProgress.of(sparkQuery.lastProgress());
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

  /** Spark's {@code progress} in the SPI's terms. */
  static BatchProgress of(org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    Map<String, String> eventTime = progress.eventTime();
    String watermark = eventTime.get(WATERMARK);
    // Spark reports the watermark of every batch of a query with one (the epoch before any
    // event time), as Freshet does; a query without one has none.
    long watermarkMs = watermark == null ? 0 : Instant.parse(watermark).toEpochMilli();
    Long duration = progress.durationMs().get(TRIGGER_EXECUTION);
    long outputRows = progress.sink() == null ? -1 : progress.sink().numOutputRows();
    return new BatchProgress(progress.id().toString(),
        progress.name() == null ? progress.id().toString() : progress.name(),
        progress.runId().toString(), progress.batchId(),
        Instant.parse(progress.timestamp()).toEpochMilli(), progress.numInputRows(), watermarkMs,
        duration == null ? 0 : duration, outputRows, finite(progress.inputRowsPerSecond()),
        finite(progress.processedRowsPerSecond()),
        watermark == null ? Map.of() : Map.of(WATERMARK, watermark), stateOperators(progress),
        sources(progress), progress.sink() == null ? "" : progress.sink().description());
  }

  private static List<BatchProgress.StateOperator> stateOperators(
      org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    List<BatchProgress.StateOperator> operators = new ArrayList<>();
    for (org.apache.spark.sql.streaming.StateOperatorProgress op : progress.stateOperators()) {
      operators.add(new BatchProgress.StateOperator(op.operatorName(), op.numRowsTotal(),
          op.numRowsUpdated(), op.numRowsRemoved(), op.numRowsDroppedByWatermark(),
          (int) op.numShufflePartitions()));
    }
    return operators;
  }

  private static List<BatchProgress.Source> sources(
      org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    List<BatchProgress.Source> sources = new ArrayList<>();
    for (org.apache.spark.sql.streaming.SourceProgress source : progress.sources()) {
      sources.add(new BatchProgress.Source(source.description(), offset(source.startOffset()),
          offset(source.endOffset()), source.numInputRows(), finite(source.inputRowsPerSecond()),
          finite(source.processedRowsPerSecond())));
    }
    return sources;
  }

  /**
   * A source's offset as Spark's JSON text, on one line (Jackson's), in the form Freshet's offset
   * log takes: a whole number or an object as they are; none (the first batch's start) is
   * {@code 0}, "from the beginning", as Freshet's; any other JSON (a string, a negative number)
   * kept as {@code {"spark":...}}, and text that is not JSON as a string there.
   */
  static String offset(String json) {
    if (json == null || json.isBlank()) {
      return SourceOffset.ZERO.json();
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JsonProcessingException notJson) {
      node = TextNode.valueOf(json);
    }
    if (node == null || node.isNull()) {
      return SourceOffset.ZERO.json();
    }
    // Jackson writes it on one line, as the offset log wants it.
    String line = node.toString();
    try {
      return new SourceOffset(line).json();
    } catch (IllegalArgumentException notFreshets) {
      return MAPPER.createObjectNode().set("spark", node).toString();
    }
  }

  /** Spark reports NaN for a rate it cannot compute; Freshet's rates are numbers. */
  private static double finite(double rate) {
    return Double.isFinite(rate) ? rate : 0;
  }
}

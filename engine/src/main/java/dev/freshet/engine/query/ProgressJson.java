package dev.freshet.engine.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.freshet.executor.checkpoint.SourceOffset;
import dev.freshet.executor.runtime.SourceProgress;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link StreamingQueryProgress} as JSON, in the layout of Spark's
 * {@code StreamingQueryProgress.json} (SEMANTICS.md §11), so that tools written for Spark's
 * progress events read Freshet's.
 *
 * <pre>{@code
 * String json = ProgressJson.toJson(progress);
 * // {"id":"f3c1...","runId":"9a0e...","name":"CLICKS_PER_USER",
 * //  "timestamp":"2026-11-29T10:00:00.123Z","batchId":4,"numInputRows":2,
 * //  "inputRowsPerSecond":4.0,"processedRowsPerSecond":666.7,
 * //  "durationMs":{"triggerExecution":3},"eventTime":{"watermark":"1970-01-01T00:00:15.000Z"},
 * //  "stateOperators":[{"operatorName":"stateStoreSave","numRowsTotal":2,"numRowsUpdated":1,
 * //    "numRowsRemoved":0,"numRowsDroppedByWatermark":1,"numShufflePartitions":1}],
 * //  "sources":[{"description":"MemoryStream[EVENTS]","startOffset":3,"endOffset":4,
 * //    "numInputRows":2,"inputRowsPerSecond":4.0,"processedRowsPerSecond":666.7}],
 * //  "sink":{"description":"MaterializedView[CLICKS_PER_USER]","numOutputRows":1}}
 * }</pre>
 *
 * <p>Fields come in Spark's order; those Freshet does not measure (the other durations,
 * {@code allUpdatesTimeMs}, {@code memoryUsedBytes}, the event-time {@code min/max/avg}, ...) are
 * left out, as Spark leaves out what it did not measure. As in Spark, {@code eventTime} appears
 * only for a query with a watermark, a rate that is not a finite number is left out, timestamps
 * are ISO-8601 in UTC with milliseconds, and offsets are numbers (a memory stream's offset is the
 * count of INSERT statements, a sequence stream's the count of rows).
 */
public final class ProgressJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private ProgressJson() {
  }

  /** The progress record as one line of JSON. */
  public static String toJson(StreamingQueryProgress p) {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("id", p.id());
    json.put("runId", p.runId());
    json.put("name", p.name());
    json.put("timestamp", TIMESTAMP.format(Instant.ofEpochMilli(p.timestampMs())));
    json.put("batchId", p.batchId());
    json.put("numInputRows", p.numInputRows());
    if (p.numRowsDroppedByError() > 0) {
      // Freshet's own ('on.error' = 'skip'); Spark fails the batch instead.
      json.put("numRowsDroppedByError", p.numRowsDroppedByError());
    }
    putRate(json, "inputRowsPerSecond", p.inputRowsPerSecond());
    putRate(json, "processedRowsPerSecond", p.processedRowsPerSecond());
    json.putObject("durationMs").put("triggerExecution", p.durationMs());
    if (!p.eventTime().isEmpty()) {
      // Spark sorts the keys (avg, max, min, watermark).
      ObjectNode eventTime = json.putObject("eventTime");
      for (Map.Entry<String, String> e : new TreeMap<>(p.eventTime()).entrySet()) {
        eventTime.put(e.getKey(), e.getValue());
      }
    }
    ArrayNode operators = json.putArray("stateOperators");
    for (StateOperatorProgress op : p.stateOperators()) {
      operators.addObject()
          .put("operatorName", op.operatorName())
          .put("numRowsTotal", op.numRowsTotal())
          .put("numRowsUpdated", op.numRowsUpdated())
          .put("numRowsRemoved", op.numRowsRemoved())
          .put("numRowsDroppedByWatermark", op.numRowsDroppedByWatermark())
          .put("numShufflePartitions", op.numShufflePartitions());
    }
    ArrayNode sources = json.putArray("sources");
    for (SourceProgress s : p.sources()) {
      ObjectNode source = sources.addObject().put("description", s.description());
      // As Spark's: each offset as its source writes it, a number or an object.
      source.set("startOffset", offsetJson(s.startOffset()));
      source.set("endOffset", offsetJson(s.endOffset()));
      source.put("numInputRows", s.numInputRows());
      putRate(source, "inputRowsPerSecond", s.inputRowsPerSecond());
      putRate(source, "processedRowsPerSecond", s.processedRowsPerSecond());
    }
    json.putObject("sink")
        .put("description", p.sink().description())
        .put("numOutputRows", p.sink().numOutputRows());
    try {
      return MAPPER.writeValueAsString(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers is always JSON", e);
    }
  }

  /** A source's offset as a JSON value: its text is JSON already (a number or an object). */
  private static JsonNode offsetJson(SourceOffset offset) {
    try {
      return MAPPER.readTree(offset.json());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a source offset is JSON: " + offset, e);
    }
  }

  /** As Spark's {@code safeDoubleToJValue}: NaN and infinities are left out. */
  private static void putRate(ObjectNode json, String field, double value) {
    if (Double.isFinite(value)) {
      json.put(field, value);
    }
  }
}

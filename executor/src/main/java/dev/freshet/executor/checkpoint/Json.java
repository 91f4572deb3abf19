package dev.freshet.executor.checkpoint;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON lines of checkpoint files: written field by field, so that the bytes are fixed by the
 * code rather than by a mapper's settings, and read strictly, so that a truncated line, trailing
 * garbage or a repeated field is an error naming the file instead of a silently different value.
 * Fields a reader does not know are ignored, so a later Freshet can add some without a new log
 * version (as Spark's json4s readers do).
 */
final class Json {
  /** Thread-safe once built; shared by every log. */
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private Json() {
  }

  /** Writes one JSON value without whitespace. */
  interface Body {
    void writeTo(JsonGenerator json) throws IOException;
  }

  /** The compact JSON text {@code body} writes. */
  static String write(Body body) {
    StringWriter out = new StringWriter();
    try (JsonGenerator json = MAPPER.createGenerator(out)) {
      body.writeTo(json);
    } catch (IOException e) {
      // A StringWriter does not fail; only a bug in a body could get here.
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** Parses {@code line}, which must hold one JSON object, the {@code what} of {@code file}. */
  static JsonNode parseObject(String line, Path file, String what) {
    JsonNode node;
    try {
      node = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      throw CheckpointException.corrupt(file, what + " is not valid JSON", e);
    }
    if (node == null || !node.isObject()) {
      throw CheckpointException.corrupt(file, what + " is not a JSON object");
    }
    return node;
  }

  /** The whole number in {@code field} of {@code object}, the {@code what} of {@code file}. */
  static long longField(JsonNode object, String field, Path file, String what) {
    JsonNode value = object.get(field);
    if (value == null) {
      throw CheckpointException.corrupt(file, what + " has no \"" + field + "\"");
    }
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw CheckpointException.corrupt(file,
          what + " has \"" + field + "\" that is not a whole number of type long");
    }
    return value.longValue();
  }

  /** The object of strings in {@code field} of {@code object}, in the file's order. */
  static Map<String, String> stringMapField(JsonNode object, String field, Path file,
      String what) {
    JsonNode value = object.get(field);
    if (value == null) {
      throw CheckpointException.corrupt(file, what + " has no \"" + field + "\"");
    }
    if (!value.isObject()) {
      throw CheckpointException.corrupt(file,
          what + " has \"" + field + "\" that is not a JSON object");
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (!entry.getValue().isTextual()) {
        throw CheckpointException.corrupt(file, what + " has \"" + field + "\" whose \""
            + entry.getKey() + "\" is not a string");
      }
      map.put(entry.getKey(), entry.getValue().textValue());
    }
    return map;
  }

  /** The string in {@code field} of {@code object}, the {@code what} of {@code file}. */
  static String stringField(JsonNode object, String field, Path file, String what) {
    JsonNode value = object.get(field);
    if (value == null) {
      throw CheckpointException.corrupt(file, what + " has no \"" + field + "\"");
    }
    if (!value.isTextual()) {
      throw CheckpointException.corrupt(file,
          what + " has \"" + field + "\" that is not a string");
    }
    return value.textValue();
  }
}

package dev.freshet.spark.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.apache.spark.sql.connector.read.streaming.Offset;

/**
 * Position in a Freshet stream as Spark's offset log records it: the stream's own offset, one
 * per INSERT statement, written as JSON {@code {"offset":3}}; 0 is "nothing yet".
 *
 * <pre>{@code
 * FreshetOffset end = new FreshetOffset(3);
 * end.json();                               // {"offset":3}
 * FreshetOffset.parse("CLICKS", end.json()).offset();  // 3
 * }</pre>
 */
final class FreshetOffset extends Offset {
  private static final String FIELD = "offset";
  // Spark's Jackson, as the rest of this module: it shares the JVM with Spark.
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private final long offset;

  FreshetOffset(long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset);
    }
    this.offset = offset;
  }

  /**
   * The offset {@link #json} wrote; {@code stream} names the stream in the error.
   *
   * @throws FreshetSourceException if {@code json} is not one
   */
  static FreshetOffset parse(String stream, String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw SourceErrors.badOffset(stream, json);
    }
    if (root != null && root.isObject() && root.size() == 1) {
      JsonNode offset = root.get(FIELD);
      if (offset != null && offset.isIntegralNumber() && offset.canConvertToLong()
          && offset.longValue() >= 0) {
        return new FreshetOffset(offset.longValue());
      }
    }
    throw SourceErrors.badOffset(stream, json);
  }

  long offset() {
    return offset;
  }

  // Spark compares offsets by their JSON (Offset.equals), so this is all it needs.
  @Override public String json() {
    return MAPPER.createObjectNode().put(FIELD, offset).toString();
  }
}

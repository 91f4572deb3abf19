package dev.freshet.benchmarks.e2e;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One flat JSON object (strings and numbers), written on one line by Jackson.
 *
 * <pre>{@code
 * new JsonLine().put("engine", "freshet").put("rows_per_s", 2.0e7).toString();
 * // {"engine":"freshet","rows_per_s":2.000e+07}
 * JsonLine.parse("{\"rows\":42}").number("rows");   // 42.0
 * }</pre>
 *
 * <p>Child JVMs print their result as {@code RESULT {...}} so that the harness can find it among
 * Spark's log lines. Doubles keep four significant digits ({@code %.4g}) so that the lines in
 * {@code benchmarks/results/*.jsonl} stay short and comparable between runs.
 */
public final class JsonLine {
  /** The prefix a child JVM writes before its result line. */
  public static final String RESULT_PREFIX = "RESULT ";

  private static final JsonMapper MAPPER = new JsonMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private final Map<String, Object> fields = new LinkedHashMap<>();

  public JsonLine put(String key, Object value) {
    fields.put(key, value);
    return this;
  }

  /** The keys, in the order they were put. */
  public java.util.Set<String> keys() {
    return fields.keySet();
  }

  public Object get(String key) {
    return fields.get(key);
  }

  public double number(String key) {
    Object v = fields.get(key);
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  public String string(String key) {
    Object v = fields.get(key);
    return v == null ? null : v.toString();
  }

  @Override public String toString() {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(text)) {
      g.writeStartObject();
      for (Map.Entry<String, Object> e : fields.entrySet()) {
        g.writeFieldName(e.getKey());
        Object v = e.getValue();
        if (v instanceof Double d) {
          if (d.isNaN() || d.isInfinite()) {
            g.writeNull();
          } else {
            // Jackson writes the text as a number, unquoted: the files' four significant digits.
            g.writeNumber(String.format(Locale.ROOT, "%.4g", d));
          }
        } else if (v instanceof Number n) {
          g.writeNumber(n.toString());
        } else if (v == null) {
          g.writeNull();
        } else {
          g.writeString(v.toString());
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a string", e);
    }
    return text.toString();
  }

  /**
   * Parses one flat JSON object, as {@link #toString} writes it: whole numbers become longs,
   * other numbers doubles.
   *
   * @throws IllegalArgumentException if {@code json} is not a JSON object
   */
  public static JsonLine parse(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + json, e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object: " + json);
    }
    JsonLine line = new JsonLine();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      line.put(e.getKey(), v.isNull() ? null
          : v.isIntegralNumber() ? (Object) v.longValue()
          : v.isNumber() ? (Object) v.doubleValue()
          : v.isValueNode() ? v.asText() : v.toString());
    }
    return line;
  }
}

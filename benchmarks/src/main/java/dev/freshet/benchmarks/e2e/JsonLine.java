package dev.freshet.benchmarks.e2e;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One flat JSON object (strings and numbers), written on one line.
 *
 * <p>Child JVMs print their result as {@code RESULT {...}} so that the harness can find it among
 * Spark's log lines; a flat object keeps the parser in {@link #parse} small and dependency-free.
 */
public final class JsonLine {
  /** The prefix a child JVM writes before its result line. */
  public static final String RESULT_PREFIX = "RESULT ";

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
    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, Object> e : fields.entrySet()) {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append('"').append(e.getKey()).append("\":");
      Object v = e.getValue();
      if (v instanceof Double d) {
        b.append(d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.4g", d));
      } else if (v instanceof Number) {
        b.append(v);
      } else if (v == null) {
        b.append("null");
      } else {
        b.append('"').append(v.toString().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
      }
    }
    return b.append('}').toString();
  }

  /** Parses what {@link #toString} wrote (no nesting, no escapes beyond quote and backslash). */
  public static JsonLine parse(String json) {
    JsonLine line = new JsonLine();
    String body = json.trim();
    body = body.substring(1, body.length() - 1);
    int i = 0;
    while (i < body.length()) {
      int keyStart = body.indexOf('"', i) + 1;
      int keyEnd = body.indexOf('"', keyStart);
      String key = body.substring(keyStart, keyEnd);
      int valueStart = body.indexOf(':', keyEnd) + 1;
      if (body.charAt(valueStart) == '"') {
        StringBuilder s = new StringBuilder();
        int j = valueStart + 1;
        while (body.charAt(j) != '"') {
          char c = body.charAt(j);
          if (c == '\\') {
            j++;
            c = body.charAt(j);
          }
          s.append(c);
          j++;
        }
        line.put(key, s.toString());
        i = j + 2;
      } else {
        int end = body.indexOf(',', valueStart);
        end = end < 0 ? body.length() : end;
        String raw = body.substring(valueStart, end).trim();
        line.put(key, raw.equals("null") ? null
            : raw.matches("-?[0-9]+") ? (Object) Long.valueOf(raw) : (Object) Double.valueOf(raw));
        i = end + 1;
      }
    }
    return line;
  }
}

package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;

/**
 * The {@code WITH ('key' = 'value', ...)} clause of {@code CREATE STREAM}, {@code CREATE TABLE},
 * {@code CREATE SINK} and {@code CREATE MATERIALIZED VIEW}, as the parser hands it over: string literals, key, value, key, ...
 *
 * <pre>{@code
 * WithOptions.check(options);                    // in the statement's constructor
 * Map<String, String> map = WithOptions.toMap(options);
 * WithOptions.unparse(writer, options);          // WITH (connector = 'kafka', ...)
 * }</pre>
 */
final class WithOptions {
  private WithOptions() {
  }

  /** Fails unless {@code options} alternates keys and values. */
  static SqlNodeList check(SqlNodeList options) {
    requireNonNull(options, "options");
    if (options.size() % 2 != 0) {
      throw new IllegalArgumentException("options must alternate keys and values: " + options);
    }
    return options;
  }

  /** The options as a map, in the order written. */
  static Map<String, String> toMap(SqlNodeList options) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < options.size(); i += 2) {
      map.put(stringValue(options.get(i)), stringValue(options.get(i + 1)));
    }
    return Collections.unmodifiableMap(map);
  }

  /** Writes {@code WITH (key = value, ...)}. */
  static void unparse(SqlWriter writer, SqlNodeList options) {
    writer.keyword("WITH");
    SqlWriter.Frame frame = writer.startList("(", ")");
    for (int i = 0; i < options.size(); i += 2) {
      writer.sep(",");
      options.get(i).unparse(writer, 0, 0);
      writer.keyword("=");
      options.get(i + 1).unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }

  private static String stringValue(SqlNode node) {
    return requireNonNull(((SqlLiteral) node).getValueAs(String.class), "option");
  }
}

package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;

/**
 * The {@code WITH ('key' = 'value', ...)} clause of {@code CREATE STREAM}, {@code CREATE TABLE},
 * {@code CREATE SINK} and {@code CREATE MATERIALIZED VIEW}, as the parser hands it over: key,
 * value, key, ...; a key is a string literal, a value one too or a {@link SqlSecretReference}.
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

  /**
   * The options as a map, in the order written.
   *
   * @throws IllegalStateException if a value is {@code SECRET name}: only who may read the
   *     secret can tell its value, from {@link #entries}
   */
  static Map<String, String> toMap(SqlNodeList options) {
    Map<String, String> map = new LinkedHashMap<>();
    for (WithOption option : entries(options)) {
      map.put(option.key(), option.literal().orElseThrow(() -> new IllegalStateException(
          "Option '" + option.key() + "' is the secret " + option.secret().orElse("?")
              + ", whose value the statement does not hold: read the options' entries")));
    }
    return Collections.unmodifiableMap(map);
  }

  /** The options in the order written. */
  static List<WithOption> entries(SqlNodeList options) {
    List<WithOption> entries = new ArrayList<>();
    for (int i = 0; i < options.size(); i += 2) {
      entries.add(new WithOption((SqlCharStringLiteral) options.get(i), options.get(i + 1)));
    }
    return Collections.unmodifiableList(entries);
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
}

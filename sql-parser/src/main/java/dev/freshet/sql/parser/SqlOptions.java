package dev.freshet.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;

/**
 * The clauses that Freshet's CREATE and DROP nodes share: the {@code WITH ('key' = 'value', ...)}
 * clause of {@code CREATE STREAM}, {@code CREATE TABLE}, {@code CREATE SINK} and
 * {@code CREATE MATERIALIZED VIEW}, as the parser hands it over (key, value, key, ...; a key is a
 * string literal, a value one too or a {@link SqlSecretReference}), and the statements' heads
 * with {@code OR REPLACE} and {@code IF [NOT] EXISTS}.
 *
 * <pre>{@code
 * SqlOptions.check(options);                    // in the statement's constructor
 * Map<String, String> map = SqlOptions.toMap(options);
 * SqlOptions.unparseCreate(writer, false, "SINK", ifNotExists, name, leftPrec, rightPrec);
 * SqlOptions.unparse(writer, options);          // WITH (connector = 'kafka', ...)
 * }</pre>
 */
final class SqlOptions {
  private SqlOptions() {
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

  /** Writes {@code WITH (key = value, ...)}, unless there are no options. */
  static void unparseIfAny(SqlWriter writer, SqlNodeList options) {
    if (!options.isEmpty()) {
      unparse(writer, options);
    }
  }

  /** Writes {@code CREATE [OR REPLACE] kind [IF NOT EXISTS] name}. */
  static void unparseCreate(SqlWriter writer, boolean replace, String kind,
      boolean ifNotExists, SqlIdentifier name, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (replace) {
      writer.keyword("OR REPLACE");
    }
    writer.keyword(kind);
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
  }

  /** Writes {@code DROP kind [IF EXISTS] name}. */
  static void unparseDrop(SqlWriter writer, String kind, boolean ifExists, SqlIdentifier name,
      int leftPrec, int rightPrec) {
    writer.keyword("DROP");
    writer.keyword(kind);
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
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

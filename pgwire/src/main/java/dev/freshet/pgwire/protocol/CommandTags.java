package dev.freshet.pgwire.protocol;

import dev.freshet.engine.query.StatementResult;
import java.util.List;

/**
 * The tag of a CommandComplete message, as PostgreSQL writes it: {@code SELECT 3},
 * {@code INSERT 0 5}, {@code CREATE TABLE}, {@code SET}; the statement's leading keywords say
 * which, and the result how many rows.
 *
 * <pre>{@code
 * CommandTags.of("insert into clicks values (1)", new UpdateCount(1));   // "INSERT 0 1"
 * CommandTags.of("CREATE MATERIALIZED VIEW v AS ...", new UpdateCount(0));
 * // "CREATE MATERIALIZED VIEW"
 * }</pre>
 */
final class CommandTags {
  private CommandTags() {
  }

  /** The tag of statement {@code sql}, which produced {@code result}. */
  static String of(String sql, StatementResult result) {
    return of(sql, result instanceof StatementResult.Rows rows ? rows.rows().size()
        : result instanceof StatementResult.UpdateCount count ? count.count() : 0,
        result instanceof StatementResult.Rows);
  }

  /** The tag of statement {@code sql}, which returned or changed {@code count} rows. */
  static String of(String sql, long count, boolean rows) {
    List<String> words = SqlText.leadingWords(sql, 5);
    String first = words.isEmpty() ? "" : words.get(0);
    switch (first) {
    case "INSERT":
      return "INSERT 0 " + count;
    case "UPDATE":
    case "DELETE":
    case "MERGE":
      return first + " " + count;
    case "CREATE":
    case "DROP":
    case "ALTER":
      return ddl(words);
    default:
      if (rows) {
        // SELECT, VALUES, WITH, TABLE, SHOW, EXPLAIN, DESCRIBE, and the catalog's queries.
        return first.equals("SHOW") ? "SHOW" : "SELECT " + count;
      }
      return first.isEmpty() ? "OK" : first;
    }
  }

  /** {@code CREATE STREAM}, {@code DROP MATERIALIZED VIEW}, {@code CREATE OR REPLACE VIEW}. */
  private static String ddl(List<String> words) {
    StringBuilder tag = new StringBuilder(words.get(0));
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("OR") || w.equals("REPLACE")) {
        continue;
      }
      tag.append(' ').append(w);
      if (!w.equals("MATERIALIZED") && !w.equals("EXTERNAL") && !w.equals("TEMPORARY")
          && !w.equals("TEMP") && !w.equals("UNIQUE")) {
        break;
      }
    }
    return tag.toString();
  }
}

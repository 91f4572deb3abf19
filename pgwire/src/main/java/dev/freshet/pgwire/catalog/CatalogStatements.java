package dev.freshet.pgwire.catalog;

import dev.freshet.pgwire.sql.PgToken;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which statements the catalog answers: a {@code SELECT} (or {@code WITH}) that reads
 * {@code pg_catalog} or {@code information_schema}, one of their tables unqualified
 * ({@code pg_class}), or calls a catalog function ({@code version()}, {@code format_type},
 * {@code current_schema()}, ...). Read from tokens, so a name inside a string literal or a quoted
 * identifier does not count, and without Freshet's grammar: a {@code SELECT STREAM}, a statement
 * that is not a query, and a query naming none of these go to the engine.
 *
 * <pre>{@code
 * CatalogStatements.answers("SELECT relname FROM pg_class");   // true
 * CatalogStatements.answers("SELECT * FROM clicks");           // false
 * }</pre>
 */
final class CatalogStatements {
  private static final Pattern CREATE =
      Pattern.compile("CREATE (?:TABLE|VIEW) pg_catalog\\.(\\w+)");
  /** Names that make a query a catalog query wherever they appear as words. */
  private static final Set<String> CATALOG_WORDS = catalogWords();
  /** Names that make a query a catalog query when called as a function. */
  private static final Set<String> CATALOG_CALLS = Set.of("version", "current_schema",
      "current_schemas", "current_database", "current_setting", "format_type",
      "has_table_privilege", "has_schema_privilege", "has_database_privilege",
      "has_any_column_privilege", "obj_description", "col_description", "shobj_description",
      "pg_get_userbyid", "pg_encoding_to_char", "pg_get_expr", "pg_get_indexdef",
      "pg_get_constraintdef", "pg_get_viewdef", "pg_table_is_visible", "pg_type_is_visible",
      "pg_function_is_visible", "pg_relation_size", "pg_total_relation_size", "pg_table_size",
      "pg_size_pretty", "pg_backend_pid", "pg_get_serial_sequence");

  private CatalogStatements() {
  }

  /** pg_catalog, information_schema, and the tables and views the catalog's script creates. */
  private static Set<String> catalogWords() {
    Set<String> words = new HashSet<>(List.of("pg_catalog", "information_schema",
        "current_catalog"));
    Matcher m = CREATE.matcher(PgCatalog.script());
    while (m.find()) {
      if (!m.group(1).startsWith("freshet_")) {
        words.add(m.group(1));
      }
    }
    return Set.copyOf(words);
  }

  /** Whether {@code sql} is a catalog statement (see the class comment). */
  /** Whether the non-blank token {@code step} (1 or -1) away from {@code i} is symbol s. */
  private static boolean symbolAt(List<PgToken> tokens, int i, int step, String s) {
    PgToken t = neighbour(tokens, i, step);
    return t != null && t.kind() == PgToken.Kind.OPERATOR && t.text().equals(s);
  }

  private static boolean wordAt(List<PgToken> tokens, int i, int step, String w) {
    PgToken t = neighbour(tokens, i, step);
    return t != null && t.kind() == PgToken.Kind.WORD && t.text().equalsIgnoreCase(w);
  }

  private static PgToken neighbour(List<PgToken> tokens, int i, int step) {
    for (int j = i + step; j >= 0 && j < tokens.size(); j += step) {
      if (!tokens.get(j).isBlank()) {
        return tokens.get(j);
      }
    }
    return null;
  }

  static boolean answers(String sql) {
    if (sql == null) {
      return false;
    }
    List<PgToken> tokens = PgSqlTranslator.tokens(sql);
    int first = -1;
    for (int i = 0; i < tokens.size(); i++) {
      if (!tokens.get(i).isBlank() && !tokens.get(i).text().equals("(")) {
        first = i;
        break;
      }
    }
    if (first < 0) {
      return false;
    }
    String verb = tokens.get(first).text().toUpperCase(Locale.ROOT);
    if (!verb.equals("SELECT") && !verb.equals("WITH")) {
      return false;
    }
    for (int i = first + 1; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
      if (t.isBlank()) {
        continue;
      }
      if (t.kind() == PgToken.Kind.QUOTED) {
        // "pg_catalog"."pg_class", as HoneySQL (Metabase) quotes every name.
        String name = t.text().substring(1, Math.max(1, t.text().length() - 1));
        // A relation or schema there ("pg_catalog".x, x."pg_class", FROM "pg_class"), not a
        // column that happens to be named so.
        if (CATALOG_WORDS.contains(name) && (symbolAt(tokens, i, 1, ".")
            || symbolAt(tokens, i, -1, ".") || wordAt(tokens, i, -1, "FROM")
            || wordAt(tokens, i, -1, "JOIN"))) {
          return true;
        }
        continue;
      }
      if (t.kind() != PgToken.Kind.WORD) {
        continue;
      }
      String word = t.text().toLowerCase(Locale.ROOT);
      if (word.equals("stream") && i == nextWord(tokens, first)) {
        // SELECT STREAM: a push query, Freshet's own.
        return false;
      }
      if (CATALOG_WORDS.contains(word)) {
        return true;
      }
      if (CATALOG_CALLS.contains(word) && isCall(tokens, i)) {
        return true;
      }
    }
    return false;
  }

  private static int nextWord(List<PgToken> tokens, int i) {
    int j = i + 1;
    while (j < tokens.size() && tokens.get(j).isBlank()) {
      j++;
    }
    return j;
  }

  private static boolean isCall(List<PgToken> tokens, int i) {
    int j = nextWord(tokens, i);
    return j < tokens.size() && tokens.get(j).text().equals("(");
  }
}

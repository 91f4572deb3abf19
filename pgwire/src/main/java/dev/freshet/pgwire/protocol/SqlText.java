package dev.freshet.pgwire.protocol;

import dev.freshet.pgwire.sql.PgLexer;
import dev.freshet.pgwire.sql.PgToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splitting and rewriting statements by their {@link PgLexer} tokens, so that a semicolon or a
 * {@code $1} inside a string literal, quoted name, dollar-quoted string or comment is text.
 *
 * <pre>{@code
 * SqlText.split("SELECT 1; SELECT ';'; -- done");   // ["SELECT 1", "SELECT ';'"]
 * SqlText.isEmpty("/* nothing *" + "/ ;");           // true
 * }</pre>
 */
final class SqlText {
  private SqlText() {
  }

  /**
   * The statements of {@code sql}, split at semicolons outside strings and comments, each
   * without its semicolon; statements holding only white space and comments are left out.
   */
  static List<String> split(String sql) {
    List<String> statements = new ArrayList<>();
    int start = 0;
    int at = 0;
    for (PgToken t : PgLexer.tokenize(sql)) {
      if (t.is(";")) {
        add(statements, sql.substring(start, at));
        start = at + 1;
      }
      at += t.text().length();
    }
    add(statements, sql.substring(start));
    return statements;
  }

  private static void add(List<String> statements, String statement) {
    if (!isEmpty(statement)) {
      statements.add(statement.strip());
    }
  }

  /** Whether {@code sql} holds nothing but white space, comments and semicolons. */
  static boolean isEmpty(String sql) {
    for (PgToken t : PgLexer.tokenize(sql)) {
      if (!t.isBlank() && !t.is(";")) {
        return false;
      }
    }
    return true;
  }

  /**
   * The first {@code count} words of {@code sql}'s code (comments skipped), upper case: what a
   * statement is, e.g. {@code [CREATE, MATERIALIZED, VIEW]}.
   */
  static List<String> leadingWords(String sql, int count) {
    List<String> words = new ArrayList<>(count);
    for (PgToken t : PgLexer.tokenize(sql)) {
      if (words.size() >= count) {
        break;
      }
      if (t.kind() == PgToken.Kind.WORD) {
        words.add(upper(t.text()));
      } else if (!t.isBlank() && !t.is("(")) {
        break;
      }
    }
    return words;
  }

  /**
   * {@code sql} with PostgreSQL's numbered parameters ({@code $1}, {@code $2}) turned into the
   * positional markers ({@code ?}) Freshet's parser takes.
   */
  static Markers markers(String sql) {
    List<Integer> order = new ArrayList<>();
    String replaced = replaceParameters(sql, number -> {
      order.add(number);
      return "?";
    });
    int[] occurrences = order.stream().mapToInt(Integer::intValue).toArray();
    int max = 0;
    for (int number : occurrences) {
      max = Math.max(max, number);
    }
    return new Markers(replaced, occurrences, max);
  }

  /**
   * {@code sql} with each numbered parameter ({@code $n}, outside strings and comments) replaced
   * by {@code replacement.apply(n)}.
   */
  static String replaceParameters(String sql,
      java.util.function.IntFunction<String> replacement) {
    StringBuilder out = new StringBuilder(sql.length());
    for (PgToken t : PgLexer.tokenize(sql)) {
      if (t.kind() == PgToken.Kind.PARAMETER) {
        try {
          out.append(replacement.apply(Integer.parseInt(t.text().substring(1))));
          continue;
        } catch (NumberFormatException e) {
          // too large to be a parameter: left as written, as PostgreSQL then fails on it
        }
      }
      out.append(t.text());
    }
    return out.toString();
  }

  /**
   * {@code sql} with the values of its numbered parameters written in as PostgreSQL literals,
   * for the catalog, which takes statements as text: strings quoted (quotes doubled, as
   * {@code standard_conforming_strings} reads them), numbers and booleans as they are.
   */
  static String bindLiterals(String sql, List<Object> values) {
    return replaceParameters(sql, number -> {
      Object value = number >= 1 && number <= values.size() ? values.get(number - 1) : null;
      if (value == null) {
        return "NULL";
      }
      if (value instanceof Number || value instanceof Boolean) {
        return value.toString();
      }
      if (value instanceof byte[] bytes) {
        return "'" + PgValues.hex(bytes) + "'";
      }
      return "'" + value.toString().replace("'", "''") + "'";
    });
  }

  /**
   * A statement's text with {@code ?} markers, and which parameter ({@code $n}, 1-based) each
   * marker stands for, in the order the markers appear.
   *
   * @param sql the statement with {@code ?} markers
   * @param occurrences for each marker, the number of its parameter
   * @param count how many parameters the statement has: the highest number used
   */
  record Markers(String sql, int[] occurrences, int count) {
  }

  /** {@code word} upper case, for comparing keywords. */
  static String upper(String word) {
    return word.toUpperCase(Locale.ROOT);
  }
}

package dev.freshet.pgwire.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's lexical structure, as much as splitting and rewriting statements needs: where
 * string literals ({@code '...'}, {@code E'...'} with backslash escapes), quoted identifiers,
 * dollar-quoted strings ({@code $tag$...$tag$}), and comments ({@code --} to the line's end,
 * nested {@code /* ... *}{@code /}) begin and end, so that a semicolon or a {@code $1} inside
 * them is text.
 *
 * <pre>{@code
 * SqlText.split("SELECT 1; SELECT ';'; -- done");   // ["SELECT 1", "SELECT ';'"]
 * SqlText.isEmpty("/* nothing *" + "/ ;");           // true
 * }</pre>
 */
final class SqlText {
  private SqlText() {
  }

  /** What the scanner reports of each character outside strings and comments. */
  private interface Visitor {
    /** Code character {@code i}; returns the index to continue at. */
    int code(String sql, int i);
  }

  /**
   * The statements of {@code sql}, split at semicolons outside strings and comments, each
   * without its semicolon; statements holding only white space and comments are left out.
   */
  static List<String> split(String sql) {
    List<String> statements = new ArrayList<>();
    int[] start = {0};
    scan(sql, (text, i) -> {
      if (text.charAt(i) == ';') {
        add(statements, text.substring(start[0], i));
        start[0] = i + 1;
      }
      return i + 1;
    });
    add(statements, sql.substring(start[0]));
    return statements;
  }

  private static void add(List<String> statements, String statement) {
    if (!isEmpty(statement)) {
      statements.add(statement.strip());
    }
  }

  /** Whether {@code sql} holds nothing but white space, comments and semicolons. */
  static boolean isEmpty(String sql) {
    boolean[] code = {false};
    scan(sql, (text, i) -> {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c) && c != ';') {
        code[0] = true;
      }
      return i + 1;
    });
    return !code[0];
  }

  /**
   * The first {@code count} words of {@code sql}'s code (comments skipped), upper case: what a
   * statement is, e.g. {@code [CREATE, MATERIALIZED, VIEW]}.
   */
  static List<String> leadingWords(String sql, int count) {
    List<String> words = new ArrayList<>(count);
    StringBuilder word = new StringBuilder();
    boolean[] done = {false};
    scan(sql, (text, i) -> {
      if (done[0]) {
        return text.length();
      }
      char c = text.charAt(i);
      if (Character.isLetter(c) || c == '_' || (word.length() > 0 && Character.isDigit(c))) {
        word.append(Character.toUpperCase(c));
      } else {
        if (word.length() > 0) {
          words.add(word.toString());
          word.setLength(0);
        }
        if (!Character.isWhitespace(c) && c != '(' || words.size() >= count) {
          done[0] = true;
        }
      }
      return i + 1;
    });
    if (word.length() > 0 && words.size() < count && !done[0]) {
      words.add(word.toString());
    }
    return words.size() > count ? words.subList(0, count) : words;
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
    int[] copied = {0};
    scan(sql, (text, i) -> {
      if (text.charAt(i) != '$' || i + 1 >= text.length()
          || !Character.isDigit(text.charAt(i + 1))
          || (i > 0 && (Character.isLetterOrDigit(text.charAt(i - 1))
              || text.charAt(i - 1) == '_'))) {
        return i + 1;
      }
      int j = i + 1;
      while (j < text.length() && Character.isDigit(text.charAt(j))) {
        j++;
      }
      int number;
      try {
        number = Integer.parseInt(text.substring(i + 1, j));
      } catch (NumberFormatException e) {
        return j;
      }
      out.append(text, copied[0], i).append(replacement.apply(number));
      copied[0] = j;
      return j;
    });
    out.append(sql, copied[0], sql.length());
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

  /** Calls {@code visitor} for each character of {@code sql} outside strings and comments. */
  private static void scan(String sql, Visitor visitor) {
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      char next = i + 1 < n ? sql.charAt(i + 1) : 0;
      if (c == '-' && next == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && next == '*') {
        int depth = 1;
        i += 2;
        while (i < n && depth > 0) {
          if (sql.startsWith("/*", i)) {
            depth++;
            i += 2;
          } else if (sql.startsWith("*/", i)) {
            depth--;
            i += 2;
          } else {
            i++;
          }
        }
      } else if (c == '\'') {
        boolean escapes = i > 0 && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e')
            && (i < 2 || !Character.isLetterOrDigit(sql.charAt(i - 2)));
        i = endOfQuoted(sql, i, '\'', escapes);
      } else if (c == '"') {
        i = endOfQuoted(sql, i, '"', false);
      } else if (c == '$' && dollarTag(sql, i) != null) {
        String tag = dollarTag(sql, i);
        int end = sql.indexOf(tag, i + tag.length());
        i = end < 0 ? n : end + tag.length();
      } else {
        i = visitor.code(sql, i);
      }
    }
  }

  /** The index after the quoted text starting at {@code i}; doubled quotes stay inside. */
  private static int endOfQuoted(String sql, int i, char quote, boolean backslashEscapes) {
    int n = sql.length();
    int j = i + 1;
    while (j < n) {
      char c = sql.charAt(j);
      if (backslashEscapes && c == '\\') {
        j += 2;
      } else if (c == quote) {
        if (j + 1 < n && sql.charAt(j + 1) == quote) {
          j += 2;
        } else {
          return j + 1;
        }
      } else {
        j++;
      }
    }
    return n;
  }

  /**
   * The dollar-quote tag ({@code $$} or {@code $name$}) starting at {@code i}, or null if there
   * is none there ({@code $1} is a parameter; a {@code $} inside a word is part of it).
   */
  private static String dollarTag(String sql, int i) {
    if (i > 0 && (Character.isLetterOrDigit(sql.charAt(i - 1)) || sql.charAt(i - 1) == '_')) {
      return null;
    }
    int j = i + 1;
    while (j < sql.length() && (Character.isLetter(sql.charAt(j)) || sql.charAt(j) == '_'
        || (j > i + 1 && Character.isDigit(sql.charAt(j))))) {
      j++;
    }
    if (j < sql.length() && sql.charAt(j) == '$') {
      return sql.substring(i, j + 1);
    }
    return null;
  }

  /** {@code word} upper case, for comparing keywords. */
  static String upper(String word) {
    return word.toUpperCase(Locale.ROOT);
  }
}

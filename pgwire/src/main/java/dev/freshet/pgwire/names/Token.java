package dev.freshet.pgwire.names;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One token of a statement as {@link PgNames} reads it, with its text exactly as written (so
 * that the tokens read back as the statement): a word, a quoted name, a string literal, blank
 * text (white space, comments), or anything else (numbers, {@code $n}, operators).
 *
 * @param kind what the token is
 * @param text its text as written
 */
record Token(Kind kind, String text) {
  /** What a token is. */
  enum Kind {
    WORD, QUOTED, STRING, BLANK, OTHER
  }

  /** Words that are not names of functions before a parenthesis. */
  private static final Set<String> KEYWORDS = Set.of("IN", "SELECT", "FROM", "WHERE", "AND",
      "OR", "NOT", "ON", "AS", "VALUES", "EXISTS", "ANY", "ALL", "SOME", "THEN", "ELSE", "WHEN",
      "BY", "JOIN", "USING", "INTO", "HAVING", "CASE", "IS", "LIKE", "BETWEEN", "OVER");

  boolean isBlank() {
    return kind == Kind.BLANK;
  }

  boolean isName() {
    return kind == Kind.WORD || kind == Kind.QUOTED;
  }

  boolean isKeyword() {
    return kind == Kind.WORD && KEYWORDS.contains(text.toUpperCase(Locale.ROOT));
  }

  boolean is(String symbol) {
    return kind == Kind.OTHER && text.equals(symbol);
  }

  /** Whether this is the name {@code lower} (lower case), unquoted in any case or quoted. */
  boolean nameIs(String lower) {
    return kind == Kind.WORD && text.equalsIgnoreCase(lower)
        || kind == Kind.QUOTED && text.equals("\"" + lower + "\"");
  }

  /** The tokens of {@code sql}; an unterminated literal or comment runs to the end. */
  static List<Token> tokenize(String sql) {
    List<Token> tokens = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      int start = i;
      Kind kind;
      if (Character.isWhitespace(c)) {
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
        kind = Kind.BLANK;
      } else if (c == '-' && sql.startsWith("--", i)) {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
        kind = Kind.BLANK;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        kind = Kind.BLANK;
      } else if (c == '\'' || c == '"') {
        i = endOfQuoted(sql, i, c);
        kind = c == '\'' ? Kind.STRING : Kind.QUOTED;
      } else if (Character.isLetter(c) || c == '_') {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
            || sql.charAt(i) == '$')) {
          i++;
        }
        // E'...', X'...', N'...': a prefixed string is one literal.
        if (i - start == 1 && i < n && sql.charAt(i) == '\'') {
          i = endOfQuoted(sql, i, '\'');
          kind = Kind.STRING;
        } else {
          kind = Kind.WORD;
        }
      } else if (Character.isDigit(c) || c == '$' && i + 1 < n
          && Character.isDigit(sql.charAt(i + 1))) {
        i++;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
          i++;
        }
        kind = Kind.OTHER;
      } else if (sql.startsWith("::", i)) {
        i += 2;
        kind = Kind.OTHER;
      } else {
        i++;
        kind = Kind.OTHER;
      }
      tokens.add(new Token(kind, sql.substring(start, i)));
    }
    return tokens;
  }

  private static int endOfQuoted(String sql, int i, char quote) {
    int j = i + 1;
    while (j < sql.length()) {
      char c = sql.charAt(j);
      if (c == '\\' && quote == '\'' && i > 0 && (sql.charAt(i - 1) == 'E'
          || sql.charAt(i - 1) == 'e')) {
        j += 2;
        continue;
      }
      if (c == quote) {
        if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return sql.length();
  }

  /** Whether the non-blank token before {@code i} is the word {@code word}. */
  static boolean previousWord(List<Token> tokens, int i, String word) {
    int j = i - 1;
    while (j >= 0 && tokens.get(j).isBlank()) {
      j--;
    }
    return j >= 0 && tokens.get(j).kind() == Token.Kind.WORD
        && tokens.get(j).text().equalsIgnoreCase(word);
  }
}

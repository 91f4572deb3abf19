package dev.freshet.engine.security;

import java.util.ArrayList;
import java.util.List;

/**
 * The words of a SQL text, for a text the parser refuses: names (plain or in double quotes),
 * string literals, and single symbols; comments and blanks are skipped. Good enough to find
 * {@code key = 'value'} in a broken statement, not a parser.
 *
 * <pre>{@code
 * SqlWords.of("WITH ('password' = 'x'");   // WITH ( 'password' = 'x'
 * }</pre>
 */
final class SqlWords {
  /** What a word is. */
  enum Kind {
    NAME, QUOTED_NAME, STRING, SYMBOL
  }

  /**
   * One word.
   *
   * @param kind what it is
   * @param text its text as written, quotes included
   * @param start the offset of its first character
   * @param end the offset after its last character
   * @param closed false for a string or quoted name that runs to the end of the text unclosed
   */
  record Word(Kind kind, String text, int start, int end, boolean closed) {
    boolean isString() {
      return kind == Kind.STRING;
    }

    boolean isName() {
      return kind == Kind.NAME || kind == Kind.QUOTED_NAME;
    }

    /** Whether it is the unquoted word {@code word}, in any case. */
    boolean isWord(String word) {
      return kind == Kind.NAME && text.equalsIgnoreCase(word);
    }

    /** A string's value: without its quotes, a doubled quote single. */
    String stringValue() {
      return text.substring(1, text.length() - (closed ? 1 : 0)).replace("''", "'");
    }

    /** A name as written, a quoted one without its quotes. */
    String nameValue() {
      return kind == Kind.QUOTED_NAME
          ? text.substring(1, text.length() - (closed ? 1 : 0)).replace("\"\"", "\"") : text;
    }
  }

  private SqlWords() {
  }

  /** The words of {@code sql}; an unclosed string or quoted name runs to the end. */
  static List<Word> of(String sql) {
    List<Word> words = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int eol = nextLineBreak(sql, i);
        i = eol < 0 ? n : eol;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int close = sql.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 2;
      } else if (c == '\'' || c == '"') {
        int close = closing(sql, i, c);
        int end = close < 0 ? n : close + 1;
        words.add(new Word(c == '\'' ? Kind.STRING : Kind.QUOTED_NAME, sql.substring(i, end), i,
            end, close >= 0));
        i = end;
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
        int end = i + 1;
        while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
            || sql.charAt(end) == '$')) {
          end++;
        }
        words.add(new Word(Kind.NAME, sql.substring(i, end), i, end, true));
        i = end;
      } else {
        words.add(new Word(Kind.SYMBOL, String.valueOf(c), i, i + 1, true));
        i++;
      }
    }
    return words;
  }

  private static int nextLineBreak(String sql, int from) {
    for (int i = from; i < sql.length(); i++) {
      if (sql.charAt(i) == '\n' || sql.charAt(i) == '\r') {
        return i;
      }
    }
    return -1;
  }

  /**
   * The offset of the quote that closes the quoted word starting at {@code start}, or -1 if
   * none does; a doubled quote is inside the word.
   */
  private static int closing(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i;
      }
      i++;
    }
    return -1;
  }
}

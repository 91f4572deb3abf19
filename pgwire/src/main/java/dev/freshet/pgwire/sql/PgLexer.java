package dev.freshet.pgwire.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits PostgreSQL statement text into {@link PgToken}s, as PostgreSQL's scanner does, keeping
 * every token's text exactly as written. It never fails: an unterminated literal, quoted name or
 * comment runs to the end of the text, so that callers see what PostgreSQL would reject and the
 * tokens always read back as the input.
 *
 * <pre>{@code
 * List<PgToken> tokens = PgLexer.tokenize("SELECT E'a\\n' /* x /* y *\/ *\/ FROM t");
 * // WORD SELECT, WHITESPACE, ESCAPE_STRING E'a\n', WHITESPACE, COMMENT, WHITESPACE, WORD FROM, ...
 * }</pre>
 */
public final class PgLexer {
  /** The characters PostgreSQL builds operators from. */
  private static final String OPERATOR_CHARS = "+-*/<>=~!@#%^&|`?";

  private PgLexer() {
  }

  /** The tokens of {@code sql}; their texts concatenated are {@code sql}. */
  public static List<PgToken> tokenize(String sql) {
    List<PgToken> tokens = new ArrayList<>();
    int i = 0;
    while (i < sql.length()) {
      PgToken t = next(sql, i);
      tokens.add(t);
      i += t.text().length();
    }
    return tokens;
  }

  /** The token that starts at {@code i} (which is before the end of {@code sql}). */
  public static PgToken next(String sql, int i) {
    int n = sql.length();
    char c = sql.charAt(i);
    int end;
    PgToken.Kind kind;
    if (Character.isWhitespace(c)) {
      end = i + 1;
      while (end < n && Character.isWhitespace(sql.charAt(end))) {
        end++;
      }
      kind = PgToken.Kind.WHITESPACE;
    } else if (sql.startsWith("--", i)) {
      end = sql.indexOf('\n', i);
      end = end < 0 ? n : end;
      kind = PgToken.Kind.COMMENT;
    } else if (sql.startsWith("/*", i)) {
      end = endOfBlockComment(sql, i);
      kind = PgToken.Kind.COMMENT;
    } else if (c == '\'') {
      end = endOfQuoted(sql, i, '\'', false);
      kind = PgToken.Kind.STRING;
    } else if (c == '"') {
      end = endOfQuoted(sql, i, '"', false);
      kind = PgToken.Kind.QUOTED;
    } else if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\'') {
      end = endOfQuoted(sql, i + 1, '\'', true);
      kind = PgToken.Kind.ESCAPE_STRING;
    } else if ("BbXxNn".indexOf(c) >= 0 && i + 1 < n && sql.charAt(i + 1) == '\'') {
      end = endOfQuoted(sql, i + 1, '\'', false);
      kind = PgToken.Kind.STRING;
    } else if (Character.isLetter(c) || c == '_') {
      end = i + 1;
      while (end < n && isWordPart(sql.charAt(end))) {
        end++;
      }
      kind = PgToken.Kind.WORD;
    } else if (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
      end = i + 1;
      while (end < n && Character.isDigit(sql.charAt(end))) {
        end++;
      }
      kind = PgToken.Kind.PARAMETER;
    } else if (c == '$' && (end = endOfDollarQuoted(sql, i)) > 0) {
      kind = PgToken.Kind.DOLLAR_QUOTED;
    } else if (Character.isDigit(c)) {
      end = endOfNumber(sql, i);
      kind = PgToken.Kind.NUMBER;
    } else {
      end = endOfOperator(sql, i);
      kind = PgToken.Kind.OPERATOR;
    }
    return new PgToken(kind, sql.substring(i, end));
  }

  /** Whether {@code c} continues an unquoted name (or a dollar-quote tag). */
  public static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  /** The content of a dollar-quoted token {@code $tag$...$tag$}, or null if it is not one. */
  public static String dollarQuotedValue(String token) {
    int tag = token.indexOf('$', 1) + 1;
    if (tag <= 0 || token.length() < 2 * tag || !token.endsWith(token.substring(0, tag))) {
      return null;
    }
    return token.substring(tag, token.length() - tag);
  }

  private static int endOfQuoted(String sql, int i, char quote, boolean backslashes) {
    int j = i + 1;
    while (j < sql.length()) {
      char c = sql.charAt(j);
      if (backslashes && c == '\\') {
        j += 2;
      } else if (c == quote) {
        if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
          j += 2;
        } else {
          return j + 1;
        }
      } else {
        j++;
      }
    }
    return sql.length();
  }

  /** PostgreSQL nests block comments: {@code /* a /* b *}{@code / c *}{@code /} is one. */
  private static int endOfBlockComment(String sql, int i) {
    int depth = 0;
    int j = i;
    while (j < sql.length()) {
      if (sql.startsWith("/*", j)) {
        depth++;
        j += 2;
      } else if (sql.startsWith("*/", j)) {
        j += 2;
        if (--depth == 0) {
          return j;
        }
      } else {
        j++;
      }
    }
    return sql.length();
  }

  /** The end of {@code $tag$...$tag$} at {@code i}, or -1 if no dollar quote starts there. */
  private static int endOfDollarQuoted(String sql, int i) {
    int j = i + 1;
    if (j < sql.length() && Character.isDigit(sql.charAt(j))) {
      return -1;
    }
    while (j < sql.length() && sql.charAt(j) != '$') {
      char c = sql.charAt(j);
      if (!(Character.isLetterOrDigit(c) || c == '_')) {
        return -1;
      }
      j++;
    }
    if (j >= sql.length()) {
      return -1;
    }
    String tag = sql.substring(i, j + 1);
    int close = sql.indexOf(tag, j + 1);
    return close < 0 ? sql.length() : close + tag.length();
  }

  /** Digits, an optional fraction ({@code .} and digits) and an optional exponent. */
  private static int endOfNumber(String sql, int i) {
    int n = sql.length();
    int j = i;
    while (j < n && Character.isDigit(sql.charAt(j))) {
      j++;
    }
    if (j + 1 < n && sql.charAt(j) == '.' && Character.isDigit(sql.charAt(j + 1))) {
      j++;
      while (j < n && Character.isDigit(sql.charAt(j))) {
        j++;
      }
    }
    if (j < n && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
      int k = j + 1;
      if (k < n && (sql.charAt(k) == '+' || sql.charAt(k) == '-')) {
        k++;
      }
      if (k < n && Character.isDigit(sql.charAt(k))) {
        j = k;
        while (j < n && Character.isDigit(sql.charAt(j))) {
          j++;
        }
      }
    }
    return j;
  }

  /**
   * The longest operator at {@code i}, by PostgreSQL's rules: a run of operator characters that
   * stops before a comment start, and that loses trailing {@code +}/{@code -} unless it has one
   * of {@code ~!@#%^&|`?} (so {@code a=-1} is {@code =} then {@code -}); {@code ::} is one token;
   * anything else is one character.
   */
  private static int endOfOperator(String sql, int i) {
    if (sql.startsWith("::", i)) {
      return i + 2;
    }
    int j = i;
    while (j < sql.length() && OPERATOR_CHARS.indexOf(sql.charAt(j)) >= 0) {
      if (j > i && (sql.startsWith("--", j) || sql.startsWith("/*", j))) {
        break;
      }
      j++;
    }
    if (j == i) {
      return i + 1;
    }
    boolean special = false;
    for (int k = i; k < j; k++) {
      special |= "~!@#%^&|`?".indexOf(sql.charAt(k)) >= 0;
    }
    while (!special && j > i + 1 && (sql.charAt(j - 1) == '+' || sql.charAt(j - 1) == '-')) {
      j--;
    }
    return j;
  }
}

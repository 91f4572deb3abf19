package dev.freshet.pgwire.catalog;

import java.util.ArrayList;
import java.util.List;

/**
 * One token of a PostgreSQL statement, as {@link PgSqlTranslator} and
 * {@link CatalogStatements} read it: a word, a quoted name, a string literal (an {@code E'...'}
 * string is read into a plain one), a number, a {@code $n} parameter, an operator or
 * punctuation, or blank text (white space and comments), which is kept so that a statement reads
 * back as it was written.
 *
 * <pre>{@code
 * SqlToken.tokenize("SELECT $1::text");   // SELECT, " ", $1, ::, text
 * }</pre>
 *
 * @param kind what the token is
 * @param text its text as H2 reads it
 */
record SqlToken(Kind kind, String text) {
  /** What a token is. */
  enum Kind {
    WORD, QUOTED, STRING, NUMBER, PARAMETER, SYMBOL, BLANK
  }

  static SqlToken word(String text) {
    return new SqlToken(Kind.WORD, text);
  }

  static SqlToken symbol(String text) {
    return new SqlToken(Kind.SYMBOL, text);
  }

  static SqlToken blank(String text) {
    return new SqlToken(Kind.BLANK, text);
  }

  boolean isBlank() {
    return kind == Kind.BLANK;
  }

  /** The tokens of {@code sql}; an unterminated literal or comment runs to the end. */
  static List<SqlToken> tokenize(String sql) {
    List<SqlToken> tokens = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      int start = i;
      if (Character.isWhitespace(c)) {
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
        tokens.add(blank(sql.substring(start, i)));
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
        tokens.add(blank(sql.substring(start, i)));
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        tokens.add(blank(" "));
      } else if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\'') {
        i = escapeString(sql, i + 1, tokens);
      } else if (c == '\'') {
        i = endOfQuoted(sql, i, '\'');
        tokens.add(new SqlToken(Kind.STRING, sql.substring(start, i)));
      } else if (c == '"') {
        i = endOfQuoted(sql, i, '"');
        tokens.add(new SqlToken(Kind.QUOTED, sql.substring(start, i)));
      } else if (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
        i++;
        while (i < n && Character.isDigit(sql.charAt(i))) {
          i++;
        }
        tokens.add(new SqlToken(Kind.PARAMETER, sql.substring(start, i)));
      } else if (Character.isDigit(c)) {
        while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.'
            && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
          i++;
        }
        tokens.add(new SqlToken(Kind.NUMBER, sql.substring(start, i)));
      } else if (Character.isLetter(c) || c == '_') {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
            || sql.charAt(i) == '$')) {
          i++;
        }
        tokens.add(word(sql.substring(start, i)));
      } else {
        String op = operator(sql, i);
        i += op.length();
        tokens.add(symbol(op));
      }
    }
    return tokens;
  }

  private static final String[] OPERATORS = {"::", "!~*", "!~", "~*", "<>", "!=", "<=", ">=",
      "||", "~"};

  private static String operator(String sql, int i) {
    for (String op : OPERATORS) {
      if (sql.startsWith(op, i)) {
        return op;
      }
    }
    return sql.substring(i, i + 1);
  }

  private static int endOfQuoted(String sql, int i, char quote) {
    int j = i + 1;
    while (j < sql.length()) {
      if (sql.charAt(j) == quote) {
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

  /** Reads {@code E'...'} from the quote at {@code i}; returns the index after it. */
  private static int escapeString(String sql, int i, List<SqlToken> tokens) {
    StringBuilder value = new StringBuilder("'");
    int j = i + 1;
    while (j < sql.length()) {
      char c = sql.charAt(j);
      if (c == '\\' && j + 1 < sql.length()) {
        char e = sql.charAt(j + 1);
        value.append(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
        if (e == '\'') {
          value.append('\'');
        }
        j += 2;
      } else if (c == '\'') {
        if (j + 1 < sql.length() && sql.charAt(j + 1) == '\'') {
          value.append("''");
          j += 2;
          continue;
        }
        j++;
        break;
      } else {
        value.append(c);
        j++;
      }
    }
    tokens.add(new SqlToken(Kind.STRING, value.append('\'').toString()));
    return j;
  }
}

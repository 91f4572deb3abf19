package dev.freshet.pgwire.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A PostgreSQL {@code SET}, {@code RESET} or {@code SHOW} of a run-time setting, recognized in a
 * statement's text; Freshet's own {@code SET 'key' = 'value'} (a quoted key) is not one.
 *
 * <pre>{@code
 * SettingStatement.parse("SET extra_float_digits = 3");   // Set[extra_float_digits, 3]
 * SettingStatement.parse("SET TIME ZONE 'UTC'");          // Set[TimeZone, UTC]
 * SettingStatement.parse("SHOW STREAMS");                 // Show[streams]: the caller decides
 * SettingStatement.parse("SET 'state.partitions' = '4'"); // empty
 * }</pre>
 */
public sealed interface SettingStatement {
  /** {@code SET name TO value} ({@code value} null for {@code DEFAULT}). */
  record Set(String name, String value) implements SettingStatement {
  }

  /** {@code RESET name}, or {@code RESET ALL} with name {@code all}. */
  record Reset(String name) implements SettingStatement {
  }

  /** {@code SHOW name}, or {@code SHOW ALL} with name {@code all}. */
  record Show(String name) implements SettingStatement {
  }

  /**
   * A statement PostgreSQL accepts that changes nothing Freshet keeps ({@code SET TRANSACTION
   * ISOLATION LEVEL ...}, {@code SET SESSION CHARACTERISTICS ...}), answered with its tag.
   */
  record Ignored(String tag) implements SettingStatement {
  }

  /** The statement {@code sql} is, or empty if it is no PostgreSQL setting statement. */
  static Optional<SettingStatement> parse(String sql) {
    List<String> t = Tokens.of(sql);
    if (t == null || t.isEmpty()) {
      return Optional.empty();
    }
    String first = t.get(0).toUpperCase(Locale.ROOT);
    switch (first) {
    case "SET":
      return set(t.subList(1, t.size()));
    case "RESET":
      return t.size() == 2 && Tokens.isWord(t.get(1))
          ? Optional.of(new Reset(t.get(1).toLowerCase(Locale.ROOT))) : Optional.empty();
    case "SHOW":
      return show(t.subList(1, t.size()));
    default:
      return Optional.empty();
    }
  }

  private static Optional<SettingStatement> set(List<String> t) {
    if (!t.isEmpty() && (upper(t.get(0)).equals("SESSION") || upper(t.get(0)).equals("LOCAL"))) {
      if (t.size() > 1 && upper(t.get(0)).equals("SESSION")
          && upper(t.get(1)).equals("CHARACTERISTICS")) {
        return Optional.of(new Ignored("SET"));
      }
      t = t.subList(1, t.size());
    }
    if (t.isEmpty() || !Tokens.isWord(t.get(0))) {
      return Optional.empty();
    }
    String name = t.get(0);
    String upper = upper(name);
    if (upper.equals("TRANSACTION")) {
      return Optional.of(new Ignored("SET"));
    }
    List<String> rest;
    if (upper.equals("TIME") && t.size() > 2 && upper(t.get(1)).equals("ZONE")) {
      name = "TimeZone";
      rest = t.subList(2, t.size());
    } else if (upper.equals("NAMES") && t.size() > 1) {
      name = "client_encoding";
      rest = t.subList(1, t.size());
    } else if (upper.equals("SCHEMA") && t.size() > 1) {
      name = "search_path";
      rest = t.subList(1, t.size());
    } else {
      if (t.size() < 3 || !(upper(t.get(1)).equals("TO") || t.get(1).equals("="))) {
        return Optional.empty();
      }
      rest = t.subList(2, t.size());
    }
    if (rest.size() == 1 && upper(rest.get(0)).equals("DEFAULT")) {
      return Optional.of(new Set(name, null));
    }
    StringBuilder value = new StringBuilder();
    for (int i = 0; i < rest.size(); i++) {
      String token = rest.get(i);
      if (i % 2 == 1) {
        if (!token.equals(",")) {
          return Optional.empty();
        }
        value.append(", ");
      } else if (token.equals(",")) {
        return Optional.empty();
      } else {
        value.append(Tokens.unquote(token));
      }
    }
    if (rest.size() % 2 == 0) {
      return Optional.empty();
    }
    return Optional.of(new Set(name, value.toString()));
  }

  private static Optional<SettingStatement> show(List<String> t) {
    if (t.size() == 2 && upper(t.get(0)).equals("TIME") && upper(t.get(1)).equals("ZONE")) {
      return Optional.of(new Show("timezone"));
    }
    if (t.size() == 3 && upper(t.get(0)).equals("TRANSACTION")
        && upper(t.get(1)).equals("ISOLATION") && upper(t.get(2)).equals("LEVEL")) {
      return Optional.of(new Show("transaction_isolation"));
    }
    if (t.size() == 1 && Tokens.isWord(t.get(0))) {
      return Optional.of(new Show(t.get(0).toLowerCase(Locale.ROOT)));
    }
    return Optional.empty();
  }

  private static String upper(String token) {
    return token.toUpperCase(Locale.ROOT);
  }

  /** The tokens of a short statement: words, quoted strings, numbers, {@code =} and commas. */
  final class Tokens {
    private Tokens() {
    }

    /** The tokens of {@code sql} without a trailing semicolon, or null if it has others. */
    static List<String> of(String sql) {
      List<String> tokens = new ArrayList<>();
      int i = 0;
      int n = sql.length();
      while (i < n) {
        char c = sql.charAt(i);
        if (Character.isWhitespace(c)) {
          i++;
        } else if (c == ';') {
          // Only a trailing semicolon.
          for (int j = i + 1; j < n; j++) {
            if (!Character.isWhitespace(sql.charAt(j))) {
              return null;
            }
          }
          break;
        } else if (c == '\'' || c == '"') {
          int j = i + 1;
          while (true) {
            if (j >= n) {
              return null;
            }
            if (sql.charAt(j) == c) {
              if (j + 1 < n && sql.charAt(j + 1) == c) {
                j += 2;
                continue;
              }
              break;
            }
            j++;
          }
          tokens.add(sql.substring(i, j + 1));
          i = j + 1;
        } else if (c == '=' || c == ',') {
          tokens.add(String.valueOf(c));
          i++;
        } else if (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '+' || c == '.'
            || c == '$' || c == '/') {
          int j = i;
          while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || "_-+.$/:"
              .indexOf(sql.charAt(j)) >= 0)) {
            j++;
          }
          tokens.add(sql.substring(i, j));
          i = j;
        } else {
          return null;
        }
      }
      return tokens;
    }

    /** Whether {@code token} is an unquoted name. */
    static boolean isWord(String token) {
      return !token.isEmpty() && (Character.isLetter(token.charAt(0)) || token.charAt(0) == '_');
    }

    /** A quoted string's text, an identifier's as written, a number as written. */
    static String unquote(String token) {
      char q = token.charAt(0);
      if (q == '\'' || q == '"') {
        String inner = token.substring(1, token.length() - 1);
        String unescaped = inner.replace(String.valueOf(q) + q, String.valueOf(q));
        return q == '"' ? "\"" + unescaped + "\"" : unescaped;
      }
      return token;
    }
  }
}

package dev.freshet.jdbc;

import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A search pattern of {@link java.sql.DatabaseMetaData}, such as the table name pattern of
 * {@code getTables}: {@code %} matches any run of characters, {@code _} any one character, and
 * {@code \} (the search string escape) makes the next character stand for itself. Names are
 * compared as stored, case-sensitively.
 *
 * <pre>{@code
 * SearchPattern.of("SALES\\_%").matches("SALES_TOTAL");   // true
 * SearchPattern.of("SALES\\_%").matches("SALESXTOTAL");   // false: \_ is an underscore
 * SearchPattern.of(null).matches("ANYTHING");             // true: null does not filter
 * }</pre>
 */
final class SearchPattern {
  private static final SearchPattern ANY = new SearchPattern(null);

  private final @Nullable Pattern regex;

  private SearchPattern(@Nullable Pattern regex) {
    this.regex = regex;
  }

  /** The pattern {@code pattern}; null matches every name, as JDBC says. */
  static SearchPattern of(@Nullable String pattern) {
    if (pattern == null) {
      return ANY;
    }
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        literal.append(pattern.charAt(++i));
      } else if (c == '%' || c == '_') {
        flush(literal, regex);
        regex.append(c == '%' ? ".*" : ".");
      } else {
        // A lone escape at the end has nothing to escape: it stands for itself.
        literal.append(c);
      }
    }
    flush(literal, regex);
    return new SearchPattern(Pattern.compile(regex.toString(), Pattern.DOTALL));
  }

  private static void flush(StringBuilder literal, StringBuilder regex) {
    if (literal.length() > 0) {
      regex.append(Pattern.quote(literal.toString()));
      literal.setLength(0);
    }
  }

  /** Whether {@code name} matches; a null name matches only the pattern that matches all. */
  boolean matches(@Nullable String name) {
    if (regex == null) {
      return true;
    }
    return name != null && regex.matcher(name).matches();
  }
}

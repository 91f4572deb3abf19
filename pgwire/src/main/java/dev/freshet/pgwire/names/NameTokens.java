package dev.freshet.pgwire.names;

import dev.freshet.pgwire.sql.PgToken;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** What {@link PgNames} asks of the tokens around a name, beyond {@link PgToken}'s helpers. */
final class NameTokens {
  /** Words that are not names of functions before a parenthesis. */
  private static final Set<String> KEYWORDS = Set.of("IN", "SELECT", "FROM", "WHERE", "AND",
      "OR", "NOT", "ON", "AS", "VALUES", "EXISTS", "ANY", "ALL", "SOME", "THEN", "ELSE", "WHEN",
      "BY", "JOIN", "USING", "INTO", "HAVING", "CASE", "IS", "LIKE", "BETWEEN", "OVER");

  private NameTokens() {
  }

  static boolean isKeyword(PgToken t) {
    return t.kind() == PgToken.Kind.WORD && KEYWORDS.contains(t.text().toUpperCase(Locale.ROOT));
  }

  /** Whether the non-blank token before {@code i} is the word {@code word}. */
  static boolean previousWord(List<PgToken> tokens, int i, String word) {
    int j = i - 1;
    while (j >= 0 && tokens.get(j).isBlank()) {
      j--;
    }
    return j >= 0 && tokens.get(j).isWord(word);
  }

  /** Whether {@code t} is a number, a {@code $n} parameter or an operator. */
  static boolean isOther(PgToken t) {
    return t.kind() == PgToken.Kind.NUMBER || t.kind() == PgToken.Kind.PARAMETER
        || t.kind() == PgToken.Kind.OPERATOR;
  }
}

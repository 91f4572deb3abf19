package dev.freshet.pgwire.names;

import dev.freshet.pgwire.sql.PgLexer;
import dev.freshet.pgwire.sql.PgToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rewrites a Freshet statement as a PostgreSQL client writes it into Freshet's SQL: schema
 * {@code public} (and database {@code freshet}) qualifiers dropped, quoted lower-case names
 * matched to Freshet's upper-case ones, and {@code ::} casts turned into {@code CAST}.
 *
 * <pre>{@code
 * PgNames.toFreshet("SELECT \"k\", n::int8 FROM \"public\".\"v\"");
 * // SELECT "K", CAST(n AS BIGINT) FROM "V"
 * PgNames.toFreshet("SELECT * FROM freshet.public.v");   // SELECT * FROM v
 * }</pre>
 *
 * <p>Why a token-level translation and not Calcite's Babel parser: Freshet's statements are
 * parsed by its own grammar ({@code CREATE STREAM}, {@code SELECT STREAM}, {@code EMIT},
 * options), which Babel would not know, and Babel is not among the build's dependencies. The
 * differences PostgreSQL's clients bring to Freshet's statements are few and lexical (schema
 * qualifiers, quoting, casts), so a pass over the tokens that leaves everything else exactly as
 * written keeps Freshet's own SQL working unchanged; the catalog's queries, whose syntax is
 * PostgreSQL's through and through, have their own translator ({@code PgSqlTranslator}).
 *
 * <p>Unquoted names already match: Freshet folds them to upper case as it stores its names,
 * PostgreSQL to lower case as it shows them, and the endpoint shows Freshet's upper-case names
 * in lower case. A quoted name in lower case ({@code "v"}, as Metabase and SQLAlchemy quote
 * every name) is read as Freshet's upper-case {@code "V"}; a quoted name with an upper-case
 * letter is kept as written. Applying it twice changes nothing more.
 */
public final class PgNames {
  private PgNames() {
  }

  /** {@code sql} as Freshet's parser reads it; unchanged if nothing in it is PostgreSQL's. */
  public static String toFreshet(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (sql.indexOf('"') < 0 && sql.indexOf("::") < 0 && !lower.contains("public")
        && !lower.contains("as") && !lower.contains("group") && !lower.contains("(")) {
      return sql;
    }
    List<PgToken> tokens = PgLexer.tokenize(sql);
    tokens = names(tokens);
    tokens = aliases(tokens);
    tokens = SelectLists.groupByOrdinals(tokens);
    tokens = SelectLists.callLabels(tokens);
    tokens = Casts.casts(tokens);
    StringBuilder out = new StringBuilder(sql.length());
    for (PgToken t : tokens) {
      out.append(t.text());
    }
    return out.toString();
  }

  /** Drops {@code freshet.public.} and {@code public.} qualifiers; matches quoted names. */
  private static List<PgToken> names(List<PgToken> tokens) {
    List<PgToken> out = new ArrayList<>(tokens.size());
    for (int i = 0; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
      if (!t.isName() || (i > 0 && tokens.get(i - 1).is("."))) {
        out.add(t.isName() ? quoted(t) : t);
        continue;
      }
      // The start of a name chain: a, a.b, a.b.c.
      int parts = 1;
      while (i + 2 * parts < tokens.size() && tokens.get(i + 2 * parts - 1).is(".")
          && tokens.get(i + 2 * parts).isName()) {
        parts++;
      }
      int skip = 0;
      if (parts >= 3 && t.nameIs("freshet") && tokens.get(i + 2).nameIs("public")) {
        skip = 2;
      } else if (parts >= 2 && t.nameIs("public")) {
        skip = 1;
      }
      if (skip == 0) {
        out.add(quoted(t));
      } else {
        i += 2 * skip;
        out.add(quoted(tokens.get(i)));
      }
    }
    return out;
  }

  /** Words after AS that start a query or a type, not an alias. */
  private static final java.util.Set<String> NOT_ALIASES = java.util.Set.of("SELECT", "WITH",
      "VALUES", "TABLE", "NOT", "IDENTITY");

  /**
   * An unquoted alias after {@code AS} quoted in upper case ({@code AS one} as
   * {@code AS "ONE"}): the same name to Freshet, which folds unquoted names to upper case, but
   * one its parser takes even where the word is one of its keywords, as PostgreSQL takes
   * {@code SELECT 1 AS one}. The AS of a {@code CAST}, before a query, or before a call is
   * left alone.
   */
  private static List<PgToken> aliases(List<PgToken> tokens) {
    List<PgToken> out = new ArrayList<>(tokens.size());
    java.util.ArrayDeque<Boolean> casts = new java.util.ArrayDeque<>();
    for (int i = 0; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
      out.add(t);
      if (t.is("(")) {
        casts.push(i > 0 && NameTokens.previousWord(tokens, i, "cast"));
      } else if (t.is(")") && !casts.isEmpty()) {
        casts.pop();
      } else if (t.kind() == PgToken.Kind.WORD && t.text().equalsIgnoreCase("AS")
          && !(casts.isEmpty() ? false : casts.peek())) {
        int j = i + 1;
        while (j < tokens.size() && tokens.get(j).isBlank()) {
          j++;
        }
        if (j >= tokens.size() || tokens.get(j).kind() != PgToken.Kind.WORD
            || NOT_ALIASES.contains(tokens.get(j).text().toUpperCase(Locale.ROOT))) {
          continue;
        }
        int k = j + 1;
        while (k < tokens.size() && tokens.get(k).isBlank()) {
          k++;
        }
        if (k < tokens.size() && (tokens.get(k).is("(") || tokens.get(k).is("."))) {
          continue;
        }
        for (int b = i + 1; b < j; b++) {
          out.add(tokens.get(b));
        }
        out.add(new PgToken(PgToken.Kind.QUOTED,
            "\"" + tokens.get(j).text().toUpperCase(Locale.ROOT) + "\""));
        i = j;
      }
    }
    return out;
  }

  /** A quoted name all in lower case as Freshet's upper-case name; any other as it is. */
  private static PgToken quoted(PgToken t) {
    if (t.kind() != PgToken.Kind.QUOTED) {
      return t;
    }
    String name = t.text().substring(1, t.text().length() - 1);
    if (!name.isEmpty() && name.equals(name.toLowerCase(Locale.ROOT))
        && !name.equals(name.toUpperCase(Locale.ROOT))) {
      return new PgToken(PgToken.Kind.QUOTED, "\"" + name.toUpperCase(Locale.ROOT) + "\"");
    }
    return t;
  }

}

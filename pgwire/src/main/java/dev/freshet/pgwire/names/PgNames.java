package dev.freshet.pgwire.names;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
  /** PostgreSQL's type names in casts, as Freshet's SQL names them. */
  private static final Map<String, String> TYPES = Map.ofEntries(
      Map.entry("int", "INTEGER"), Map.entry("int4", "INTEGER"), Map.entry("integer", "INTEGER"),
      Map.entry("int8", "BIGINT"), Map.entry("bigint", "BIGINT"), Map.entry("int2", "SMALLINT"),
      Map.entry("smallint", "SMALLINT"), Map.entry("float8", "DOUBLE"),
      Map.entry("double precision", "DOUBLE"), Map.entry("float4", "REAL"),
      Map.entry("real", "REAL"), Map.entry("text", "VARCHAR"), Map.entry("varchar", "VARCHAR"),
      Map.entry("character varying", "VARCHAR"), Map.entry("name", "VARCHAR"),
      Map.entry("bpchar", "CHAR"), Map.entry("bool", "BOOLEAN"),
      Map.entry("boolean", "BOOLEAN"), Map.entry("numeric", "DECIMAL"),
      Map.entry("decimal", "DECIMAL"), Map.entry("date", "DATE"),
      Map.entry("timestamp", "TIMESTAMP"),
      Map.entry("timestamp without time zone", "TIMESTAMP"),
      Map.entry("timestamptz", "TIMESTAMP WITH LOCAL TIME ZONE"),
      Map.entry("timestamp with time zone", "TIMESTAMP WITH LOCAL TIME ZONE"),
      Map.entry("time", "TIME"), Map.entry("bytea", "VARBINARY"));

  private PgNames() {
  }

  /** {@code sql} as Freshet's parser reads it; unchanged if nothing in it is PostgreSQL's. */
  public static String toFreshet(String sql) {
    String lower = sql.toLowerCase(Locale.ROOT);
    if (sql.indexOf('"') < 0 && sql.indexOf("::") < 0 && !lower.contains("public")
        && !lower.contains("as") && !lower.contains("group") && !lower.contains("(")) {
      return sql;
    }
    List<Token> tokens = Token.tokenize(sql);
    tokens = names(tokens);
    tokens = aliases(tokens);
    tokens = groupByOrdinals(tokens);
    tokens = callLabels(tokens);
    tokens = casts(tokens);
    StringBuilder out = new StringBuilder(sql.length());
    for (Token t : tokens) {
      out.append(t.text());
    }
    return out.toString();
  }

  /** Drops {@code freshet.public.} and {@code public.} qualifiers; matches quoted names. */
  private static List<Token> names(List<Token> tokens) {
    List<Token> out = new ArrayList<>(tokens.size());
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
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
  private static List<Token> aliases(List<Token> tokens) {
    List<Token> out = new ArrayList<>(tokens.size());
    java.util.ArrayDeque<Boolean> casts = new java.util.ArrayDeque<>();
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      out.add(t);
      if (t.is("(")) {
        casts.push(i > 0 && previousWord(tokens, i, "cast"));
      } else if (t.is(")") && !casts.isEmpty()) {
        casts.pop();
      } else if (t.kind() == Token.Kind.WORD && t.text().equalsIgnoreCase("AS")
          && !(casts.isEmpty() ? false : casts.peek())) {
        int j = i + 1;
        while (j < tokens.size() && tokens.get(j).isBlank()) {
          j++;
        }
        if (j >= tokens.size() || tokens.get(j).kind() != Token.Kind.WORD
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
        out.add(new Token(Token.Kind.QUOTED,
            "\"" + tokens.get(j).text().toUpperCase(Locale.ROOT) + "\""));
        i = j;
      }
    }
    return out;
  }

  private static boolean previousWord(List<Token> tokens, int i, String word) {
    int j = i - 1;
    while (j >= 0 && tokens.get(j).isBlank()) {
      j--;
    }
    return j >= 0 && tokens.get(j).kind() == Token.Kind.WORD
        && tokens.get(j).text().equalsIgnoreCase(word);
  }

  /**
   * In a query (a statement that starts with SELECT), an unnamed select item that is a function
   * call labelled after the function, as PostgreSQL labels it ({@code count(*)} is
   * {@code count}; Freshet's planner would say {@code EXPR$1}). Statements that create objects
   * keep Freshet's column names.
   */
  private static List<Token> callLabels(List<Token> tokens) {
    int first = 0;
    while (first < tokens.size() && (tokens.get(first).isBlank()
        || tokens.get(first).is("("))) {
      first++;
    }
    if (first >= tokens.size() || tokens.get(first).kind() != Token.Kind.WORD
        || !tokens.get(first).text().equalsIgnoreCase("SELECT")) {
      return tokens;
    }
    List<Token> out = new ArrayList<>(tokens.size() + 4);
    int depth = 0;
    int itemStart = -1;
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      boolean selectList = itemStart >= 0 && depth == 0;
      if (selectList && (t.is(",") || t.kind() == Token.Kind.WORD
          && (t.text().equalsIgnoreCase("FROM") || t.text().equalsIgnoreCase("WHERE")))) {
        labelCall(out, itemStart);
        if (t.is(",")) {
          out.add(t);
          itemStart = out.size();
        } else {
          itemStart = -1;
          out.add(t);
        }
        continue;
      }
      if (t.is("(")) {
        depth++;
      } else if (t.is(")")) {
        depth--;
      }
      out.add(t);
      if (i == first) {
        itemStart = out.size();
      } else if (itemStart == out.size() - 1 && t.kind() == Token.Kind.WORD
          && (t.text().equalsIgnoreCase("STREAM") || t.text().equalsIgnoreCase("DISTINCT")
          || t.text().equalsIgnoreCase("ALL"))) {
        itemStart = out.size();
      }
    }
    if (itemStart >= 0 && depth == 0) {
      labelCall(out, itemStart);
    }
    return out;
  }

  /** Appends {@code AS "F"} when the tokens from {@code start} are one call f(...). */
  private static void labelCall(List<Token> out, int start) {
    int a = start;
    while (a < out.size() && out.get(a).isBlank()) {
      a++;
    }
    int b = out.size() - 1;
    while (b > a && out.get(b).isBlank()) {
      b--;
    }
    if (a + 1 >= b || out.get(a).kind() != Token.Kind.WORD || out.get(a).isKeyword()
        || !out.get(a + 1).is("(") || !out.get(b).is(")")) {
      return;
    }
    int depth = 0;
    for (int i = a + 1; i <= b; i++) {
      if (out.get(i).is("(")) {
        depth++;
      } else if (out.get(i).is(")")) {
        depth--;
        if (depth == 0 && i != b) {
          return;   // f(x) + 1: an expression, not one call
        }
      }
    }
    String name = out.get(a).text().toUpperCase(Locale.ROOT);
    if (name.equals("CAST") || name.equals("ROW") || name.equals("CASE")) {
      return;
    }
    out.add(b + 1, new Token(Token.Kind.OTHER, " AS \"" + name + "\""));
  }

  /** Words that end a GROUP BY list. */
  private static final java.util.Set<String> GROUP_BY_ENDS = java.util.Set.of("HAVING", "ORDER",
      "LIMIT", "OFFSET", "WINDOW", "EMIT", "UNION", "EXCEPT", "INTERSECT", "FETCH", "WITH");

  /**
   * {@code GROUP BY 1} as {@code GROUP BY (<the first select item>)}, as PostgreSQL reads an
   * ordinal (Grafana's {@code $__timeGroupAlias} writes one); Freshet's planner would group by
   * the constant. Only items written without an alias or with {@code AS alias} are taken.
   */
  private static List<Token> groupByOrdinals(List<Token> tokens) {
    List<Token> out = new ArrayList<>(tokens);
    for (int i = 0; i < out.size(); i++) {
      if (!(out.get(i).kind() == Token.Kind.WORD && out.get(i).text().equalsIgnoreCase("BY")
          && previousWord(out, i, "group"))) {
        continue;
      }
      int depth = 0;
      int select = -1;
      for (int j = i - 1; j >= 0; j--) {
        if (out.get(j).is(")")) {
          depth++;
        } else if (out.get(j).is("(")) {
          if (depth == 0) {
            break;
          }
          depth--;
        } else if (depth == 0 && out.get(j).kind() == Token.Kind.WORD
            && out.get(j).text().equalsIgnoreCase("SELECT")) {
          select = j;
          break;
        }
      }
      if (select < 0) {
        continue;
      }
      List<List<Token>> items = selectItems(out, select + 1);
      int j = i + 1;
      depth = 0;
      while (j < out.size()) {
        Token t = out.get(j);
        if (t.is("(")) {
          depth++;
        } else if (t.is(")")) {
          if (depth == 0) {
            break;
          }
          depth--;
        } else if (depth == 0 && (t.is(";") || t.kind() == Token.Kind.WORD
            && GROUP_BY_ENDS.contains(t.text().toUpperCase(Locale.ROOT)))) {
          break;
        } else if (depth == 0 && t.kind() == Token.Kind.OTHER
            && t.text().chars().allMatch(Character::isDigit)) {
          int n = Integer.parseInt(t.text());
          boolean alone = (neighbourIs(out, j, -1, ",") || neighbourIs(out, j, -1, "BY"))
              && (neighbourIs(out, j, 1, ",") || neighbourEnds(out, j));
          if (alone && n >= 1 && n <= items.size() && items.get(n - 1) != null) {
            StringBuilder expr = new StringBuilder("(");
            items.get(n - 1).forEach(x -> expr.append(x.text()));
            out.set(j, new Token(Token.Kind.OTHER, expr.append(')').toString()));
          }
        }
        j++;
      }
    }
    return out;
  }

  /** The items of the select list from {@code i}, each without its alias; null if unknown. */
  private static List<List<Token>> selectItems(List<Token> tokens, int i) {
    List<List<Token>> items = new ArrayList<>();
    List<Token> item = new ArrayList<>();
    int depth = 0;
    for (; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (depth == 0 && t.kind() == Token.Kind.WORD
          && (t.text().equalsIgnoreCase("FROM") || t.text().equalsIgnoreCase("WHERE"))) {
        break;
      }
      if (t.is("(")) {
        depth++;
      } else if (t.is(")")) {
        if (depth == 0) {
          break;
        }
        depth--;
      }
      if (depth == 0 && t.is(",")) {
        items.add(withoutAlias(item));
        item = new ArrayList<>();
      } else {
        item.add(t);
      }
    }
    items.add(withoutAlias(item));
    return items;
  }

  private static List<Token> withoutAlias(List<Token> item) {
    int depth = 0;
    List<Token> expr = new ArrayList<>();
    for (Token t : item) {
      if (t.is("(")) {
        depth++;
      } else if (t.is(")")) {
        depth--;
      } else if (depth == 0 && t.kind() == Token.Kind.WORD && t.text().equalsIgnoreCase("AS")) {
        break;
      }
      expr.add(t);
    }
    while (!expr.isEmpty() && expr.get(0).isBlank()) {
      expr.remove(0);
    }
    while (!expr.isEmpty() && expr.get(expr.size() - 1).isBlank()) {
      expr.remove(expr.size() - 1);
    }
    if (expr.isEmpty() || (expr.size() == 1 && expr.get(0).is("*"))) {
      return null;
    }
    // expr alias, without AS: not taken.
    Token last = expr.get(expr.size() - 1);
    if (expr.size() > 2 && last.isName() && expr.get(expr.size() - 2).isBlank()) {
      Token before = expr.get(expr.size() - 3);
      if (before.isName() || before.is(")") || before.kind() == Token.Kind.STRING) {
        return null;
      }
    }
    return expr;
  }

  private static boolean neighbourIs(List<Token> tokens, int i, int step, String text) {
    for (int j = i + step; j >= 0 && j < tokens.size(); j += step) {
      if (!tokens.get(j).isBlank()) {
        return tokens.get(j).text().equalsIgnoreCase(text);
      }
    }
    return false;
  }

  private static boolean neighbourEnds(List<Token> tokens, int i) {
    for (int j = i + 1; j < tokens.size(); j++) {
      Token t = tokens.get(j);
      if (!t.isBlank()) {
        return t.is(")") || t.is(";") || t.kind() == Token.Kind.WORD
            && GROUP_BY_ENDS.contains(t.text().toUpperCase(Locale.ROOT));
      }
    }
    return true;
  }

  /** A quoted name all in lower case as Freshet's upper-case name; any other as it is. */
  private static Token quoted(Token t) {
    if (t.kind() != Token.Kind.QUOTED) {
      return t;
    }
    String name = t.text().substring(1, t.text().length() - 1);
    if (!name.isEmpty() && name.equals(name.toLowerCase(Locale.ROOT))
        && !name.equals(name.toUpperCase(Locale.ROOT))) {
      return new Token(Token.Kind.QUOTED, "\"" + name.toUpperCase(Locale.ROOT) + "\"");
    }
    return t;
  }

  /** {@code operand::type} as {@code CAST(operand AS type)}. */
  private static List<Token> casts(List<Token> tokens) {
    List<Token> out = new ArrayList<>(tokens.size());
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (!t.is("::")) {
        out.add(t);
        continue;
      }
      int start = operandStart(out);
      int typeEnd = typeEnd(tokens, i + 1);
      if (start < 0 || typeEnd < 0) {
        out.add(t);
        continue;
      }
      List<Token> operand = new ArrayList<>(out.subList(start, out.size()));
      while (!operand.isEmpty() && operand.get(operand.size() - 1).isBlank()) {
        operand.remove(operand.size() - 1);
      }
      StringBuilder type = new StringBuilder();
      for (int j = i + 1; j < typeEnd; j++) {
        type.append(tokens.get(j).text());
      }
      boolean wholeItem = selectItemStart(out, start) && selectItemEnd(tokens, typeEnd);
      out.subList(start, out.size()).clear();
      StringBuilder cast = new StringBuilder("CAST(");
      operand.forEach(o -> cast.append(o.text()));
      cast.append(" AS ").append(type(type.toString().strip())).append(')');
      if (wholeItem) {
        // PostgreSQL labels n::int4 as n, f(x)::text as f and '1'::int4 as int4.
        cast.append(" AS \"").append(label(operand, type.toString().strip())).append('"');
      }
      out.add(new Token(Token.Kind.OTHER, cast.toString()));
      i = typeEnd - 1;
    }
    return out;
  }

  /** Whether the operand at {@code start} begins an item of a select list. */
  private static boolean selectItemStart(List<Token> out, int start) {
    int i = start - 1;
    while (i >= 0 && out.get(i).isBlank()) {
      i--;
    }
    if (i < 0) {
      return false;
    }
    if (out.get(i).kind() == Token.Kind.WORD && (out.get(i).text().equalsIgnoreCase("SELECT")
        || out.get(i).text().equalsIgnoreCase("DISTINCT"))) {
      return true;
    }
    if (!out.get(i).is(",")) {
      return false;
    }
    // A comma of the select list: the nearest SELECT before it at the same depth.
    int depth = 0;
    for (int j = i - 1; j >= 0; j--) {
      Token t = out.get(j);
      if (t.is(")")) {
        depth++;
      } else if (t.is("(")) {
        if (depth == 0) {
          return false;
        }
        depth--;
      } else if (depth == 0 && t.kind() == Token.Kind.WORD) {
        String w = t.text().toUpperCase(Locale.ROOT);
        if (w.equals("SELECT")) {
          return true;
        }
        if (w.equals("FROM") || w.equals("WHERE") || w.equals("BY") || w.equals("VALUES")) {
          return false;
        }
      }
    }
    return false;
  }

  /** Whether the select item ends at {@code i} (a comma, FROM, the end). */
  private static boolean selectItemEnd(List<Token> tokens, int i) {
    while (i < tokens.size() && tokens.get(i).isBlank()) {
      i++;
    }
    return i >= tokens.size() || tokens.get(i).is(",") || tokens.get(i).is(";")
        || tokens.get(i).kind() == Token.Kind.WORD
        && tokens.get(i).text().equalsIgnoreCase("FROM");
  }

  /** PostgreSQL's label of {@code operand::type}: the column or function, else the type. */
  private static String label(List<Token> operand, String type) {
    Token first = operand.get(0);
    Token last = operand.get(operand.size() - 1);
    if (first.isName()) {
      // The column of a.b.c, or the function of f(...).
      Token name = last.isName() ? last : first;
      for (Token t : operand) {
        if (t.is("(")) {
          break;
        }
        if (t.isName()) {
          name = t;
        }
      }
      String text = name.text();
      return (name.kind() == Token.Kind.QUOTED ? text.substring(1, text.length() - 1)
          : text.toUpperCase(Locale.ROOT)).replace("\"", "\"\"");
    }
    int paren = type.indexOf('(');
    String base = (paren < 0 ? type : type.substring(0, paren)).strip()
        .replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    String pg = switch (base) {
      case "int", "integer" -> "int4";
      case "bigint" -> "int8";
      case "smallint" -> "int2";
      case "double precision" -> "float8";
      case "real" -> "float4";
      case "boolean" -> "bool";
      case "character varying" -> "varchar";
      case "decimal" -> "numeric";
      case "timestamp with time zone" -> "timestamptz";
      case "timestamp without time zone" -> "timestamp";
      default -> base;
    };
    // Upper case: Freshet's labels are, and the endpoint shows them in lower case.
    return pg.toUpperCase(Locale.ROOT);
  }

  /** Where the operand of a {@code ::} at the end of {@code out} starts; -1 if unknown. */
  private static int operandStart(List<Token> out) {
    int i = out.size() - 1;
    while (i >= 0 && out.get(i).isBlank()) {
      i--;
    }
    if (i < 0) {
      return -1;
    }
    Token last = out.get(i);
    if (last.is(")")) {
      int depth = 0;
      for (; i >= 0; i--) {
        if (out.get(i).is(")")) {
          depth++;
        } else if (out.get(i).is("(")) {
          depth--;
          if (depth == 0) {
            break;
          }
        }
      }
      if (i < 0) {
        return -1;
      }
      // A function call: its name (a.b(...)) goes with it.
      if (i > 0 && out.get(i - 1).isName() && !out.get(i - 1).isKeyword()) {
        i--;
        while (i >= 2 && out.get(i - 1).is(".") && out.get(i - 2).isName()) {
          i -= 2;
        }
      }
      return i;
    }
    if (last.kind() == Token.Kind.STRING || last.kind() == Token.Kind.OTHER
        && (last.text().startsWith("$") || last.text().equals("?")
        || Character.isDigit(last.text().charAt(0)) || last.text().startsWith("CAST("))) {
      return i;
    }
    if (last.isName()) {
      while (i >= 2 && out.get(i - 1).is(".") && out.get(i - 2).isName()) {
        i -= 2;
      }
      return i;
    }
    return -1;
  }

  /** The end (exclusive) of the type name from {@code i}; -1 if none is there. */
  private static int typeEnd(List<Token> tokens, int i) {
    int j = i;
    while (j < tokens.size() && tokens.get(j).isBlank()) {
      j++;
    }
    if (j >= tokens.size() || !tokens.get(j).isName()) {
      return -1;
    }
    j++;
    // Several words: double precision, character varying, timestamp with time zone.
    String first = tokens.get(j - 1).text().toLowerCase(Locale.ROOT);
    int words = switch (first) {
      case "double", "character" -> 1;
      case "timestamp", "time" -> followedBy(tokens, j, "with") || followedBy(tokens, j,
          "without") ? 3 : 0;
      default -> 0;
    };
    for (int w = 0; w < words; w++) {
      int k = j;
      while (k < tokens.size() && tokens.get(k).isBlank()) {
        k++;
      }
      if (k >= tokens.size() || !tokens.get(k).isName()) {
        break;
      }
      j = k + 1;
    }
    // (n) or (p, s), then [].
    int k = j;
    while (k < tokens.size() && tokens.get(k).isBlank()) {
      k++;
    }
    if (k < tokens.size() && tokens.get(k).is("(")) {
      while (k < tokens.size() && !tokens.get(k).is(")")) {
        k++;
      }
      j = Math.min(k + 1, tokens.size());
    }
    return j;
  }

  private static boolean followedBy(List<Token> tokens, int i, String word) {
    while (i < tokens.size() && tokens.get(i).isBlank()) {
      i++;
    }
    return i < tokens.size() && tokens.get(i).nameIs(word);
  }

  /** Freshet's name of PostgreSQL type {@code type} ({@code varchar(10)} stays varchar(10)). */
  private static String type(String type) {
    int paren = type.indexOf('(');
    String base = (paren < 0 ? type : type.substring(0, paren)).strip()
        .replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    String args = paren < 0 ? "" : type.substring(paren);
    String mapped = TYPES.get(base);
    return (mapped == null ? base.toUpperCase(Locale.ROOT) : mapped) + args;
  }
}

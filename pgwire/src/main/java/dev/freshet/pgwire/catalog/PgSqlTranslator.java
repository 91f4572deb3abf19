package dev.freshet.pgwire.catalog;

import dev.freshet.pgwire.sql.PgLexer;
import dev.freshet.pgwire.sql.PgToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Translation of the catalog statements PostgreSQL clients send into SQL that the catalog's H2
 * database runs. H2 parses most of what psql, pgjdbc and SQLAlchemy send as it is; this step
 * rewrites, on a token stream (so that string literals and quoted names are never touched), only
 * what H2 cannot take:
 *
 * <ul>
 *   <li>Unnamed columns get PostgreSQL's names ({@link PgColumnLabels}).
 *   <li>{@code $1} parameters become H2's {@code ?1} (pgjdbc's extended queries).
 *   <li>{@code E'...'} escape strings become plain literals (psql's {@code \l}).
 *   <li>{@code OPERATOR(pg_catalog.~)}, {@code ~}, {@code !~}, {@code ~*}, {@code !~*} become H2's
 *       {@code REGEXP} and {@code NOT REGEXP} ({@code ~*} with a {@code (?i)} pattern): psql's
 *       name patterns and pgjdbc's schema filters. Both search for the pattern in the value.
 *   <li>{@code COLLATE pg_catalog.default} and {@code COLLATE "C"} are dropped: H2 compares as
 *       PostgreSQL's default collation does for these names.
 *   <li>{@code x::regclass}, {@code ::regtype}, {@code ::regproc}, {@code ::regnamespace} and
 *       {@code ::regrole} become functions: from a string literal they give the object's OID
 *       (as {@code 'pg_class'::regclass} in pgjdbc), from an OID its name (as psql's
 *       {@code c.oid::pg_catalog.regclass}); H2 has no OID alias types. Casts to PostgreSQL's own
 *       type names ({@code text}, {@code name}, {@code oid}, {@code "char"}, {@code int2[]},
 *       {@code int2vector}, ...) become H2's types.
 *   <li>{@code information_schema.x} reads the catalog's {@code pg_information_schema}, because
 *       H2's own {@code INFORMATION_SCHEMA} takes that name and must not show through.
 *   <li>{@code current_catalog}, {@code current_user}, {@code session_user} and
 *       {@code current_role} become functions that answer for the Freshet connection, not for
 *       the H2 session.
 *   <li>{@code pg_catalog.f(...)} of a function H2 has built in ({@code generate_series},
 *       {@code array_upper}, ...) loses its qualifier; the catalog's own functions keep it.
 *   <li>{@code '{0}'}, PostgreSQL's array literal, becomes {@code ARRAY[0]} (psql's
 *       {@code polroles = '{0}'}): H2 does not compare an array with a string.
 *   <li>Subscripts of PostgreSQL's zero-based vectors ({@code indkey}, {@code indoption},
 *       {@code proargtypes}, ...) and pgjdbc's {@code indoption[n - 1] & 1} read through
 *       {@code freshet_vector_element}: H2's arrays start at 1 and fail out of range.
 *   <li>The set-returning array expansions of select lists ({@code unnest(ix.indkey)} with
 *       {@code generate_subscripts} in SQLAlchemy, {@code information_schema._pg_expandarray}
 *       in pgjdbc's getPrimaryKeys and getIndexInfo) become a join with a table that holds one
 *       row per key column ({@code freshet_indkey}, {@code freshet_conkey}): H2 has no
 *       set-returning functions in a select list and no lateral {@code UNNEST}.
 *   <li>{@code generate_series(a, b) s} as a table with no column list gets one ({@code s(s)}),
 *       so that {@code s} also names its value, as in PostgreSQL (psql's {@code \d name}).
 *   <li>{@code CAST(x AS regclass)} (Metabase) reads as {@code x::regclass}; a scalar function
 *       in a FROM clause ({@code string_to_array(...) s}, Grafana) becomes a one-row subquery
 *       whose column has the alias's name, as PostgreSQL names it.
 *   <li>{@code AS key}, {@code AS default}: labels that are H2 keywords are quoted in lower case
 *       (SQLAlchemy's Inspector); {@code indisprimary = 'f'} compares with {@code FALSE}.
 *   <li>{@code unnest(c.reloptions)}, {@code unnest(evttags)}: an unnest of a column in a FROM
 *       clause (psql's {@code \d+}, {@code \dy}) reads as no rows: H2 has no lateral UNNEST,
 *       and the arrays clients unnest this way are NULL or empty in this catalog.
 * </ul>
 *
 * <pre>{@code
 * PgSqlTranslator.translate("SELECT 'pg_class'::regclass");
 * // SELECT pg_catalog.freshet_regclass_oid('pg_class')
 * }</pre>
 */
final class PgSqlTranslator {
  /** The functions the catalog defines in its pg_catalog schema (see {@link PgFunctions}). */
  static final Set<String> CATALOG_FUNCTIONS = Set.copyOf(PgFunctions.ALIASES.keySet());

  /** Columns of PostgreSQL's zero-based vector types (int2vector, oidvector). */
  private static final Set<String> VECTOR_COLUMNS = Set.of("indkey", "indoption", "indclass",
      "indcollation", "proargtypes", "stxkeys", "partattrs", "partclass", "partcollation",
      "i_indoption");

  /** H2 keywords that PostgreSQL clients use as labels ({@code AS key}). */
  private static final Set<String> H2_KEYWORDS = Set.of("key", "default", "value", "user",
      "year", "month", "day", "hour", "minute", "second", "row", "rows", "top", "unknown",
      "table", "select", "check", "constraint", "primary", "unique", "foreign", "values",
      "window", "qualify", "minus", "groups", "range", "rownum", "interval", "regexp", "limit",
      "offset", "fetch", "if", "end", "set", "some", "to", "uescape", "_rowid_");

  private PgSqlTranslator() {
  }

  /**
   * The tokens of {@code sql} as H2 reads them: an {@code E'...'} string becomes the plain string
   * of its value (H2 has no backslash escapes), a dollar-quoted string a plain one, and a block
   * comment (which PostgreSQL nests and H2 does not) one space.
   */
  static List<PgToken> tokens(String sql) {
    List<PgToken> tokens = PgLexer.tokenize(sql);
    for (int i = 0; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
      if (t.kind() == PgToken.Kind.ESCAPE_STRING) {
        tokens.set(i, new PgToken(PgToken.Kind.STRING, escapeStringValue(t.text())));
      } else if (t.kind() == PgToken.Kind.DOLLAR_QUOTED && PgLexer.dollarQuotedValue(t.text())
          != null) {
        tokens.set(i, new PgToken(PgToken.Kind.STRING,
            "'" + PgLexer.dollarQuotedValue(t.text()).replace("'", "''") + "'"));
      } else if (t.kind() == PgToken.Kind.COMMENT && t.text().startsWith("/*")) {
        tokens.set(i, PgToken.whitespace(" "));
      }
    }
    return tokens;
  }

  /** {@code E'a\'b'} read into the plain string literal {@code 'a''b'}. */
  private static String escapeStringValue(String text) {
    StringBuilder value = new StringBuilder("'");
    int j = 2;
    while (j < text.length()) {
      char c = text.charAt(j);
      if (c == '\\' && j + 1 < text.length()) {
        char e = text.charAt(j + 1);
        value.append(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
        if (e == '\'') {
          value.append('\'');
        }
        j += 2;
      } else if (c == '\'') {
        if (j + 1 < text.length() && text.charAt(j + 1) == '\'') {
          value.append("''");
          j += 2;
          continue;
        }
        break;
      } else {
        value.append(c);
        j++;
      }
    }
    return value.append('\'').toString();
  }

  /** The H2 SQL for PostgreSQL SQL {@code sql}. */
  static String translate(String sql) {
    List<PgToken> tokens = PgColumnLabels.name(PgSqlTranslator.tokens(sql));
    tokens = expandArrays(tokens);
    tokens = operatorsAndNames(tokens);
    tokens = casts(functionCasts(tokens));
    tokens = seriesAliases(tokens);
    StringBuilder out = new StringBuilder(sql.length() + 32);
    for (PgToken t : tokens) {
      out.append(t.text());
    }
    return out.toString();
  }

  private static boolean isWord(PgToken t, String word) {
    return t.kind() == PgToken.Kind.WORD && t.text().equalsIgnoreCase(word);
  }

  private static boolean isSymbol(PgToken t, String symbol) {
    return t.kind() == PgToken.Kind.OPERATOR && t.text().equals(symbol);
  }

  /** Index of the next token that is not blank or a comment, or {@code tokens.size()}. */
  private static int next(List<PgToken> tokens, int i) {
    int j = i + 1;
    while (j < tokens.size() && tokens.get(j).isBlank()) {
      j++;
    }
    return j;
  }

  /** Index of the previous token that is not blank or a comment, or -1. */
  private static int previous(List<PgToken> tokens, int i) {
    int j = i - 1;
    while (j >= 0 && tokens.get(j).isBlank()) {
      j--;
    }
    return j;
  }

  private static PgToken at(List<PgToken> tokens, int i) {
    return i >= 0 && i < tokens.size() ? tokens.get(i) : PgToken.whitespace("");
  }

  /** The index of the parenthesis that closes the one at {@code open}. */
  private static int closing(List<PgToken> tokens, int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      if (isSymbol(tokens.get(i), "(") || isSymbol(tokens.get(i), "[")) {
        depth++;
      } else if (isSymbol(tokens.get(i), ")") || isSymbol(tokens.get(i), "]")) {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return tokens.size() - 1;
  }

  /** The index of the parenthesis that opens the one closing at {@code close}. */
  private static int opening(List<PgToken> tokens, int close) {
    int depth = 0;
    for (int i = close; i >= 0; i--) {
      if (isSymbol(tokens.get(i), ")") || isSymbol(tokens.get(i), "]")) {
        depth++;
      } else if (isSymbol(tokens.get(i), "(") || isSymbol(tokens.get(i), "[")) {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return 0;
  }

  /** The first index of the operand that ends at {@code end} (a term, not an expression). */
  private static int operandStart(List<PgToken> tokens, int end) {
    int i = end;
    while (true) {
      PgToken t = tokens.get(i);
      if (isSymbol(t, ")") || isSymbol(t, "]")) {
        i = opening(tokens, i);
        int before = previous(tokens, i);
        if (before >= 0 && (tokens.get(before).kind() == PgToken.Kind.WORD
            && !isKeyword(tokens.get(before))
            || isSymbol(tokens.get(before), ")") || isSymbol(tokens.get(before), "]"))) {
          i = before;
          continue;
        }
        return i;
      }
      // a name, possibly qualified: a.b.c
      int before = previous(tokens, i);
      if (before >= 0 && isSymbol(tokens.get(before), ".")) {
        i = previous(tokens, before);
        continue;
      }
      return i;
    }
  }

  private static boolean isKeyword(PgToken t) {
    switch (t.text().toUpperCase(Locale.ROOT)) {
    case "SELECT": case "WHERE": case "AND": case "OR": case "NOT": case "ON": case "IN":
    case "WHEN": case "THEN": case "ELSE": case "CASE": case "AS": case "BY": case "FROM":
    case "JOIN": case "ANY": case "ALL": case "EXISTS": case "ARRAY": case "IS": case "LIKE":
    case "VALUES": case "USING": case "HAVING": case "DISTINCT": case "RETURN": case "END":
      return true;
    default:
      return false;
    }
  }

  /** Regex operators, collations, information_schema, user functions, qualifiers, $n. */
  private static List<PgToken> operatorsAndNames(List<PgToken> in) {
    List<PgToken> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      PgToken t = in.get(i);
      if (t.kind() == PgToken.Kind.PARAMETER) {
        out.add(PgToken.word("?" + t.text().substring(1)));
      } else if (isWord(t, "AS") && at(in, next(in, i)).kind() == PgToken.Kind.WORD
          && H2_KEYWORDS.contains(at(in, next(in, i)).text().toLowerCase(Locale.ROOT))) {
        // AS key, AS default: PostgreSQL takes these names as labels, H2 only quoted.
        out.add(t);
        out.add(PgToken.whitespace(" "));
        out.add(new PgToken(PgToken.Kind.QUOTED,
            "\"" + at(in, next(in, i)).text().toLowerCase(Locale.ROOT) + "\""));
        i = next(in, i);
      } else if (t.kind() == PgToken.Kind.STRING && (t.text().equals("'t'")
          || t.text().equals("'f'")) && isSymbol(at(out, lastNonBlank(out)), "=")
          && at(out, previous(out, lastNonBlank(out))).text().toLowerCase(Locale.ROOT)
              .matches("\\w*(is|has)\\w*")) {
        // indisprimary = 'f': H2 does not compare a boolean with 't' or 'f'.
        out.add(PgToken.word(t.text().equals("'t'") ? "TRUE" : "FALSE"));
      } else if (t.kind() == PgToken.Kind.STRING && t.text().startsWith("'{")
          && t.text().endsWith("}'")) {
        out.add(PgToken.word(arrayLiteral(t.text())));
      } else if (isWord(t, "OPERATOR") && isSymbol(at(in, next(in, i)), "(")) {
        int open = next(in, i);
        int close = closing(in, open);
        // OPERATOR(pg_catalog.~): the operator is the last token before ')'.
        PgToken op = in.get(previous(in, close));
        i = close;
        regex(op.text(), in, i, out);
      } else if (t.kind() == PgToken.Kind.OPERATOR && t.text().contains("~")) {
        regex(t.text(), in, i, out);
      } else if (isWord(t, "COLLATE")) {
        int name = next(in, i);
        int end = name;
        if (isSymbol(at(in, next(in, name)), ".")) {
          end = next(in, next(in, name));
        }
        i = end;
      } else if (t.kind() == PgToken.Kind.WORD && t.text().equalsIgnoreCase("information_schema")
          && isSymbol(at(in, next(in, i)), ".")) {
        out.add(PgToken.word("pg_information_schema"));
      } else if (t.kind() == PgToken.Kind.QUOTED && t.text().equals("\"information_schema\"")
          && isSymbol(at(in, next(in, i)), ".")) {
        out.add(PgToken.word("pg_information_schema"));
      } else if (t.kind() == PgToken.Kind.WORD && !isSymbol(at(in, previous(in, i)), ".")
          && !isSymbol(at(in, next(in, i)), "(") && userFunction(t.text()) != null) {
        out.add(PgToken.word(userFunction(t.text())));
      } else if (isWord(t, "pg_catalog") && isSymbol(at(in, next(in, i)), ".")
          && at(in, next(in, next(in, i))).kind() == PgToken.Kind.WORD
          && isSymbol(at(in, next(in, next(in, next(in, i)))), "(")
          && !CATALOG_FUNCTIONS.contains(
              at(in, next(in, next(in, i))).text().toLowerCase(Locale.ROOT))) {
        // pg_catalog.generate_series(...): H2's own function, unqualified.
        i = next(in, i);
      } else if (t.kind() == PgToken.Kind.WORD && VECTOR_COLUMNS.contains(
          t.text().toLowerCase(Locale.ROOT)) && isSymbol(at(in, next(in, i)), "[")) {
        int open = next(in, i);
        int close = closing(in, open);
        // the column may be qualified (ix.indkey): its alias was written out already
        int start = out.size();
        int last = lastNonBlank(out);
        if (last >= 1 && isSymbol(out.get(last), ".")) {
          start = previous(out, last);
        }
        List<PgToken> column = new ArrayList<>(out.subList(start, out.size()));
        column.add(t);
        out.subList(start, out.size()).clear();
        out.add(PgToken.word("pg_catalog.freshet_vector_element"));
        out.add(PgToken.operator("("));
        out.addAll(column);
        out.add(PgToken.operator(", "));
        out.addAll(operatorsAndNames(new ArrayList<>(in.subList(open + 1, close))));
        out.add(PgToken.operator(")"));
        i = close;
      } else if (isSymbol(t, "&") && lastNonBlank(out) >= 0
          && at(in, next(in, i)).kind() == PgToken.Kind.NUMBER) {
        // pgjdbc's indoption[n] & 1::smallint: H2 has BITAND, not &.
        int start = operandStart(out, lastNonBlank(out));
        List<PgToken> left = new ArrayList<>(out.subList(start, out.size()));
        out.subList(start, out.size()).clear();
        int number = next(in, i);
        out.add(PgToken.word("BITAND"));
        out.add(PgToken.operator("("));
        out.addAll(left);
        out.add(PgToken.operator(", "));
        out.add(new PgToken(PgToken.Kind.NUMBER, in.get(number).text()));
        out.add(PgToken.operator(")"));
        i = number;
        if (isSymbol(at(in, next(in, i)), "::")) {
          i = next(in, next(in, i));
        }
      } else {
        out.add(t);
      }
    }
    return out;
  }

  /** {@code '{0}'}, {@code '{a,b}'}: PostgreSQL's array literals as H2's ARRAY[...]. */
  private static String arrayLiteral(String literal) {
    String body = literal.substring(2, literal.length() - 2).strip();
    StringBuilder b = new StringBuilder("ARRAY[");
    if (!body.isEmpty()) {
      String[] elements = body.split(",");
      for (int i = 0; i < elements.length; i++) {
        String e = elements[i].strip().replace("\"", "");
        b.append(i == 0 ? "" : ", ");
        b.append(e.matches("-?[0-9]+") ? e : "'" + e.replace("'", "''") + "'");
      }
    }
    return b.append(']').toString();
  }

  private static int lastNonBlank(List<PgToken> out) {
    return previous(out, out.size());
  }

  /** The catalog function a niladic SQL word names, or null. */
  private static String userFunction(String word) {
    switch (word.toLowerCase(Locale.ROOT)) {
    case "current_catalog":
      return "pg_catalog.current_database()";
    case "current_user":
    case "session_user":
    case "current_role":
    case "user":
      return "pg_catalog.freshet_current_user()";
    default:
      return null;
    }
  }

  /** Writes regex operator {@code op} (at {@code in[i]}) as H2's REGEXP. */
  private static void regex(String op, List<PgToken> in, int i, List<PgToken> out) {
    boolean not = op.startsWith("!");
    boolean ignoreCase = op.endsWith("*");
    out.add(PgToken.word(not ? " NOT REGEXP " : " REGEXP "));
    if (ignoreCase) {
      out.add(PgToken.word("'(?i)' || "));
    }
  }

  /** Rewrites {@code CAST(x AS type)} to PostgreSQL's own types as {@code x::type}. */
  private static List<PgToken> functionCasts(List<PgToken> in) {
    List<PgToken> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      PgToken t = in.get(i);
      int open = next(in, i);
      if (!isWord(t, "CAST") || !isSymbol(at(in, open), "(")) {
        out.add(t);
        continue;
      }
      int close = closing(in, open);
      int as = -1;
      int depth = 0;
      for (int k = open + 1; k < close; k++) {
        if (isSymbol(in.get(k), "(") || isSymbol(in.get(k), "[")) {
          depth++;
        } else if (isSymbol(in.get(k), ")") || isSymbol(in.get(k), "]")) {
          depth--;
        } else if (depth == 0 && isWord(in.get(k), "AS")) {
          as = k;
        }
      }
      if (as < 0) {
        out.add(t);
        continue;
      }
      // (x)::type, which casts() then reads as PostgreSQL's cast
      out.add(PgToken.operator("("));
      out.addAll(functionCasts(new ArrayList<>(in.subList(open + 1, as))));
      out.add(PgToken.operator(")"));
      out.add(PgToken.operator("::"));
      out.addAll(in.subList(as + 1, close));
      i = close;
    }
    return out;
  }

  /** Rewrites {@code x::type} casts to PostgreSQL's own types. */
  private static List<PgToken> casts(List<PgToken> in) {
    List<PgToken> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      PgToken t = in.get(i);
      if (!isSymbol(t, "::")) {
        out.add(t);
        continue;
      }
      // The type: [pg_catalog.]name, possibly "char", possibly followed by [] or (n).
      int j = next(in, i);
      if (isWord(in.get(j), "pg_catalog") && isSymbol(at(in, next(in, j)), ".")) {
        j = next(in, next(in, j));
      }
      String type = in.get(j).text().replace("\"", "").toLowerCase(Locale.ROOT);
      int end = j;
      boolean array = false;
      if (isSymbol(at(in, next(in, end)), "[") && isSymbol(at(in, next(in, next(in, end))), "]")) {
        array = true;
        end = next(in, next(in, end));
      }
      String function = castFunction(type, textOperand(out));
      if (function != null && !array) {
        int last = lastNonBlank(out);
        int start = operandStart(out, last);
        List<PgToken> operand = new ArrayList<>(out.subList(start, last + 1));
        out.subList(start, out.size()).clear();
        out.add(PgToken.word(function));
        out.add(PgToken.operator("("));
        out.addAll(operand);
        out.add(PgToken.operator(")"));
        i = end;
        continue;
      }
      String h2 = h2Type(type);
      out.add(t);
      if (h2 == null) {
        // H2 knows the type as it is (int4, bool, varchar(n), ...).
        continue;
      }
      out.add(PgToken.word(h2 + (array ? " ARRAY" : "")));
      i = end;
    }
    return out;
  }

  /** Whether the operand just written is a string literal. */
  private static boolean literalOperand(List<PgToken> out) {
    int last = lastNonBlank(out);
    // a string literal, or a parameter ($1 is ?1 by now): PostgreSQL reads both as text input
    return last >= 0 && (out.get(last).kind() == PgToken.Kind.STRING
        || out.get(last).text().startsWith("?"));
  }

  /** Whether the operand just written is text: a literal, or CAST(... AS text), format(...). */
  private static boolean textOperand(List<PgToken> out) {
    if (literalOperand(out)) {
      return true;
    }
    int last = lastNonBlank(out);
    if (last < 0 || !isSymbol(out.get(last), ")")) {
      return false;
    }
    while (true) {
      int open = opening(out, last);
      int inner = previous(out, last);
      int before = previous(out, open);
      if (inner >= 0 && (isWord(out.get(inner), "VARCHAR") || isWord(out.get(inner), "text"))) {
        return true; // (x)::text just written
      }
      if (before >= 0 && out.get(before).kind() == PgToken.Kind.WORD) {
        return isWord(out.get(before), "format") || isWord(out.get(before), "concat");
      }
      // plain parentheses: look inside
      if (inner < 0 || !isSymbol(out.get(inner), ")")) {
        return inner >= 0 && out.get(inner).kind() == PgToken.Kind.STRING;
      }
      last = inner;
    }
  }

  /** The function that casts to OID alias type {@code type}, or null if it is not one. */
  private static String castFunction(String type, boolean fromLiteral) {
    switch (type) {
    case "regclass":
      return fromLiteral ? "pg_catalog.freshet_regclass_oid" : "pg_catalog.freshet_regclass_name";
    case "regtype":
      return fromLiteral ? "pg_catalog.freshet_regtype_oid" : "pg_catalog.format_type";
    case "regproc":
    case "regprocedure":
      return fromLiteral ? "pg_catalog.freshet_regproc" : null;
    case "regnamespace":
      return fromLiteral ? "pg_catalog.freshet_regnamespace_oid"
          : "pg_catalog.freshet_regnamespace_name";
    case "regrole":
      return fromLiteral ? null : "pg_catalog.pg_get_userbyid";
    default:
      return null;
    }
  }

  /** H2's name for PostgreSQL type {@code type}, or null if H2 reads it as it is. */
  private static String h2Type(String type) {
    switch (type) {
    case "text":
    case "name":
    case "char":
    case "bpchar":
    case "json":
    case "jsonb":
    case "pg_node_tree":
      return "VARCHAR";
    case "oid":
    case "regproc":
    case "regclass":
    case "regtype":
    case "regnamespace":
    case "regrole":
    case "xid":
    case "cid":
      return "INTEGER";
    case "int2vector":
      return "SMALLINT ARRAY";
    case "oidvector":
      return "INTEGER ARRAY";
    case "int2":
      return "SMALLINT";
    case "int4":
      return "INTEGER";
    case "int8":
      return "BIGINT";
    case "float4":
      return "REAL";
    case "float8":
      return "DOUBLE PRECISION";
    case "bool":
      return "BOOLEAN";
    default:
      return null;
    }
  }

  /**
   * Turns the set-returning array expansions of a select list into a join with
   * {@code freshet_indkey} or {@code freshet_conkey}.
   */
  private static List<PgToken> expandArrays(List<PgToken> in) {
    List<PgToken> out = new ArrayList<>(in.size());
    String joinTable = null;
    String joinColumn = null;
    String alias = null;
    int expandedAt = -1;
    for (int i = 0; i < in.size(); i++) {
      PgToken t = in.get(i);
      boolean expand = isWord(t, "_pg_expandarray") || isWord(t, "unnest")
          || isWord(t, "generate_subscripts");
      int open = next(in, i);
      if (!expand || !isSymbol(at(in, open), "(")) {
        out.add(t);
        continue;
      }
      int close = closing(in, open);
      String argument = "";
      for (int k = open + 1; k < close; k++) {
        argument += in.get(k).text();
      }
      if (isWord(t, "unnest") && argument.strip().matches("[A-Za-z_][A-Za-z_0-9.]*")
          && inFromAfterQualifier(out)) {
        // unnest(c.reloptions) in FROM: a lateral unnest H2 cannot run. The arrays clients
        // unnest this way (reloptions, evttags, ...) are NULL or empty here: no rows.
        int last = lastNonBlank(out);
        if (last >= 1 && isSymbol(out.get(last), ".")) {
          out.subList(previous(out, last), out.size()).clear();
        }
        int rowAlias = next(in, close);
        if (isWord(at(in, rowAlias), "AS")) {
          rowAlias = next(in, rowAlias);
        }
        // unnest(a) x names its column x; unnest(a) AS t(x) renames it anyway
        String column = at(in, rowAlias).kind() == PgToken.Kind.WORD
            && !isSymbol(at(in, next(in, rowAlias)), "(") ? at(in, rowAlias).text() : "v";
        out.add(PgToken.word("(SELECT CAST(NULL AS VARCHAR) AS " + column + " WHERE FALSE)"));
        i = close;
        continue;
      }
      if (inFromClause(out) || !(argument.contains("indkey") || argument.contains("conkey"))) {
        out.add(t);
        continue;
      }
      // The argument: alias.column
      List<PgToken> arg = new ArrayList<>();
      for (int k = open + 1; k < close; k++) {
        if (!in.get(k).isBlank()) {
          arg.add(in.get(k));
        }
      }
      if (arg.size() < 3 || !isSymbol(arg.get(1), ".")) {
        out.add(t);
        continue;
      }
      alias = arg.get(0).text();
      String column = arg.get(2).text().toLowerCase(Locale.ROOT);
      if (column.equals("conkey")) {
        joinTable = "pg_catalog.freshet_conkey";
        joinColumn = "conoid = " + alias + ".oid";
      } else {
        joinTable = "pg_catalog.freshet_indkey";
        joinColumn = "indexrelid = " + alias + ".indexrelid";
      }
      // Drop "information_schema." written before _pg_expandarray.
      int last = lastNonBlank(out);
      if (last >= 1 && isSymbol(out.get(last), ".")) {
        out.subList(previous(out, last), out.size()).clear();
      }
      String value = isWord(t, "generate_subscripts") ? "freshet_k.n" : "freshet_k.x";
      // (expand(a.c)).n / .x: the field of the composite.
      int before = lastNonBlank(out);
      int after = next(in, close);
      if (before >= 0 && isSymbol(out.get(before), "(") && isSymbol(at(in, after), ")")
          && isSymbol(at(in, next(in, after)), ".")) {
        out.remove(before);
        int field = next(in, next(in, after));
        value = "freshet_k." + in.get(field).text().toLowerCase(Locale.ROOT);
        close = field;
      }
      out.add(PgToken.word(value));
      if (expandedAt < 0) {
        expandedAt = out.size();
      }
      i = close;
    }
    if (expandedAt < 0) {
      return out;
    }
    // (result.KEYS).x: the composite is now its x already.
    for (int i = 0; i + 4 < out.size(); i++) {
      if (isSymbol(out.get(i), "(") && out.get(i + 1).kind() == PgToken.Kind.WORD
          && isSymbol(out.get(i + 2), ".") && out.get(i + 3).kind() == PgToken.Kind.WORD
          && isSymbol(out.get(i + 4), ")") && i + 6 < out.size()
          && isSymbol(out.get(i + 5), ".") && isWord(out.get(i + 6), "x")) {
        out.remove(i + 6);
        out.remove(i + 5);
        out.remove(i + 4);
        out.remove(i);
      }
    }
    // Join after the FROM clause that follows the select list.
    int depth = 0;
    boolean inFrom = false;
    int fromDepth = 0;
    for (int i = expandedAt; i < out.size(); i++) {
      PgToken t = out.get(i);
      if (isSymbol(t, "(")) {
        depth++;
      } else if (isSymbol(t, ")")) {
        if (inFrom && depth == fromDepth) {
          return insertJoin(out, i, joinTable, joinColumn);
        }
        depth--;
      } else if (isWord(t, "FROM") && !inFrom) {
        inFrom = true;
        fromDepth = depth;
      } else if (inFrom && depth == fromDepth && (isWord(t, "WHERE") || isWord(t, "GROUP")
          || isWord(t, "ORDER") || isWord(t, "UNION") || isWord(t, "LIMIT"))) {
        return insertJoin(out, i, joinTable, joinColumn);
      }
    }
    return insertJoin(out, out.size(), joinTable, joinColumn);
  }

  private static List<PgToken> insertJoin(List<PgToken> out, int at, String table,
      String condition) {
    out.add(at, PgToken.word(" JOIN " + table + " freshet_k ON (freshet_k." + condition + ") "));
    return out;
  }

  /** {@link #inFromClause}, also after a {@code pg_catalog.} qualifier. */
  private static boolean inFromAfterQualifier(List<PgToken> out) {
    int last = lastNonBlank(out);
    if (last >= 1 && isSymbol(out.get(last), ".")) {
      return inFromClause(new ArrayList<>(out.subList(0, previous(out, last))));
    }
    return inFromClause(out);
  }

  /** Whether the tokens written so far end in a FROM clause (a table function is fine there). */
  private static boolean inFromClause(List<PgToken> out) {
    int last = lastNonBlank(out);
    return last >= 0 && (isWord(out.get(last), "FROM") || isWord(out.get(last), "JOIN")
        || isSymbol(out.get(last), ",") && lastClauseIsFrom(out));
  }

  private static boolean lastClauseIsFrom(List<PgToken> out) {
    int depth = 0;
    for (int i = out.size() - 1; i >= 0; i--) {
      PgToken t = out.get(i);
      if (isSymbol(t, ")")) {
        depth++;
      } else if (isSymbol(t, "(")) {
        if (depth == 0) {
          return false;
        }
        depth--;
      } else if (depth == 0 && isWord(t, "FROM")) {
        return true;
      } else if (depth == 0 && isWord(t, "SELECT")) {
        return false;
      }
    }
    return false;
  }

  /** {@code generate_series(a, b) s} gets a column list, {@code s(s)}. */
  private static List<PgToken> seriesAliases(List<PgToken> in) {
    List<PgToken> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      PgToken t = in.get(i);
      if (t.kind() == PgToken.Kind.WORD && isSymbol(at(in, next(in, i)), "(")
          && !isWord(t, "generate_series") && !isWord(t, "unnest") && !isWord(t, "table")
          && !isKeyword(t) && !isWord(t, "ARRAY") && inFromClause(out)) {
        // string_to_array(...) s in FROM: a one-row table whose column is named after it.
        int close = closing(in, next(in, i));
        int alias = next(in, close);
        if (isWord(at(in, alias), "AS")) {
          alias = next(in, alias);
        }
        String name = at(in, alias).kind() == PgToken.Kind.WORD ? at(in, alias).text() : "v";
        out.add(PgToken.word("(SELECT "));
        out.addAll(in.subList(i, close + 1));
        out.add(PgToken.word(" AS " + name + ")"));
        i = close;
        continue;
      }
      out.add(t);
      if (!isWord(t, "generate_series") || !isSymbol(at(in, next(in, i)), "(")) {
        continue;
      }
      int close = closing(in, next(in, i));
      for (int k = i + 1; k <= close; k++) {
        out.add(in.get(k));
      }
      i = close;
      int alias = next(in, close);
      if (isWord(at(in, alias), "AS")) {
        alias = next(in, alias);
      }
      PgToken name = at(in, alias);
      if (name.kind() == PgToken.Kind.WORD && !isKeyword(name) && !isWord(name, "WHERE")
          && !isWord(name, "ORDER") && !isWord(name, "LIMIT") && !isWord(name, "GROUP")
          && !isSymbol(at(in, next(in, alias)), "(")) {
        for (int k = close + 1; k <= alias; k++) {
          out.add(in.get(k));
        }
        out.add(PgToken.operator("(" + name.text() + ")"));
        i = alias;
      }
    }
    return out;
  }
}

package dev.freshet.pgwire.names;

import dev.freshet.pgwire.sql.PgToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL's casts in a Freshet statement: {@code operand::type} as
 * {@code CAST(operand AS type)} with Freshet's name of the type, labelled as PostgreSQL labels
 * it where it is a whole select item ({@code n::int4} is {@code n}, {@code 'x'::text}
 * {@code text}). Part of {@link PgNames}.
 */
final class Casts {
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
  private Casts() {
  }

  /** {@code operand::type} as {@code CAST(operand AS type)}. */
  static List<PgToken> casts(List<PgToken> tokens) {
    List<PgToken> out = new ArrayList<>(tokens.size());
    for (int i = 0; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
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
      List<PgToken> operand = new ArrayList<>(out.subList(start, out.size()));
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
      out.add(PgToken.operator(cast.toString()));
      i = typeEnd - 1;
    }
    return out;
  }

  /** Whether the operand at {@code start} begins an item of a select list. */
  private static boolean selectItemStart(List<PgToken> out, int start) {
    int i = start - 1;
    while (i >= 0 && out.get(i).isBlank()) {
      i--;
    }
    if (i < 0) {
      return false;
    }
    if (out.get(i).kind() == PgToken.Kind.WORD && (out.get(i).text().equalsIgnoreCase("SELECT")
        || out.get(i).text().equalsIgnoreCase("DISTINCT"))) {
      return true;
    }
    if (!out.get(i).is(",")) {
      return false;
    }
    // A comma of the select list: the nearest SELECT before it at the same depth.
    int depth = 0;
    for (int j = i - 1; j >= 0; j--) {
      PgToken t = out.get(j);
      if (t.is(")")) {
        depth++;
      } else if (t.is("(")) {
        if (depth == 0) {
          return false;
        }
        depth--;
      } else if (depth == 0 && t.kind() == PgToken.Kind.WORD) {
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
  private static boolean selectItemEnd(List<PgToken> tokens, int i) {
    while (i < tokens.size() && tokens.get(i).isBlank()) {
      i++;
    }
    return i >= tokens.size() || tokens.get(i).is(",") || tokens.get(i).is(";")
        || tokens.get(i).kind() == PgToken.Kind.WORD
        && tokens.get(i).text().equalsIgnoreCase("FROM");
  }

  /** PostgreSQL's label of {@code operand::type}: the column or function, else the type. */
  private static String label(List<PgToken> operand, String type) {
    PgToken first = operand.get(0);
    PgToken last = operand.get(operand.size() - 1);
    if (first.isName()) {
      // The column of a.b.c, or the function of f(...).
      PgToken name = last.isName() ? last : first;
      for (PgToken t : operand) {
        if (t.is("(")) {
          break;
        }
        if (t.isName()) {
          name = t;
        }
      }
      String text = name.text();
      return (name.kind() == PgToken.Kind.QUOTED ? text.substring(1, text.length() - 1)
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
  private static int operandStart(List<PgToken> out) {
    int i = out.size() - 1;
    while (i >= 0 && out.get(i).isBlank()) {
      i--;
    }
    if (i < 0) {
      return -1;
    }
    PgToken last = out.get(i);
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
      if (i > 0 && out.get(i - 1).isName() && !NameTokens.isKeyword(out.get(i - 1))) {
        i--;
        while (i >= 2 && out.get(i - 1).is(".") && out.get(i - 2).isName()) {
          i -= 2;
        }
      }
      return i;
    }
    if (last.isString() || NameTokens.isOther(last)
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
  private static int typeEnd(List<PgToken> tokens, int i) {
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

  private static boolean followedBy(List<PgToken> tokens, int i, String word) {
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

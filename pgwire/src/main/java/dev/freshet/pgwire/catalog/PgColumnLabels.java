package dev.freshet.pgwire.catalog;

import dev.freshet.pgwire.sql.PgToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The names PostgreSQL gives the unnamed columns of a query, given to H2 as aliases so that a
 * client reads the labels it would read from PostgreSQL: a function call is named after the
 * function ({@code version}, {@code format_type}), a cast after its operand or else its type, a
 * niladic function after itself ({@code current_user}), {@code CASE} {@code case}, anything else
 * {@code ?column?}. H2 would name them after their SQL text. Only the outermost select list of a
 * statement that starts with {@code SELECT} is named; columns and aliased items are left alone.
 *
 * <pre>{@code
 * PgColumnLabels.name(PgSqlTranslator.tokens("SELECT version(), 1"));
 * // SELECT version() AS "version", 1 AS "?column?"
 * }</pre>
 */
final class PgColumnLabels {
  private static final Set<String> NILADIC = Set.of("current_user", "session_user",
      "current_role", "current_catalog", "current_schema", "current_date", "current_time",
      "current_timestamp", "localtime", "localtimestamp", "user");
  private static final Set<String> ENDS = Set.of("FROM", "WHERE", "GROUP", "ORDER", "UNION",
      "LIMIT", "HAVING", "OFFSET", "EXCEPT", "INTERSECT", "FETCH", "WINDOW", "INTO", "FOR");

  private PgColumnLabels() {
  }

  /** {@code tokens} with a PostgreSQL label on each unnamed item of the select list. */
  static List<PgToken> name(List<PgToken> tokens) {
    int select = first(tokens);
    if (select < 0 || !word(tokens.get(select), "SELECT")) {
      return tokens;
    }
    List<PgToken> out = new ArrayList<>(tokens.subList(0, select + 1));
    int depth = 0;
    List<PgToken> item = new ArrayList<>();
    int i = select + 1;
    for (; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
      if (depth == 0 && t.kind() == PgToken.Kind.WORD
          && ENDS.contains(t.text().toUpperCase(Locale.ROOT))) {
        break;
      }
      if (depth == 0 && t.kind() == PgToken.Kind.OPERATOR && (t.text().equals(",")
          || t.text().equals(";"))) {
        out.addAll(labelled(item));
        out.add(t);
        item = new ArrayList<>();
        if (t.text().equals(";")) {
          out.addAll(tokens.subList(i + 1, tokens.size()));
          return out;
        }
        continue;
      }
      if (t.text().equals("(") || t.text().equals("[")) {
        depth++;
      } else if (t.text().equals(")") || t.text().equals("]")) {
        depth--;
      }
      item.add(t);
    }
    out.addAll(labelled(item));
    out.addAll(tokens.subList(i, tokens.size()));
    return out;
  }

  private static int first(List<PgToken> tokens) {
    for (int i = 0; i < tokens.size(); i++) {
      if (!tokens.get(i).isBlank()) {
        return i;
      }
    }
    return -1;
  }

  private static boolean word(PgToken t, String w) {
    return t.kind() == PgToken.Kind.WORD && t.text().equalsIgnoreCase(w);
  }

  /** The item, with {@code AS "label"} after it if it has no name of its own. */
  private static List<PgToken> labelled(List<PgToken> item) {
    List<PgToken> solid = new ArrayList<>();
    for (PgToken t : item) {
      if (!t.isBlank()) {
        solid.add(t);
      }
    }
    if (solid.isEmpty() || hasName(solid)) {
      return item;
    }
    String label = label(solid);
    if (label == null) {
      return item;
    }
    List<PgToken> out = new ArrayList<>(item);
    // keep trailing blanks after the alias
    int end = out.size();
    while (end > 0 && out.get(end - 1).isBlank()) {
      end--;
    }
    out.add(end, new PgToken(PgToken.Kind.QUOTED, " AS \"" + label.replace("\"", "\"\"")
        + "\""));
    return out;
  }

  /** Whether the item is a column, a star, or has an alias (H2 names those as PostgreSQL). */
  private static boolean hasName(List<PgToken> s) {
    PgToken last = s.get(s.size() - 1);
    if (last.text().equals("*")) {
      return true;
    }
    if (s.size() >= 2 && word(s.get(s.size() - 2), "AS")) {
      return true;
    }
    boolean name = last.kind() == PgToken.Kind.WORD || last.kind() == PgToken.Kind.QUOTED;
    if (!name || word(last, "END") || NILADIC.contains(last.text().toLowerCase(Locale.ROOT))
        && s.size() == 1) {
      return false;
    }
    if (s.size() == 1) {
      return true; // a column
    }
    PgToken before = s.get(s.size() - 2);
    if (before.text().equals(".")) {
      // a.b is a column; but x.y after :: is a type
      return s.size() < 4 || !s.get(s.size() - 4).text().equals("::");
    }
    // expr alias, without AS: a word after a term
    return before.kind() == PgToken.Kind.WORD && !before.text().equals("::")
        && !isOperatorWord(before) || before.text().equals(")") || before.text().equals("]")
        || before.kind() == PgToken.Kind.STRING || before.kind() == PgToken.Kind.NUMBER
        || before.kind() == PgToken.Kind.QUOTED;
  }

  private static boolean isOperatorWord(PgToken t) {
    switch (t.text().toUpperCase(Locale.ROOT)) {
    case "AND": case "OR": case "NOT": case "IS": case "LIKE": case "IN": case "ELSE":
    case "THEN": case "WHEN": case "CASE": case "DISTINCT": case "ALL": case "ILIKE":
    case "BETWEEN": case "COLLATE": case "OPERATOR":
      return true;
    default:
      return false;
    }
  }

  /** PostgreSQL's name for an unnamed item, or null to leave it as H2 names it. */
  private static String label(List<PgToken> s) {
    // a cast: the operand's name, else the type's
    int cast = lastTopLevelCast(s);
    if (cast > 0) {
      String operand = label(s.subList(0, cast));
      if (operand != null && !operand.equals("?column?")) {
        return operand;
      }
      if (operand == null) {
        // a column: PostgreSQL names the cast after it
        return unquoted(s.get(cast - 1));
      }
      PgToken type = s.get(s.size() - 1).text().equals("]") ? s.get(cast + 1)
          : s.get(s.size() - 1);
      String name = type.text().replace("\"", "").toLowerCase(Locale.ROOT);
      return name;
    }
    PgToken first = s.get(0);
    PgToken last = s.get(s.size() - 1);
    if (last.text().equals("]")) {
      // a.b[i]: named after the column
      int open = s.size() - 1;
      int depth = 0;
      for (; open >= 0; open--) {
        String t = s.get(open).text();
        if (t.equals("]") || t.equals(")")) {
          depth++;
        } else if ((t.equals("[") || t.equals("(")) && --depth == 0) {
          break;
        }
      }
      if (open == 1 || open == 3 && s.get(1).text().equals(".")) {
        return unquoted(s.get(open - 1));
      }
    }
    if (s.size() == 1) {
      if (first.kind() == PgToken.Kind.WORD) {
        String w = first.text().toLowerCase(Locale.ROOT);
        return NILADIC.contains(w) ? w : null;
      }
      return first.kind() == PgToken.Kind.QUOTED ? null : "?column?";
    }
    if (word(first, "CAST") && s.size() > 3 && s.get(1).text().equals("(")
        && closesAtEnd(s, 1)) {
      // CAST(x AS type): named as x::type
      int as = -1;
      int depth = 0;
      for (int i = 2; i < s.size() - 1; i++) {
        String t = s.get(i).text();
        if (t.equals("(") || t.equals("[")) {
          depth++;
        } else if (t.equals(")") || t.equals("]")) {
          depth--;
        } else if (depth == 0 && word(s.get(i), "AS")) {
          as = i;
        }
      }
      if (as > 2) {
        String operand = label(s.subList(2, as));
        return operand == null ? unquoted(s.get(as - 1)) : !operand.equals("?column?") ? operand
            : s.get(as + 1).text().toLowerCase(Locale.ROOT);
      }
    }
    if (word(first, "CASE")) {
      return word(s.get(s.size() - 1), "END") ? "case" : "?column?";
    }
    if ((word(first, "ARRAY") || word(first, "EXISTS")) && closesAtEnd(s, 1)) {
      return first.text().toLowerCase(Locale.ROOT);
    }
    // [schema.]f(...)
    int name = 0;
    if (s.size() > 2 && s.get(1).text().equals(".") && s.get(0).kind() == PgToken.Kind.WORD) {
      name = 2;
    }
    if (s.get(name).kind() == PgToken.Kind.WORD && s.size() > name + 1
        && s.get(name + 1).text().equals("(") && closesAtEnd(s, name + 1)) {
      return s.get(name).text().toLowerCase(Locale.ROOT);
    }
    if (name == 2 && s.size() == 3) {
      return null; // a.b: a column
    }
    if (first.text().equals("(") && closesAtEnd(s, 0)) {
      return label(s.subList(1, s.size() - 1));
    }
    return "?column?";
  }

  private static String unquoted(PgToken t) {
    return t.kind() == PgToken.Kind.QUOTED ? t.text().substring(1, t.text().length() - 1)
        : t.text().toLowerCase(Locale.ROOT);
  }

  /** Whether the bracket at {@code open} closes at the item's last token. */
  private static boolean closesAtEnd(List<PgToken> s, int open) {
    int depth = 0;
    for (int i = open; i < s.size(); i++) {
      String t = s.get(i).text();
      if (t.equals("(") || t.equals("[")) {
        depth++;
      } else if (t.equals(")") || t.equals("]")) {
        depth--;
        if (depth == 0) {
          return i == s.size() - 1;
        }
      }
    }
    return false;
  }

  private static int lastTopLevelCast(List<PgToken> s) {
    int depth = 0;
    int found = -1;
    for (int i = 0; i < s.size(); i++) {
      String t = s.get(i).text();
      if (t.equals("(") || t.equals("[")) {
        depth++;
      } else if (t.equals(")") || t.equals("]")) {
        depth--;
      } else if (depth == 0 && t.equals("::")) {
        found = i;
      } else if (depth == 0 && (s.get(i).kind() == PgToken.Kind.OPERATOR && !t.equals(".")
          || isOperatorWord(s.get(i)))) {
        return -1; // a = 'x'::regproc: an operator, not a cast, makes the item
      }
    }
    return found;
  }
}

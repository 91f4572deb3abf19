package dev.freshet.pgwire.names;

import dev.freshet.pgwire.sql.PgToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's reading of a query's select list: {@code GROUP BY 1} as the first select item,
 * and an unnamed call labelled after its function ({@code count(*)} is {@code count}). Part of
 * {@link PgNames}.
 */
final class SelectLists {
  private SelectLists() {
  }

  /**
   * In a query (a statement that starts with SELECT), an unnamed select item that is a function
   * call labelled after the function, as PostgreSQL labels it ({@code count(*)} is
   * {@code count}; Freshet's planner would say {@code EXPR$1}). Statements that create objects
   * keep Freshet's column names.
   */
  static List<PgToken> callLabels(List<PgToken> tokens) {
    int first = 0;
    while (first < tokens.size() && (tokens.get(first).isBlank()
        || tokens.get(first).is("("))) {
      first++;
    }
    if (first >= tokens.size() || tokens.get(first).kind() != PgToken.Kind.WORD
        || !tokens.get(first).text().equalsIgnoreCase("SELECT")) {
      return tokens;
    }
    List<PgToken> out = new ArrayList<>(tokens.size() + 4);
    int depth = 0;
    int itemStart = -1;
    for (int i = 0; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
      boolean selectList = itemStart >= 0 && depth == 0;
      if (selectList && (t.is(",") || t.kind() == PgToken.Kind.WORD
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
      } else if (itemStart == out.size() - 1 && t.kind() == PgToken.Kind.WORD
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
  private static void labelCall(List<PgToken> out, int start) {
    int a = start;
    while (a < out.size() && out.get(a).isBlank()) {
      a++;
    }
    int b = out.size() - 1;
    while (b > a && out.get(b).isBlank()) {
      b--;
    }
    if (a + 1 >= b || out.get(a).kind() != PgToken.Kind.WORD
        || NameTokens.isKeyword(out.get(a))
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
    out.add(b + 1, PgToken.operator(" AS \"" + name + "\""));
  }

  /** Words that end a GROUP BY list. */
  private static final java.util.Set<String> GROUP_BY_ENDS = java.util.Set.of("HAVING", "ORDER",
      "LIMIT", "OFFSET", "WINDOW", "EMIT", "UNION", "EXCEPT", "INTERSECT", "FETCH", "WITH");

  /**
   * {@code GROUP BY 1} as {@code GROUP BY (<the first select item>)}, as PostgreSQL reads an
   * ordinal (Grafana's {@code $__timeGroupAlias} writes one); Freshet's planner would group by
   * the constant. Only items written without an alias or with {@code AS alias} are taken.
   */
  static List<PgToken> groupByOrdinals(List<PgToken> tokens) {
    List<PgToken> out = new ArrayList<>(tokens);
    for (int i = 0; i < out.size(); i++) {
      if (!(out.get(i).kind() == PgToken.Kind.WORD && out.get(i).text().equalsIgnoreCase("BY")
          && NameTokens.previousWord(out, i, "group"))) {
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
        } else if (depth == 0 && out.get(j).kind() == PgToken.Kind.WORD
            && out.get(j).text().equalsIgnoreCase("SELECT")) {
          select = j;
          break;
        }
      }
      if (select < 0) {
        continue;
      }
      List<List<PgToken>> items = selectItems(out, select + 1);
      int j = i + 1;
      depth = 0;
      while (j < out.size()) {
        PgToken t = out.get(j);
        if (t.is("(")) {
          depth++;
        } else if (t.is(")")) {
          if (depth == 0) {
            break;
          }
          depth--;
        } else if (depth == 0 && (t.is(";") || t.kind() == PgToken.Kind.WORD
            && GROUP_BY_ENDS.contains(t.text().toUpperCase(Locale.ROOT)))) {
          break;
        } else if (depth == 0 && NameTokens.isOther(t)
            && t.text().chars().allMatch(Character::isDigit)) {
          int n = Integer.parseInt(t.text());
          boolean alone = (neighbourIs(out, j, -1, ",") || neighbourIs(out, j, -1, "BY"))
              && (neighbourIs(out, j, 1, ",") || neighbourEnds(out, j));
          if (alone && n >= 1 && n <= items.size() && items.get(n - 1) != null) {
            StringBuilder expr = new StringBuilder("(");
            items.get(n - 1).forEach(x -> expr.append(x.text()));
            out.set(j, PgToken.operator(expr.append(')').toString()));
          }
        }
        j++;
      }
    }
    return out;
  }

  /** The items of the select list from {@code i}, each without its alias; null if unknown. */
  private static List<List<PgToken>> selectItems(List<PgToken> tokens, int i) {
    List<List<PgToken>> items = new ArrayList<>();
    List<PgToken> item = new ArrayList<>();
    int depth = 0;
    for (; i < tokens.size(); i++) {
      PgToken t = tokens.get(i);
      if (depth == 0 && t.kind() == PgToken.Kind.WORD
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

  private static List<PgToken> withoutAlias(List<PgToken> item) {
    int depth = 0;
    List<PgToken> expr = new ArrayList<>();
    for (PgToken t : item) {
      if (t.is("(")) {
        depth++;
      } else if (t.is(")")) {
        depth--;
      } else if (depth == 0 && t.kind() == PgToken.Kind.WORD && t.text().equalsIgnoreCase("AS")) {
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
    PgToken last = expr.get(expr.size() - 1);
    if (expr.size() > 2 && last.isName() && expr.get(expr.size() - 2).isBlank()) {
      PgToken before = expr.get(expr.size() - 3);
      if (before.isName() || before.is(")") || before.isString()) {
        return null;
      }
    }
    return expr;
  }

  private static boolean neighbourIs(List<PgToken> tokens, int i, int step, String text) {
    for (int j = i + step; j >= 0 && j < tokens.size(); j += step) {
      if (!tokens.get(j).isBlank()) {
        return tokens.get(j).text().equalsIgnoreCase(text);
      }
    }
    return false;
  }

  private static boolean neighbourEnds(List<PgToken> tokens, int i) {
    for (int j = i + 1; j < tokens.size(); j++) {
      PgToken t = tokens.get(j);
      if (!t.isBlank()) {
        return t.is(")") || t.is(";") || t.kind() == PgToken.Kind.WORD
            && GROUP_BY_ENDS.contains(t.text().toUpperCase(Locale.ROOT));
      }
    }
    return true;
  }

}

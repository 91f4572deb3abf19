package dev.freshet.planner.logical;

import static java.util.Objects.requireNonNull;

/**
 * A named column of a {@link LogicalPlan} node, a stream or a query's result.
 *
 * <pre>{@code
 * new LogicalField("USER_ID", new LogicalType(SqlType.VARCHAR, -1, -1, true, "VARCHAR"));
 * }</pre>
 *
 * @param name the column's name as the catalog or the query names it
 * @param type its type
 */
public record LogicalField(String name, LogicalType type) {
  public LogicalField {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
  }

  @Override public String toString() {
    return name + " " + type;
  }
}

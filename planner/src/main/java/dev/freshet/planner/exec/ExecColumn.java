package dev.freshet.planner.exec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One column of an {@link ExecNode}'s output or of a state store's key or value, as an
 * {@link ExecPlan} records it.
 *
 * <pre>{@code
 * new ExecColumn("USER_ID", "VARCHAR", null)                 // a key column
 * new ExecColumn("TOTAL", "BIGINT NOT NULL", "SUM")          // a value column: SUM's accumulator
 * }</pre>
 *
 * @param name the column's name in the plan
 * @param type its SQL type as the planner derived it, with {@code NOT NULL} if it is not nullable
 * @param accumulator for a state value column, the aggregate whose accumulator it holds
 *     ({@code SUM}, {@code COUNT DISTINCT}, ...): the same type kept by another aggregate means
 *     something else; null for every other column
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExecColumn(String name, String type, @Nullable String accumulator) {
  public ExecColumn {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
  }

  @Override public String toString() {
    return name + " " + (accumulator == null ? "" : accumulator + " ") + type;
  }
}

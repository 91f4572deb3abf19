package dev.freshet.planner.logical;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The type of a column or an expression in a {@link LogicalPlan}: its SQL type's descriptor, with
 * the precision, scale and nullability that belong to the column, and the type as SQL spells it,
 * for messages and for a stream's metadata.
 *
 * <pre>{@code
 * new LogicalType(SqlType.DECIMAL, 10, 2, true, "DECIMAL(10, 2)");
 * new LogicalType(null, -1, -1, true, "INTEGER ARRAY");   // no descriptor: no engine keeps it
 * }</pre>
 *
 * @param sqlType the type's descriptor, or null for a type Freshet keeps no values of in a row
 * @param precision the precision (-1 where the type has none)
 * @param scale the scale (-1 where the type has none; 0 for an integer)
 * @param nullable whether the column may hold NULL
 * @param name the type as SQL spells it, without NOT NULL, e.g. {@code TIMESTAMP(3)}
 */
public record LogicalType(@Nullable SqlType sqlType, int precision, int scale, boolean nullable,
    String name) {
  /** The numeric types: arithmetic on them is typed as the planner typed it. */
  private static final Set<SqlType> NUMERIC = Set.of(SqlType.TINYINT, SqlType.SMALLINT,
      SqlType.INTEGER, SqlType.BIGINT, SqlType.DECIMAL, SqlType.REAL, SqlType.DOUBLE);

  public LogicalType {
    requireNonNull(name, "name");
  }

  /** Whether the type is a number (exact or approximate). */
  public boolean isNumeric() {
    return sqlType != null && NUMERIC.contains(sqlType);
  }

  /** The type as SQL spells it, e.g. {@code VARCHAR}. */
  @Override public String toString() {
    return name;
  }
}

package dev.freshet.connectors.sink;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;

/**
 * The type of one column a sink writes: its {@link SqlType} and, as the query's result declares
 * them, its precision and scale (-1 where the type has none).
 *
 * <pre>{@code
 * new ColumnType(SqlType.DECIMAL, 10, 2).ddlName();   // "DECIMAL(10, 2)"
 * }</pre>
 *
 * @param type the SQL type; VARCHAR for a type Freshet keeps no descriptor of, which a sink
 *     writes as text
 * @param precision the precision, or -1
 * @param scale the scale, or -1
 */
public record ColumnType(SqlType type, int precision, int scale) {
  public ColumnType {
    requireNonNull(type, "type");
  }

  /** The column's type in a target table's {@code CREATE TABLE} ({@link SqlType#ddlName}). */
  public String ddlName() {
    return type.ddlName(precision, scale);
  }
}

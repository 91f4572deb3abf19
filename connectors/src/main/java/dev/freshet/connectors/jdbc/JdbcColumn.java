package dev.freshet.connectors.jdbc;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * One column of a table read through JDBC: how its values are read from a result set into the
 * executor's representation (Calcite's: TIMESTAMP as {@code Long} milliseconds in UTC, DATE as
 * {@code Integer} days, TIME as {@code Integer} milliseconds of the day).
 *
 * <pre>{@code
 * List<JdbcColumn> columns = List.of(new JdbcColumn("ID", SqlType.BIGINT, 0),
 *     new JdbcColumn("CATEGORY", SqlType.VARCHAR, -1));
 * Object[] row = JdbcColumn.read(resultSet, columns);       // {42L, "books"}
 * }</pre>
 *
 * @param name the column's name
 * @param type its type as the table declares it
 * @param scale the scale of a DECIMAL, to which every value read is set; else ignored
 */
public record JdbcColumn(String name, SqlType type, int scale) {
  public JdbcColumn {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
  }

  /** {@code identifier} as a quoted SQL identifier, e.g. {@code "ID"}. */
  public static String quoted(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  /** Reads the value of column {@code index} (1-based) of the current row of {@code r}. */
  public Object read(ResultSet r, int index) throws SQLException {
    if (!type.readsJdbc()) {
      throw new SQLException("column " + name + " has unsupported type " + type);
    }
    Object value = type.readJdbc(r, index);
    if (value instanceof BigDecimal d && scale >= 0 && d.scale() != scale) {
      // As a DECIMAL(p, s) column holds it, whatever scale the database returned.
      return d.setScale(scale, RoundingMode.HALF_UP);
    }
    return value;
  }

  /** Reads the current row of {@code r}, whose columns are {@code columns} in order. */
  public static Object[] read(ResultSet r, List<JdbcColumn> columns) throws SQLException {
    Object[] row = new Object[columns.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = columns.get(i).read(r, i + 1);
    }
    return row;
  }
}

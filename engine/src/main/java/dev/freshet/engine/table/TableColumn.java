package dev.freshet.engine.table;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;
import dev.freshet.planner.SqlTypes;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * One column of a reference table: how its values are read from a JDBC result set into the
 * executor's representation (Calcite's: TIMESTAMP as {@code Long} milliseconds in UTC, DATE as
 * {@code Integer} days, TIME as {@code Integer} milliseconds of the day), and how H2 declares it.
 *
 * <pre>{@code
 * List<TableColumn> columns = TableColumn.of(rowType);       // ID BIGINT, CATEGORY VARCHAR
 * Object[] row = TableColumn.read(resultSet, columns);       // {42L, "books"}
 * }</pre>
 *
 * @param name the column's name
 * @param type its type as the table declares it
 */
public record TableColumn(String name, RelDataType type) {
  public TableColumn {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
  }

  /** The columns of {@code rowType}. */
  public static List<TableColumn> of(RelDataType rowType) {
    List<TableColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      columns.add(new TableColumn(field.getName(), field.getType()));
    }
    return columns;
  }

  /**
   * Why a table cannot have a column of this type, if it cannot: only the types whose values
   * every JDBC database returns and the executor keeps (numbers, strings, booleans, dates,
   * times and timestamps).
   */
  public Optional<String> unsupported() {
    SqlType descriptor = SqlTypes.of(type);
    return descriptor != null && descriptor.readsJdbc() ? Optional.empty()
        : Optional.of("column " + name + " has type " + type.getSqlTypeName()
          + ", and a table's columns are BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL,"
          + " REAL, DOUBLE, CHAR, VARCHAR, DATE, TIME or TIMESTAMP");
  }

  /** The column's declaration in H2, e.g. {@code "ID" BIGINT NOT NULL}. */
  public String h2Declaration() {
    String sqlType = switch (type.getSqlTypeName()) {
      case DECIMAL -> "DECIMAL(" + type.getPrecision() + ", " + type.getScale() + ")";
      case FLOAT, DOUBLE -> "DOUBLE PRECISION";
      case CHAR -> "CHARACTER(" + type.getPrecision() + ")";
      case VARCHAR -> type.getPrecision() > 0 && type.getPrecision() < 1_000_000_000
          ? "CHARACTER VARYING(" + type.getPrecision() + ")" : "CHARACTER VARYING";
      // As declared, up to milliseconds: what the executor keeps of a time.
      case TIME -> "TIME(" + Math.min(3, Math.max(0, type.getPrecision())) + ")";
      case TIMESTAMP -> "TIMESTAMP(" + Math.min(3, Math.max(0, type.getPrecision())) + ")";
      default -> type.getSqlTypeName().name();
    };
    return quoted(name) + " " + sqlType + (type.isNullable() ? "" : " NOT NULL");
  }

  /** {@code identifier} as a quoted SQL identifier, e.g. {@code "ID"}. */
  public static String quoted(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  /** Reads the value of column {@code index} (1-based) of the current row of {@code r}. */
  public Object read(ResultSet r, int index) throws SQLException {
    SqlType descriptor = SqlTypes.of(type);
    if (descriptor == null || !descriptor.readsJdbc()) {
      throw new SQLException("column " + name + " has unsupported type " + type);
    }
    // As the row holds it (the java.time value JDBC gives for a date or time); null stays null.
    Object value = descriptor.readJdbc(r, index);
    if (value instanceof BigDecimal d && type.getScale() >= 0 && d.scale() != type.getScale()) {
      // As a DECIMAL(p, s) column holds it, whatever scale the database returned.
      return d.setScale(type.getScale(), java.math.RoundingMode.HALF_UP);
    }
    return value;
  }

  /** Reads the current row of {@code r}, whose columns are {@code columns} in order. */
  public static Object[] read(ResultSet r, List<TableColumn> columns) throws SQLException {
    Object[] row = new Object[columns.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = columns.get(i).read(r, i + 1);
    }
    return row;
  }
}

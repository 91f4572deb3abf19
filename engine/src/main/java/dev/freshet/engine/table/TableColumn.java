package dev.freshet.engine.table;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;
import dev.freshet.connectors.jdbc.JdbcColumn;
import dev.freshet.planner.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * One column of a reference table as its {@code CREATE TABLE} declares it (Calcite's type):
 * which types a table may have, how H2 declares it, and the JDBC connector's
 * {@link JdbcColumn} that reads its values.
 *
 * <pre>{@code
 * List<TableColumn> columns = TableColumn.of(rowType);       // ID BIGINT, CATEGORY VARCHAR
 * Object[] row = JdbcColumn.read(resultSet, TableColumn.jdbc(columns));   // {42L, "books"}
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
    return switch (type.getSqlTypeName()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, FLOAT, DOUBLE, CHAR,
          VARCHAR, DATE, TIME, TIMESTAMP -> Optional.empty();
      default -> Optional.of("column " + name + " has type " + type.getSqlTypeName()
          + ", and a table's columns are BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL,"
          + " REAL, DOUBLE, CHAR, VARCHAR, DATE, TIME or TIMESTAMP");
    };
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
    return JdbcColumn.quoted(identifier);
  }

  /**
   * The column as JDBC reads it: its {@link SqlType} (FLOAT as DOUBLE) and scale. Only for a
   * column {@link #unsupported} has no objection to.
   */
  public JdbcColumn jdbc() {
    return new JdbcColumn(name, SqlTypes.of(type), type.getScale());
  }

  /** {@link #jdbc} of each of {@code columns}, in order. */
  public static List<JdbcColumn> jdbc(List<TableColumn> columns) {
    List<JdbcColumn> read = new ArrayList<>(columns.size());
    for (TableColumn column : columns) {
      read.add(column.jdbc());
    }
    return read;
  }
}

package dev.freshet.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;

/**
 * The columns of a result that the driver makes itself, such as the result of a
 * {@link DatabaseMetaData} method, with the names and types JDBC specifies for it.
 *
 * <pre>{@code
 * ResultLayout schemas = ResultLayout.builder()
 *     .text("TABLE_SCHEM", false)    // VARCHAR NOT NULL
 *     .text("TABLE_CATALOG", true)   // VARCHAR
 *     .build();
 * }</pre>
 *
 * <p>Each column has a real display size, which tools such as sqlline use to lay out columns.
 * Values in rows must be of the column's Java class: {@code String}, {@code Integer},
 * {@code Short}, {@code Long} or {@code Boolean}.
 */
final class ResultLayout {
  /** Display size of a name: JDBC does not bound it; this fits every name Freshet makes. */
  static final int NAME_SIZE = 128;

  private final List<ColumnMetaData> columns;

  private ResultLayout(List<ColumnMetaData> columns) {
    this.columns = List.copyOf(columns);
  }

  static Builder builder() {
    return new Builder();
  }

  /** The columns, in order. */
  List<ColumnMetaData> columns() {
    return columns;
  }

  /** Adds columns one by one. */
  static final class Builder {
    private final List<ColumnMetaData> columns = new ArrayList<>();

    private Builder() {
    }

    /** A VARCHAR column of names. */
    Builder text(String name, boolean nullable) {
      return text(name, nullable, NAME_SIZE);
    }

    /** A VARCHAR column whose values are up to {@code displaySize} characters long. */
    Builder text(String name, boolean nullable, int displaySize) {
      return add(name, Types.VARCHAR, "VARCHAR", ColumnMetaData.Rep.STRING, nullable,
          displaySize, displaySize, false);
    }

    /** An INTEGER column. */
    Builder integer(String name, boolean nullable) {
      return add(name, Types.INTEGER, "INTEGER", ColumnMetaData.Rep.INTEGER, nullable, 11, 10,
          true);
    }

    /** A SMALLINT column, as JDBC specifies for codes such as {@code KEY_SEQ}. */
    Builder smallint(String name, boolean nullable) {
      return add(name, Types.SMALLINT, "SMALLINT", ColumnMetaData.Rep.SHORT, nullable, 6, 5,
          true);
    }

    /** A BIGINT column. */
    Builder bigint(String name, boolean nullable) {
      return add(name, Types.BIGINT, "BIGINT", ColumnMetaData.Rep.LONG, nullable, 20, 19, true);
    }

    /** A BOOLEAN column. */
    Builder bool(String name, boolean nullable) {
      return add(name, Types.BOOLEAN, "BOOLEAN", ColumnMetaData.Rep.BOOLEAN, nullable, 5, 1,
          false);
    }

    private Builder add(String name, int jdbcType, String typeName, ColumnMetaData.Rep rep,
        boolean nullable, int displaySize, int precision, boolean signed) {
      ColumnMetaData.AvaticaType type = ColumnMetaData.scalar(jdbcType, typeName, rep);
      columns.add(new ColumnMetaData(columns.size(), false, true, false, false,
          nullable ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls, signed,
          displaySize, name, name, null, precision, 0, null, null, type, true, false, false,
          type.columnClassName()));
      return this;
    }

    ResultLayout build() {
      return new ResultLayout(columns);
    }
  }
}

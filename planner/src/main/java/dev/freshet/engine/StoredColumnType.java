package dev.freshet.engine;

import dev.freshet.planner.PlannerErrors;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How a view column's values are kept in an H2 result table: the H2 type, and the conversion
 * between Calcite's internal representation (what a view's rows hold and what a
 * {@code ScannableTable} returns) and JDBC.
 *
 * <pre>{@code
 * StoredColumnType t = StoredColumnType.of(field.getType(), "V", field.getName()); // TIMESTAMP
 * t.ddl(field.getType());          // "BIGINT": milliseconds since the epoch, as Calcite keeps it
 * t.bind(insert, 3, 1700000000000L);
 * Object v = t.read(resultSet, 3); // 1700000000000L
 * }</pre>
 *
 * <p>Dates, times and timestamps are stored as Calcite's numbers (days, milliseconds of the day,
 * milliseconds since the epoch in UTC): the table is Freshet's own storage, read back only by
 * Freshet, and numbers round-trip exactly where H2's date-time types would apply time zones.
 */
enum StoredColumnType {
  BOOLEAN("BOOLEAN") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setBoolean(i, (Boolean) v);
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getBoolean(i);
    }
  },
  TINYINT("TINYINT") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setByte(i, ((Number) v).byteValue());
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getByte(i);
    }
  },
  SMALLINT("SMALLINT") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setShort(i, ((Number) v).shortValue());
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getShort(i);
    }
  },
  /** INTEGER, and DATE (days), TIME (milliseconds) and year-month intervals (months). */
  INTEGER("INTEGER") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setInt(i, ((Number) v).intValue());
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getInt(i);
    }
  },
  /** BIGINT, and TIMESTAMP (milliseconds) and day-time intervals (milliseconds). */
  BIGINT("BIGINT") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setLong(i, ((Number) v).longValue());
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getLong(i);
    }
  },
  DECIMAL("NUMERIC") {
    @Override String ddl(RelDataType type) {
      // Calcite's precision is at most its type system's maximum, within H2's 100000.
      return "NUMERIC(" + type.getPrecision() + ", " + Math.max(type.getScale(), 0) + ")";
    }

    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setBigDecimal(i, v instanceof BigDecimal ? (BigDecimal) v
          : new BigDecimal(v.toString()));
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getBigDecimal(i);
    }
  },
  REAL("REAL") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setFloat(i, ((Number) v).floatValue());
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getFloat(i);
    }
  },
  DOUBLE("DOUBLE PRECISION") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setDouble(i, ((Number) v).doubleValue());
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getDouble(i);
    }
  },
  VARCHAR("CHARACTER VARYING") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setString(i, v.toString());
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getString(i);
    }
  },
  VARBINARY("BINARY VARYING") {
    @Override void bindValue(PreparedStatement s, int i, Object v) throws SQLException {
      s.setBytes(i, v instanceof ByteString ? ((ByteString) v).getBytes() : (byte[]) v);
    }

    @Override Object readValue(ResultSet r, int i) throws SQLException {
      byte[] bytes = r.getBytes(i);
      // A NULL reads as null bytes; read() answers null for it.
      return bytes == null ? ByteString.EMPTY : new ByteString(bytes);
    }
  };

  private final String h2Type;

  StoredColumnType(String h2Type) {
    this.h2Type = h2Type;
  }

  /**
   * The stored type of a view column of type {@code type}.
   *
   * @throws SQLException (0A000) for a type no result table can hold yet
   */
  static StoredColumnType of(RelDataType type, String view, String column)
      throws SQLException {
    switch (type.getSqlTypeName()) {
    case BOOLEAN:
      return BOOLEAN;
    case TINYINT:
      return TINYINT;
    case SMALLINT:
      return SMALLINT;
    case INTEGER:
    case DATE:
    case TIME:
    case INTERVAL_YEAR:
    case INTERVAL_YEAR_MONTH:
    case INTERVAL_MONTH:
      return INTEGER;
    case BIGINT:
    case TIMESTAMP:
    case INTERVAL_DAY:
    case INTERVAL_DAY_HOUR:
    case INTERVAL_DAY_MINUTE:
    case INTERVAL_DAY_SECOND:
    case INTERVAL_HOUR:
    case INTERVAL_HOUR_MINUTE:
    case INTERVAL_HOUR_SECOND:
    case INTERVAL_MINUTE:
    case INTERVAL_MINUTE_SECOND:
    case INTERVAL_SECOND:
      return BIGINT;
    case DECIMAL:
      return DECIMAL;
    case REAL:
      return REAL;
    case FLOAT:
    case DOUBLE:
      return DOUBLE;
    case CHAR:
    case VARCHAR:
      return VARCHAR;
    case BINARY:
    case VARBINARY:
      return VARBINARY;
    default:
      throw PlannerErrors.notSupported("Column " + column + " of materialized view " + view
          + " is " + type.getFullTypeString() + ", which a view's result cannot hold yet. Cast"
          + " it to a character, numeric, boolean, date, time or timestamp type");
    }
  }

  /** The H2 type of the column, e.g. {@code NUMERIC(19, 2)}. */
  String ddl(RelDataType type) {
    return h2Type;
  }

  /** Sets parameter {@code i} of {@code statement} to {@code value} (internal representation). */
  final void bind(PreparedStatement statement, int i, @Nullable Object value)
      throws SQLException {
    if (value == null) {
      statement.setNull(i, Types.NULL);
    } else {
      bindValue(statement, i, value);
    }
  }

  /** Column {@code i} of the current row of {@code resultSet}, in internal representation. */
  final @Nullable Object read(ResultSet resultSet, int i) throws SQLException {
    Object value = readValue(resultSet, i);
    return resultSet.wasNull() ? null : value;
  }

  abstract void bindValue(PreparedStatement statement, int i, Object value) throws SQLException;

  abstract Object readValue(ResultSet resultSet, int i) throws SQLException;
}

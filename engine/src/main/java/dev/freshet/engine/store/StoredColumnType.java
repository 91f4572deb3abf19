package dev.freshet.engine.store;

import dev.freshet.common.types.SqlType;
import dev.freshet.common.types.ValueCodec;
import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.SqlTypes;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How a view column's values are kept: the encoding of a view's appended rows
 * ({@code dev.freshet.engine.view.AppendedRows}), and how the H2 result tables of earlier
 * releases are read when a view takes them over ({@link LegacyResults}).
 *
 * <pre>{@code
 * StoredColumnType t = StoredColumnType.of(field.getType(), "V", field.getName()); // TIMESTAMP
 * t.write(out, 1700000000000L, 0);  // milliseconds since the epoch, as Calcite keeps them
 * Object v = t.readFrom(in);        // 1700000000000L
 * }</pre>
 *
 * <p>Dates, times and timestamps are kept as Calcite's numbers (days, milliseconds of the day,
 * milliseconds since the epoch in UTC), as the result tables kept them.
 *
 * <p>{@link #write} and {@link #readFrom} are not {@code StateCodec}'s encoding, for two reasons:
 * a value is written as the column holds it (a decimal rounded to the column's scale, a number
 * narrowed to the column's type), which only the column type knows, so that a row read back
 * equals what the result tables returned; and the column types are known on both sides, so a
 * value needs no type tag, only a null flag. The value's body after the flag is its type's
 * {@link ValueCodec}, the body {@code StateCodec} writes after its tag (see
 * {@code dev.freshet.common.types}).
 */
public enum StoredColumnType {
  BOOLEAN(ValueCodec.BOOLEAN) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getBoolean(i);
    }
  },
  TINYINT(ValueCodec.BYTE) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getByte(i);
    }
  },
  SMALLINT(ValueCodec.SHORT) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getShort(i);
    }
  },
  /** INTEGER, and DATE (days), TIME (milliseconds) and year-month intervals (months). */
  INTEGER(ValueCodec.INT) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getInt(i);
    }
  },
  /** BIGINT, and TIMESTAMP (milliseconds) and day-time intervals (milliseconds). */
  BIGINT(ValueCodec.LONG) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getLong(i);
    }
  },
  DECIMAL(ValueCodec.DECIMAL) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getBigDecimal(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      // As H2 stores it in a NUMERIC(p, s) column: rounded half up to the column's scale.
      super.encode(out, toBigDecimal(v).setScale(scale, RoundingMode.HALF_UP), scale);
    }
  },
  REAL(ValueCodec.FLOAT) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getFloat(i);
    }
  },
  DOUBLE(ValueCodec.DOUBLE) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getDouble(i);
    }
  },
  VARCHAR(ValueCodec.STRING) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getString(i);
    }
  },
  VARBINARY(ValueCodec.BYTES) {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      byte[] bytes = r.getBytes(i);
      // A NULL reads as null bytes; read() answers null for it.
      return bytes == null ? ByteString.EMPTY : new ByteString(bytes);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      super.encode(out, v instanceof ByteString b ? b.getBytes() : v, scale);
    }

    @Override Object decode(DataInput in) throws IOException {
      return new ByteString((byte[]) super.decode(in));
    }
  };

  /** The body of a non-null value, as the type's descriptor writes it. */
  private final ValueCodec codec;

  StoredColumnType(ValueCodec codec) {
    this.codec = codec;
  }

  /**
   * The stored type of a view column of type {@code type}: the one whose body is that of the
   * type's descriptor ({@link SqlTypes}), so that DATE is an {@link #INTEGER} of days.
   *
   * @throws SQLException (0A000) for a type a view cannot keep yet
   */
  public static StoredColumnType of(RelDataType type, String view, String column)
      throws SQLException {
    SqlType sqlType = SqlTypes.of(type);
    // The zoned types' values are numbers too, but no view has kept them: they stay refused.
    if (sqlType != null && sqlType != SqlType.TIMESTAMP_WITH_LOCAL_TIME_ZONE
        && sqlType != SqlType.TIME_WITH_LOCAL_TIME_ZONE) {
      for (StoredColumnType stored : values()) {
        if (stored.codec == sqlType.codec()) {
          return stored;
        }
      }
    }
    throw Errors.notSupported("Column " + column + " of materialized view " + view
        + " is " + type.getFullTypeString() + ", which a view's result cannot hold yet. Cast"
        + " it to a character, numeric, boolean, date, time or timestamp type");
  }

  /** The scale of a NUMERIC column for {@code type}: none, if Calcite's type has none. */
  public static int scale(RelDataType type) {
    return Math.max(type.getScale(), 0);
  }

  /** Column {@code i} of the current row of {@code resultSet}, in internal representation. */
  final @Nullable Object read(ResultSet resultSet, int i) throws SQLException {
    Object value = readValue(resultSet, i);
    return resultSet.wasNull() ? null : value;
  }

  /**
   * Writes {@code value} (internal representation, or null) as the column holds it, so that
   * {@link #decode} gives what {@link #read} of a result table would.
   *
   * @param scale the column's scale, for {@link #DECIMAL}
   */
  public final void write(DataOutput out, @Nullable Object value, int scale)
      throws IOException {
    if (value == null) {
      out.writeBoolean(false);
    } else {
      out.writeBoolean(true);
      encode(out, value, scale);
    }
  }

  /** Reads a value that {@link #write} wrote, in internal representation. */
  public final @Nullable Object readFrom(DataInput in) throws IOException {
    return in.readBoolean() ? decode(in) : null;
  }

  private static BigDecimal toBigDecimal(Object v) {
    return v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString());
  }

  abstract Object readValue(ResultSet resultSet, int i) throws SQLException;

  void encode(DataOutput out, Object value, int scale) throws IOException {
    codec.write(out, value);
  }

  Object decode(DataInput in) throws IOException {
    return codec.read(in);
  }
}

package dev.freshet.engine.store;

import dev.freshet.engine.errors.Errors;
import dev.freshet.executor.state.StateCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
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
 * value needs no type tag, only a null flag.
 */
public enum StoredColumnType {
  BOOLEAN {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getBoolean(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      out.writeBoolean((Boolean) v);
    }

    @Override Object decode(DataInput in) throws IOException {
      return in.readBoolean();
    }
  },
  TINYINT {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getByte(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      out.writeByte(((Number) v).byteValue());
    }

    @Override Object decode(DataInput in) throws IOException {
      return in.readByte();
    }
  },
  SMALLINT {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getShort(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      out.writeShort(((Number) v).shortValue());
    }

    @Override Object decode(DataInput in) throws IOException {
      return in.readShort();
    }
  },
  /** INTEGER, and DATE (days), TIME (milliseconds) and year-month intervals (months). */
  INTEGER {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getInt(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      out.writeInt(((Number) v).intValue());
    }

    @Override Object decode(DataInput in) throws IOException {
      return in.readInt();
    }
  },
  /** BIGINT, and TIMESTAMP (milliseconds) and day-time intervals (milliseconds). */
  BIGINT {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getLong(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      out.writeLong(((Number) v).longValue());
    }

    @Override Object decode(DataInput in) throws IOException {
      return in.readLong();
    }
  },
  DECIMAL {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getBigDecimal(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      // As H2 stores it in a NUMERIC(p, s) column: rounded half up to the column's scale.
      BigDecimal d = toBigDecimal(v).setScale(scale, RoundingMode.HALF_UP);
      byte[] unscaled = d.unscaledValue().toByteArray();
      out.writeInt(d.scale());
      out.writeInt(unscaled.length);
      out.write(unscaled);
    }

    @Override Object decode(DataInput in) throws IOException {
      int scale = in.readInt();
      byte[] unscaled = new byte[in.readInt()];
      in.readFully(unscaled);
      return new BigDecimal(new BigInteger(unscaled), scale);
    }
  },
  REAL {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getFloat(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      out.writeFloat(((Number) v).floatValue());
    }

    @Override Object decode(DataInput in) throws IOException {
      return in.readFloat();
    }
  },
  DOUBLE {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getDouble(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      out.writeDouble(((Number) v).doubleValue());
    }

    @Override Object decode(DataInput in) throws IOException {
      return in.readDouble();
    }
  },
  VARCHAR {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      return r.getString(i);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      StateCodec.write(out, v.toString());
    }

    @Override Object decode(DataInput in) throws IOException {
      return StateCodec.read(in);
    }
  },
  VARBINARY {
    @Override Object readValue(ResultSet r, int i) throws SQLException {
      byte[] bytes = r.getBytes(i);
      // A NULL reads as null bytes; read() answers null for it.
      return bytes == null ? ByteString.EMPTY : new ByteString(bytes);
    }

    @Override void encode(DataOutput out, Object v, int scale) throws IOException {
      byte[] bytes = v instanceof ByteString ? ((ByteString) v).getBytes() : (byte[]) v;
      out.writeInt(bytes.length);
      out.write(bytes);
    }

    @Override Object decode(DataInput in) throws IOException {
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      return new ByteString(bytes);
    }
  };

  /**
   * The stored type of a view column of type {@code type}.
   *
   * @throws SQLException (0A000) for a type a view cannot keep yet
   */
  public static StoredColumnType of(RelDataType type, String view, String column)
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
      throw Errors.notSupported("Column " + column + " of materialized view " + view
          + " is " + type.getFullTypeString() + ", which a view's result cannot hold yet. Cast"
          + " it to a character, numeric, boolean, date, time or timestamp type");
    }
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

  abstract void encode(DataOutput out, Object value, int scale) throws IOException;

  abstract Object decode(DataInput in) throws IOException;
}

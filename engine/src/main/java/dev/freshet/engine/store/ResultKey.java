package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.StateCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;

/**
 * How the rows of an upserted view ({@link ResultTable.Layout#UPSERT}) name their group: which
 * columns of the rows the query hands the sink hold the group key and the new-key flag, and how
 * the result table keeps the key, in its primary-key column {@code KEY$}.
 *
 * <pre>{@code
 * // rows (k, n, KEY$0, $NEW_KEY), grouped by a BIGINT NOT NULL column
 * ResultKey key = ResultKey.of(new int[] {2}, List.of(bigintNotNull), 3);
 * key.format();          // LONG: KEY$ BIGINT PRIMARY KEY
 * key.encode(row);       // the key's bytes, as subscribers compare them
 * }</pre>
 *
 * <p>A key of one integral column that cannot be NULL is kept as a BIGINT ({@link Format#LONG}):
 * H2 then stores the table's rows by it, in one B-tree. Any other key is kept as its
 * {@link StateCodec} encoding ({@link Format#ENCODED}; a key may be NULL or have several
 * columns): H2 keeps a unique index on it beside the rows, so every write of a row writes the
 * index too.
 */
public final class ResultKey {
  /** How {@code KEY$} holds the group key. */
  enum Format {
    /** The key's {@link StateCodec} encoding, in a BINARY VARYING column. */
    ENCODED("BINARY VARYING"),
    /** The key's one integral value, in a BIGINT column. */
    LONG("BIGINT");

    private final String h2Type;

    Format(String h2Type) {
      this.h2Type = h2Type;
    }
  }

  /** The key of a result that is not upserted: no columns, no flag. */
  public static ResultKey none() {
    return new ResultKey(new int[0], -1, Format.ENCODED);
  }

  private final int[] columns;
  private final int newKeyColumn;
  private final Format format;
  /** For each key column, the view column that shows it as it is, or -1; empty if unknown. */
  private final int[] shownAt;
  /** Reused by {@link #encode}, which only the query's batch thread calls. */
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(bytes);

  private ResultKey(int[] columns, int newKeyColumn, Format format) {
    this(columns, newKeyColumn, format, new int[0]);
  }

  private ResultKey(int[] columns, int newKeyColumn, Format format, int[] shownAt) {
    this.shownAt = shownAt.clone();
    this.columns = columns.clone();
    this.newKeyColumn = newKeyColumn;
    this.format = requireNonNull(format, "format");
  }

  /**
   * The key of rows whose group key is in {@code columns}, of types {@code types}, kept in the
   * format that suits those types.
   *
   * @param newKeyColumn the position of the aggregation's new-key flag, true when the group had
   *     no state before the batch; or -1 if the rows have none
   */
  public static ResultKey of(int[] columns, List<RelDataType> types, int newKeyColumn) {
    if (columns.length != types.size()) {
      throw new IllegalArgumentException(columns.length + " key columns but " + types.size()
          + " types");
    }
    boolean integral = types.size() == 1 && !types.get(0).isNullable()
        && isIntegral(types.get(0));
    return new ResultKey(columns, newKeyColumn, integral ? Format.LONG : Format.ENCODED);
  }

  /** Whether a value of {@code type} is a Java integral number that a BIGINT holds exactly. */
  private static boolean isIntegral(RelDataType type) {
    try {
      StoredColumnType stored = StoredColumnType.of(type, "", "");
      return stored == StoredColumnType.TINYINT || stored == StoredColumnType.SMALLINT
          || stored == StoredColumnType.INTEGER || stored == StoredColumnType.BIGINT;
    } catch (SQLException e) {
      // Not a type a result column can have: kept encoded, as any other.
      return false;
    }
  }

  /**
   * This key, knowing which view column shows each key column as it is ({@code -1}: none), so
   * that a filter on that column can find the group's row by {@code KEY$}.
   *
   * <pre>{@code
   * // SELECT n % 10 AS k, COUNT(*) AS c ... GROUP BY n % 10: rows (k, c, KEY$0, $NEW_KEY)
   * ResultKey.of(new int[] {2}, types, 3).shownAt(new int[] {0});
   * }</pre>
   */
  public ResultKey shownAt(int[] viewColumns) {
    if (viewColumns.length != 0 && viewColumns.length != columns.length) {
      throw new IllegalArgumentException(columns.length + " key columns but "
          + viewColumns.length + " view columns");
    }
    return new ResultKey(columns, newKeyColumn, format, viewColumns);
  }

  Format format() {
    return format;
  }

  /** The definition of the {@code KEY$} column. */
  String ddl() {
    return "KEY$ " + format.h2Type + " PRIMARY KEY";
  }

  /** Whether {@code row} is flagged as its group's first: the result has no row for it. */
  boolean isNewGroup(Object[] row) {
    return newKeyColumn >= 0 && Boolean.TRUE.equals(row[newKeyColumn]);
  }

  /**
   * The group key of {@code row} as bytes, which two rows have equal exactly when they are of
   * one group: the {@link StateCodec} encoding of the key columns, or the 8 bytes of a LONG key.
   */
  byte[] encode(Object[] row) {
    if (format == Format.LONG) {
      return ByteBuffer.allocate(Long.BYTES).putLong(((Number) row[columns[0]]).longValue())
          .array();
    }
    bytes.reset();
    try {
      for (int column : columns) {
        StateCodec.write(out, row[column]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot encode a group key", e);
    }
    return bytes.toByteArray();
  }

  /**
   * The positions 0, 1, ... of {@code keys} (each an {@link #encode}) in the order of
   * {@code KEY$} in the table. Rows written in that order are found in the pages that the one
   * before them just read; in the order an aggregation emits them (a hash table's), each row
   * would be looked for in a page of the table that H2's small cache has evicted already.
   */
  int[] tableOrder(byte[][] keys) {
    Integer[] order = new Integer[keys.length];
    Arrays.setAll(order, i -> i);
    if (format == Format.LONG) {
      long[] values = new long[keys.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = ByteBuffer.wrap(keys[i]).getLong();
      }
      Arrays.sort(order, (a, b) -> Long.compare(values[a], values[b]));
    } else {
      // H2 orders BINARY VARYING values by their bytes, unsigned.
      Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
    }
    // A stable sort, and one pass over a batch whose keys come sorted already (TimSort).
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }

  /** Binds {@code KEY$} of {@code row}, whose {@link #encode} is {@code encoded}. */
  void bind(PreparedStatement p, int i, Object[] row, byte[] encoded) throws SQLException {
    if (format == Format.LONG) {
      p.setLong(i, ((Number) row[columns[0]]).longValue());
    } else {
      p.setBytes(i, encoded);
    }
  }

  /**
   * The view column that shows the whole group key as it is, if the key is one column that
   * {@link #shownAt} names; else -1. That column and {@code KEY$} then hold one value.
   */
  public int visibleColumn() {
    return columns.length == 1 && shownAt.length == 1 ? shownAt[0] : -1;
  }

  /**
   * Binds to {@code KEY$} the key whose one column is {@code value}, as {@link #bind} binds a
   * row's: a {@code Long} for a {@link Format#LONG} key, else a value of the class the rows hold
   * (a {@code String} for a VARCHAR key), whose encoding is then the row's.
   */
  void bindValue(PreparedStatement p, int i, Object value) throws SQLException {
    if (format == Format.LONG) {
      p.setLong(i, ((Number) value).longValue());
      return;
    }
    // Not the batch thread's buffer: readers run on threads of their own.
    ByteArrayOutputStream encoded = new ByteArrayOutputStream();
    try {
      StateCodec.write(new DataOutputStream(encoded), value);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot encode a group key", e);
    }
    p.setBytes(i, encoded.toByteArray());
  }

  /** The {@link #encode} of the row whose {@code KEY$} is column {@code i} of {@code r}. */
  byte[] read(ResultSet r, int i) throws SQLException {
    if (format == Format.LONG) {
      return ByteBuffer.allocate(Long.BYTES).putLong(r.getLong(i)).array();
    }
    return r.getBytes(i);
  }
}

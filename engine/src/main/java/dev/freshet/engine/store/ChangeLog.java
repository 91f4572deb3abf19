package dev.freshet.engine.store;

import dev.freshet.engine.store.ResultTable.ChangeListener;
import dev.freshet.engine.push.RowKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The changes of a view's recent batches, as its {@link ResultTable} made them: what a subscriber
 * that resumes after a version ({@code since_version}) is handed.
 *
 * <pre>{@code
 * ChangeLog log = new ChangeLog("PER_USER", types, scales);
 * ChangeLog.Writer w = log.writer(connection);   // in the batch's transaction
 * w.write(7, changes);
 * w.purge(7 - retainedBatches);
 * log.replay(snapshot, 5, listener);             // batches 6 and 7, one call each
 * }</pre>
 *
 * <p><b>Format.</b> Table {@code "CHANGELOG$<view>"} holds each batch's changes as chunks:
 * {@code (BATCH_ID BIGINT, CHUNK INTEGER, ROWS INTEGER, DATA BINARY VARYING)}, primary key
 * {@code (BATCH_ID, CHUNK)}, chunks numbered from 0 in the order of the batch's changes. A chunk
 * holds {@code ROWS} changes of at least one and about {@value #CHUNK_BYTES} bytes in all; each
 * change is its kind (a byte: {@link #code}), the group key's length (an int, -1 for
 * none) and bytes, then each view column as {@link StoredColumnType#write} encodes it. A batch
 * that changed nothing has no chunk. One SQL row per change cost more than the result table's
 * own write, in its insert, its purge and the transaction's commit; a chunk costs one of each.
 */
final class ChangeLog {
  /** About how many bytes of changes a chunk holds: few rows per batch, none of them huge. */
  static final int CHUNK_BYTES = 256 * 1024;

  private static final String COLUMNS = " (BATCH_ID BIGINT, CHUNK INTEGER, ROWS INTEGER,"
      + " DATA BINARY VARYING, PRIMARY KEY (BATCH_ID, CHUNK))";

  private final String view;
  private final String table;
  private final StoredColumnType[] types;
  private final int[] scales;

  /**
   * The change log of view {@code view}, whose columns are kept as {@code types}.
   *
   * @param scales each column's scale, for {@link StoredColumnType#DECIMAL} columns
   */
  ChangeLog(String view, StoredColumnType[] types, int[] scales) {
    this.view = view;
    this.table = tableName(view);
    this.types = types.clone();
    this.scales = scales.clone();
  }

  /** {@code CHANGELOG$<view>}, quoted. */
  private static String tableName(String view) {
    return ResultTable.quote("CHANGELOG$" + view);
  }

  /** Creates the view's change log empty, deleting any an earlier view of its name left. */
  void create(Statement s) throws SQLException {
    drop(s, view);
    s.execute("CREATE TABLE " + table + COLUMNS);
  }

  /** Deletes the change log of view {@code view}, if it has one. */
  static void drop(Statement s, String view) throws SQLException {
    s.execute("DROP TABLE IF EXISTS " + tableName(view));
  }

  /** A change's kind as a chunk keeps it: 0 INSERT, 1 UPDATE, 2 DELETE. */
  static byte code(RowKind kind) {
    switch (kind) {
    case INSERT:
      return 0;
    case UPDATE:
      return 1;
    case DELETE:
      return 2;
    default:
      throw new IllegalArgumentException("A change log keeps no " + kind + " row");
    }
  }

  /** The kind whose {@link #code} is {@code code}. */
  private static RowKind kindOf(byte code) {
    switch (code) {
    case 0:
      return RowKind.INSERT;
    case 1:
      return RowKind.UPDATE;
    case 2:
      return RowKind.DELETE;
    default:
      throw new IllegalArgumentException("No row kind has code " + code);
    }
  }

  /** Writes batches' changes through {@code c}, in its transactions; closed with it. */
  Writer writer(Connection c) throws SQLException {
    return new Writer(c);
  }

  /** The oldest batch whose changes the log has, or null if it has none. */
  @Nullable Long oldestBatch(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet r = s.executeQuery("SELECT MIN(BATCH_ID) FROM " + table)) {
      r.next();
      long oldest = r.getLong(1);
      return r.wasNull() ? null : oldest;
    }
  }

  /**
   * Hands {@code listener} the changes of each batch after {@code sinceBatch} that changed
   * something, in batch order, one call per batch, as {@link ResultTable}'s change rows.
   */
  void replay(Connection c, long sinceBatch, ChangeListener listener) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT BATCH_ID, ROWS, DATA FROM " + table
        + " WHERE BATCH_ID > ? ORDER BY BATCH_ID, CHUNK")) {
      p.setLong(1, sinceBatch);
      try (ResultSet r = p.executeQuery()) {
        long batch = -1;
        List<Object[]> changes = new ArrayList<>();
        while (r.next()) {
          long b = r.getLong(1);
          if (b != batch && !changes.isEmpty()) {
            listener.committed(batch, changes);
            changes = new ArrayList<>();
          }
          batch = b;
          decode(b, r.getInt(2), r.getBytes(3), changes);
        }
        if (!changes.isEmpty()) {
          listener.committed(batch, changes);
        }
      }
    }
  }

  private void decode(long batchId, int rows, byte[] data, List<Object[]> changes) {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
    try {
      for (int n = 0; n < rows; n++) {
        RowKind kind = kindOf(in.readByte());
        int keyLength = in.readInt();
        byte[] key = null;
        if (keyLength >= 0) {
          key = new byte[keyLength];
          in.readFully(key);
        }
        Object[] row = new Object[types.length];
        for (int i = 0; i < row.length; i++) {
          row[i] = types[i].readFrom(in);
        }
        changes.add(ResultTable.change(row, types.length, batchId, kind, key));
      }
      if (in.available() != 0) {
        throw new IOException(in.available() + " bytes left over after " + rows + " changes");
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException("The change log of view " + view + " has a corrupt chunk"
          + " in batch " + batchId, e);
    }
  }

  /**
   * Writes the changes of batches into the log, through prepared statements of one connection,
   * in that connection's transactions. Used by one thread at a time.
   */
  final class Writer {
    private final PreparedStatement insert;
    private final PreparedStatement purge;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(CHUNK_BYTES * 2);
    private final DataOutputStream out = new DataOutputStream(bytes);
    /** The batch being written, or -1 between batches. */
    private long batchId = -1;
    private int chunk;
    private int rows;

    private Writer(Connection c) throws SQLException {
      this.insert = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)");
      this.purge = c.prepareStatement("DELETE FROM " + table + " WHERE BATCH_ID <= ?");
    }

    /** Writes the changes of batch {@code batchId}: {@link ResultTable}'s change rows. */
    void write(long batchId, List<Object[]> changes) throws SQLException {
      int kindColumn = types.length + 1;
      beginBatch(batchId);
      for (Object[] change : changes) {
        ByteBuffer key = (ByteBuffer) change[kindColumn + 1];
        add((RowKind) change[kindColumn], key == null ? null : key.array(), change);
      }
      endBatch();
    }

    /** Deletes the changes of batch {@code lastForgotten} and every batch before it. */
    void purge(long lastForgotten) throws SQLException {
      purge.setLong(1, lastForgotten);
      purge.executeUpdate();
    }

    private void beginBatch(long batchId) {
      this.batchId = batchId;
      chunk = 0;
      rows = 0;
      bytes.reset();
    }

    /** Adds one change: {@code row}'s first columns are the view's. */
    private void add(RowKind kind, byte @Nullable [] key, Object[] row) throws SQLException {
      try {
        out.writeByte(code(kind));
        if (key == null) {
          out.writeInt(-1);
        } else {
          out.writeInt(key.length);
          out.write(key);
        }
        for (int i = 0; i < types.length; i++) {
          types[i].write(out, row[i], scales[i]);
        }
      } catch (IOException e) {
        // A ByteArrayOutputStream does not fail.
        throw new UncheckedIOException(e);
      }
      rows++;
      if (bytes.size() >= CHUNK_BYTES) {
        flush();
      }
    }

    private void endBatch() throws SQLException {
      if (rows > 0) {
        flush();
      }
      batchId = -1;
    }

    private void flush() throws SQLException {
      insert.setLong(1, batchId);
      insert.setInt(2, chunk++);
      insert.setInt(3, rows);
      insert.setBytes(4, bytes.toByteArray());
      insert.executeUpdate();
      rows = 0;
      bytes.reset();
    }
  }
}

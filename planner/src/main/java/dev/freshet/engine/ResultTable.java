package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.state.StateCodec;
import dev.freshet.planner.catalog.ViewResult;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A materialized view's result, kept in a table of the engine's {@link ResultDatabase}: outside
 * the heap when the engine has a data directory, so a view may have far more groups than the
 * heap could hold, and durable, so the result survives restarts.
 *
 * <pre>{@code
 * ResultTable result = ResultTable.open(db, "PER_USER", queryId, rowType,
 *     ResultTable.Layout.UPSERT, new int[] {2});
 * result.apply(7, rows);        // batch 7, in one transaction with the batch id
 * result.batchId();             // 7
 * }</pre>
 *
 * <p><b>Tables.</b> {@code FRESHET_VIEW_RESULTS} has one row per view: its name, the id of the query
 * that writes it, the name of its result table and the last batch applied. The result table
 * {@code "RESULT$<view>"} has the view's columns as {@code C0, C1, ...} ({@link StoredColumnType}
 * says how values are kept) and a key: {@code KEY$}, the group key encoded with
 * {@link StateCodec} (a group key may be NULL, which an H2 primary key cannot be), for an upserted
 * result; {@code SEQ$}, the row's position, for a replaced or appended one.
 *
 * <p><b>Exactly once.</b> A batch's rows and its id are written in one transaction, so after a
 * crash the table holds either the whole batch and its id or neither; the view's sink skips a
 * re-run batch whose id the table has. {@link ResultDatabase#persist} makes the commit durable
 * before the checkpoint records the batch.
 *
 * <p><b>Threads.</b> {@link #apply} is called by the query's batch thread only; readers use
 * connections of their own and see committed batches only.
 */
final class ResultTable implements ViewResult {
  /** How a batch's rows change the result. */
  enum Layout {
    /** UPDATE mode: each row replaces the row of its group. */
    UPSERT,
    /** COMPLETE mode: the batch's rows are the whole result. */
    REPLACE,
    /** APPEND mode: the batch's rows are added. */
    APPEND
  }

  /**
   * The {@link DataContext} variable holding the {@link Connection} (from
   * {@link ResultDatabase#connectSnapshot()}) through which a statement reads every view.
   */
  static final String SNAPSHOT_VARIABLE = "freshet.resultSnapshot";

  private static final String RESULTS = "FRESHET_VIEW_RESULTS";

  private final ResultDatabase db;
  private final String view;
  private final String table;
  private final Layout layout;
  private final StoredColumnType[] types;
  private final int[] keyColumns;
  /** The batch thread's connection; opened by the first batch. */
  private @Nullable Connection writer;
  private @Nullable PreparedStatement write;
  private @Nullable PreparedStatement recordBatch;
  private final ByteArrayOutputStream keyBytes = new ByteArrayOutputStream();
  private final DataOutputStream keyOut = new DataOutputStream(keyBytes);
  /** The next {@code SEQ$} of an appended row. */
  private long nextSeq;
  private volatile long batchId;

  private ResultTable(ResultDatabase db, String view, Layout layout, StoredColumnType[] types,
      int[] keyColumns, long batchId, long nextSeq) {
    this.db = db;
    this.view = view;
    this.table = tableName(view);
    this.layout = layout;
    this.types = types;
    this.keyColumns = keyColumns.clone();
    this.batchId = batchId;
    this.nextSeq = nextSeq;
  }

  /**
   * Opens the result of view {@code view} as query {@code queryId} left it, or creates it empty
   * if the table was written by another query (a view dropped and created again) or never.
   *
   * @param rowType the view's columns
   * @param keyColumns for {@link Layout#UPSERT}, the positions of the group key in the rows that
   *     the query hands the sink (after the view's columns, if they are hidden)
   * @throws SQLException (0A000) if a column has a type a result table cannot hold
   */
  static ResultTable open(ResultDatabase db, String view, String queryId, RelDataType rowType,
      Layout layout, int[] keyColumns) throws SQLException {
    List<RelDataTypeField> fields = rowType.getFieldList();
    StoredColumnType[] types = new StoredColumnType[fields.size()];
    StringBuilder columns = new StringBuilder();
    for (int i = 0; i < types.length; i++) {
      RelDataTypeField field = fields.get(i);
      types[i] = StoredColumnType.of(field.getType(), view, field.getName());
      columns.append(", C").append(i).append(' ').append(types[i].ddl(field.getType()));
    }
    String table = tableName(view);
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + RESULTS + " (VIEW_NAME CHARACTER VARYING"
          + " PRIMARY KEY, QUERY_ID CHARACTER VARYING NOT NULL, BATCH_ID BIGINT NOT NULL)");
      try (PreparedStatement p = c.prepareStatement(
          "SELECT QUERY_ID, BATCH_ID FROM " + RESULTS + " WHERE VIEW_NAME = ?")) {
        p.setString(1, view);
        try (ResultSet r = p.executeQuery()) {
          if (r.next() && r.getString(1).equals(queryId)) {
            return new ResultTable(db, view, layout, types, keyColumns, r.getLong(2),
                layout == Layout.UPSERT ? 0 : nextSeq(s, table));
          }
        }
      }
      // A result left by an earlier view of this name belongs to a query that is gone.
      s.execute("DROP TABLE IF EXISTS " + table);
      String key = layout == Layout.UPSERT ? "KEY$ BINARY VARYING PRIMARY KEY"
          : "SEQ$ BIGINT PRIMARY KEY";
      s.execute("CREATE TABLE " + table + " (" + key + columns + ")");
      try (PreparedStatement p = c.prepareStatement(
          "MERGE INTO " + RESULTS + " KEY (VIEW_NAME) VALUES (?, ?, -1)")) {
        p.setString(1, view);
        p.setString(2, queryId);
        p.executeUpdate();
      }
      db.persist(c);
    }
    return new ResultTable(db, view, layout, types, keyColumns, -1, 0);
  }

  /** Deletes the result of view {@code view}, if it has one. */
  static void drop(ResultDatabase db, String view) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + tableName(view));
      s.execute("CREATE TABLE IF NOT EXISTS " + RESULTS + " (VIEW_NAME CHARACTER VARYING"
          + " PRIMARY KEY, QUERY_ID CHARACTER VARYING NOT NULL, BATCH_ID BIGINT NOT NULL)");
      try (PreparedStatement p = c.prepareStatement(
          "DELETE FROM " + RESULTS + " WHERE VIEW_NAME = ?")) {
        p.setString(1, view);
        p.executeUpdate();
      }
      db.persist(c);
    }
  }

  private static long nextSeq(Statement s, String table) throws SQLException {
    try (ResultSet r = s.executeQuery("SELECT COALESCE(MAX(SEQ$) + 1, 0) FROM " + table)) {
      r.next();
      return r.getLong(1);
    }
  }

  /** {@code RESULT$<view>}, quoted: any view name makes a valid identifier. */
  private static String tableName(String view) {
    return '"' + ("RESULT$" + view).replace("\"", "\"\"") + '"';
  }

  @Override public long batchId() {
    return batchId;
  }

  /**
   * Folds batch {@code batchId}'s rows into the result and records the batch id, in one durable
   * transaction. Rows may be wider than the view: columns after the view's are dropped.
   *
   * @throws SQLException if H2 fails; nothing of the batch is kept then
   */
  void apply(long batchId, List<Object[]> rows) throws SQLException {
    Connection c = writer();
    try {
      if (layout == Layout.REPLACE) {
        try (Statement s = c.createStatement()) {
          s.executeUpdate("DELETE FROM " + table);
        }
        nextSeq = 0;
      }
      PreparedStatement p = write;
      for (Object[] row : rows) {
        if (layout == Layout.UPSERT) {
          p.setBytes(1, encodeKey(row));
        } else {
          p.setLong(1, nextSeq++);
        }
        for (int i = 0; i < types.length; i++) {
          types[i].bind(p, i + 2, row[i]);
        }
        p.addBatch();
      }
      p.executeBatch();
      recordBatch.setLong(1, batchId);
      recordBatch.executeUpdate();
      c.commit();
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      closeWriter();
      throw e;
    }
    db.persist(c);
    this.batchId = batchId;
  }

  private Connection writer() throws SQLException {
    if (writer == null) {
      Connection c = db.connect();
      c.setAutoCommit(false);
      StringBuilder sql = new StringBuilder(layout == Layout.UPSERT
          ? "MERGE INTO " + table + " KEY (KEY$) VALUES (?" : "INSERT INTO " + table + " VALUES (?");
      sql.append(", ?".repeat(types.length)).append(')');
      write = c.prepareStatement(sql.toString());
      recordBatch = c.prepareStatement(
          "UPDATE " + RESULTS + " SET BATCH_ID = ? WHERE VIEW_NAME = ?");
      recordBatch.setString(2, view);
      writer = c;
    }
    return writer;
  }

  /** The group key of {@code row}: its key columns, each encoded by {@link StateCodec}. */
  private byte[] encodeKey(Object[] row) {
    keyBytes.reset();
    try {
      for (int column : keyColumns) {
        StateCodec.write(keyOut, row[column]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot encode the group key of view " + view, e);
    }
    return keyBytes.toByteArray();
  }

  /** Closes the batch thread's connection; the next batch opens another. */
  void closeWriter() {
    Connection c = writer;
    writer = null;
    write = null;
    recordBatch = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // The connection is discarded either way; H2 rolls back what it had not committed.
      }
    }
  }

  @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
    Object pinned = root.get(SNAPSHOT_VARIABLE);
    return new AbstractEnumerable<>() {
      @Override public Enumerator<@Nullable Object[]> enumerator() {
        try {
          return new RowEnumerator(pinned instanceof Connection ? (Connection) pinned : null);
        } catch (SQLException e) {
          throw new IllegalStateException("Cannot read the result of view " + view + ": " + e,
              e);
        }
      }
    };
  }

  /** Rows of the result table, read through a snapshot connection. */
  private final class RowEnumerator implements Enumerator<@Nullable Object[]> {
    /** The connection this enumerator opened, to close with it; null if pinned by the caller. */
    private final @Nullable Connection owned;
    private final Statement statement;
    private final ResultSet rows;
    private @Nullable Object[] current;

    RowEnumerator(@Nullable Connection pinned) throws SQLException {
      this.owned = pinned == null ? db.connectSnapshot() : null;
      Connection c = pinned == null ? owned : pinned;
      StringBuilder sql = new StringBuilder("SELECT ");
      for (int i = 0; i < types.length; i++) {
        sql.append(i == 0 ? "C" : ", C").append(i);
      }
      this.statement = requireNonNull(c).createStatement();
      this.rows = statement.executeQuery(sql.append(" FROM ").append(table).toString());
    }

    @Override public @Nullable Object[] current() {
      return current;
    }

    @Override public boolean moveNext() {
      try {
        if (!rows.next()) {
          return false;
        }
        Object[] row = new Object[types.length];
        for (int i = 0; i < row.length; i++) {
          row[i] = types[i].read(rows, i + 1);
        }
        current = row;
        return true;
      } catch (SQLException e) {
        throw new IllegalStateException("Cannot read the result of view " + view + ": " + e, e);
      }
    }

    @Override public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override public void close() {
      try {
        statement.close();
        if (owned != null) {
          owned.close();
        }
      } catch (SQLException e) {
        // Nothing was written through these; closing cannot lose anything.
      }
    }
  }
}

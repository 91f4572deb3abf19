package dev.freshet.engine.store;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.push.RowKind;
import dev.freshet.engine.errors.Errors;
import dev.freshet.planner.catalog.ViewResult;
import dev.freshet.planner.errors.SqlState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A materialized view's result, kept in a table of the engine's {@link ResultDatabase}: outside
 * the heap when the engine has a data directory, so a view may have far more groups than the
 * heap could hold, and durable, so the result survives restarts.
 *
 * <pre>{@code
 * ResultTable result = ResultTable.open(db, "PER_USER", queryId, rowType,
 *     ResultTable.Layout.UPSERT, ResultKey.of(new int[] {2}, keyTypes, 3), 100);
 * result.apply(7, rows);        // batch 7, in one transaction with the batch id
 * result.batchId();             // 7
 * }</pre>
 *
 * <p><b>Tables.</b> {@code FRESHET_VIEW_RESULTS} has one row per view: its name, the id of the query
 * that writes it, the name of its result table and the last batch applied. The result table
 * {@code "RESULT$<view>"} has the view's columns as {@code C0, C1, ...} ({@link StoredColumnType}
 * says how values are kept) and a key: {@code KEY$}, the group key as {@link ResultKey} keeps
 * it, for an upserted result; {@code SEQ$}, the row's position, for a replaced or appended one.
 * The {@link ChangeLog} keeps the changes of the last {@code retainedBatches} batches.
 *
 * <p><b>Exactly once.</b> A batch's rows and its id are written in one transaction, so after a
 * crash the table holds either the whole batch and its id or neither; the view's sink skips a
 * re-run batch whose id the table has. {@link ResultDatabase#persist} makes the commit durable
 * before the checkpoint records the batch.
 *
 * <p><b>Threads.</b> {@link #apply} is called by the query's batch thread only; readers use
 * connections of their own and see committed batches only.
 */
public final class ResultTable implements ViewResult {
  /** How a batch's rows change the result. */
  public enum Layout {
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
  public static final String SNAPSHOT_VARIABLE = "freshet.resultSnapshot";

  private static final String RESULTS = "FRESHET_VIEW_RESULTS";
  /** Elements of a change row after the view's columns (see {@link ChangeListener}). */
  static final int CHANGE_EXTRA_COLUMNS = 4;

  /**
   * Hears each committed batch's changes, on the query's batch thread, after the commit: each row
   * is the view's columns, then the batch id ({@code Long}), the {@link RowKind}, the group
   * key's encoding ({@code ByteBuffer}; UPSERT results only, else null) and whether the kind is
   * INSERT ({@code Boolean}), so that a subscriber can coalesce unread rows per group.
   */
  @FunctionalInterface
  public interface ChangeListener {
    void committed(long batchId, List<Object[]> changes);
  }

  private final ResultDatabase db;
  private final String view;
  private final String table;
  private final Layout layout;
  private final StoredColumnType[] types;
  private final ResultKey key;
  private final ChangeLog changes;
  /** How many batches of changes the table keeps behind the latest, for resuming readers. */
  private final int retainedBatches;
  private final CopyOnWriteArrayList<ChangeListener> listeners = new CopyOnWriteArrayList<>();
  /** The batch thread's connection; opened by the first batch. */
  private @Nullable Connection writer;
  /** INSERT of a row: {@code SEQ$} or {@code KEY$}, then the columns. */
  private @Nullable PreparedStatement insert;
  /** For {@link Layout#UPSERT}: UPDATE of a group's row, the columns then {@code KEY$}. */
  private @Nullable PreparedStatement update;
  private @Nullable PreparedStatement recordBatch;
  private ChangeLog.@Nullable Writer changeWriter;
  /** The next {@code SEQ$} of an appended row. */
  private long nextSeq;
  private volatile long batchId;

  private ResultTable(ResultDatabase db, String view, Layout layout, StoredColumnType[] types,
      ResultKey key, ChangeLog changes, int retainedBatches, long batchId, long nextSeq) {
    this.db = db;
    this.view = view;
    this.table = tableName(view);
    this.changes = changes;
    this.retainedBatches = retainedBatches;
    this.layout = layout;
    this.types = types;
    this.key = key;
    this.batchId = batchId;
    this.nextSeq = nextSeq;
  }

  /**
   * Opens the result of view {@code view} as query {@code queryId} left it, or creates it empty
   * if the table was written by another query (a view dropped and created again) or never.
   *
   * @param rowType the view's columns
   * @param key for {@link Layout#UPSERT}, where the rows that the query hands the sink hold the
   *     group key (after the view's columns, if they are hidden); {@link ResultKey#none()} else
   * @param retainedBatches how many batches of changes to keep behind the latest, at least 1
   * @throws SQLException (0A000) if a column has a type a result table cannot hold
   */
  public static ResultTable open(ResultDatabase db, String view, String queryId, RelDataType rowType,
      Layout layout, ResultKey key, int retainedBatches) throws SQLException {
    List<RelDataTypeField> fields = rowType.getFieldList();
    StoredColumnType[] types = new StoredColumnType[fields.size()];
    int[] scales = new int[types.length];
    StringBuilder columns = new StringBuilder();
    for (int i = 0; i < types.length; i++) {
      RelDataTypeField field = fields.get(i);
      types[i] = StoredColumnType.of(field.getType(), view, field.getName());
      scales[i] = StoredColumnType.scale(field.getType());
      columns.append(", C").append(i).append(' ').append(types[i].ddl(field.getType()));
    }
    String table = tableName(view);
    ChangeLog changes = new ChangeLog(view, types, scales);
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + RESULTS + " (VIEW_NAME CHARACTER VARYING"
          + " PRIMARY KEY, QUERY_ID CHARACTER VARYING NOT NULL, BATCH_ID BIGINT NOT NULL)");
      long batchId = batchWrittenBy(c, view, queryId);
      if (batchId != NOT_WRITTEN) {
        return new ResultTable(db, view, layout, types, key, changes, retainedBatches, batchId,
            layout == Layout.UPSERT ? 0 : nextSeq(s, table));
      }
      // A result left by an earlier view of this name belongs to a query that is gone.
      s.execute("DROP TABLE IF EXISTS " + table);
      changes.create(s);
      s.execute("CREATE TABLE " + table + " ("
          + (layout == Layout.UPSERT ? key.ddl() : "SEQ$ BIGINT PRIMARY KEY") + columns + ")");
      try (PreparedStatement p = c.prepareStatement(
          "MERGE INTO " + RESULTS + " KEY (VIEW_NAME) VALUES (?, ?, -1)")) {
        p.setString(1, view);
        p.setString(2, queryId);
        p.executeUpdate();
      }
      db.persist(c);
    }
    return new ResultTable(db, view, layout, types, key, changes, retainedBatches, -1, 0);
  }

  /** What {@link #batchWrittenBy} answers for a result that the query has not written. */
  private static final long NOT_WRITTEN = -2;

  /**
   * The last batch that query {@code queryId} applied to the result of view {@code view} (-1 if
   * none yet), or {@link #NOT_WRITTEN} if another query wrote it, or none did.
   */
  private static long batchWrittenBy(Connection c, String view, String queryId)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "SELECT QUERY_ID, BATCH_ID FROM " + RESULTS + " WHERE VIEW_NAME = ?")) {
      p.setString(1, view);
      try (ResultSet r = p.executeQuery()) {
        return r.next() && r.getString(1).equals(queryId) ? r.getLong(2) : NOT_WRITTEN;
      }
    }
  }

  /** Deletes the result of view {@code view}, if it has one. */
  public static void drop(ResultDatabase db, String view) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + tableName(view));
      ChangeLog.drop(s, view);
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
    return quote("RESULT$" + view);
  }

  /** {@code name} as a quoted identifier. */
  static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  @Override public long batchId() {
    return batchId;
  }

  /** How batches change this result. */
  public Layout layout() {
    return layout;
  }

  /**
   * Folds batch {@code batchId}'s rows into the result and records the batch id, in one durable
   * transaction. Rows may be wider than the view: columns after the view's are dropped. For
   * {@link Layout#UPSERT}, a batch has at most one row per group, as an aggregation emits.
   *
   * @throws SQLException if H2 fails; nothing of the batch is kept then
   */
  void apply(long batchId, List<Object[]> rows) throws SQLException {
    Connection c = writer();
    List<Object[]> changed = new ArrayList<>(rows.size());
    try {
      if (layout == Layout.REPLACE) {
        // Every row of the old table leaves it; the batch's rows are the new table.
        for (Object[] old : readAll(c)) {
          changed.add(change(old, types.length, batchId, RowKind.DELETE, null));
        }
        try (Statement s = c.createStatement()) {
          s.executeUpdate("DELETE FROM " + table);
        }
        nextSeq = 0;
      }
      if (layout == Layout.UPSERT) {
        upsert(batchId, rows, changed);
      } else {
        append(batchId, rows, changed);
      }
      changeWriter.write(batchId, changed);
      changeWriter.purge(batchId - retainedBatches);
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
    for (ChangeListener listener : listeners) {
      listener.committed(batchId, changed);
    }
  }

  /** Adds {@code rows} after the result's rows, each an {@link RowKind#INSERT}. */
  private void append(long batchId, List<Object[]> rows, List<Object[]> changed)
      throws SQLException {
    PreparedStatement p = insert;
    for (Object[] row : rows) {
      p.setLong(1, nextSeq++);
      bindColumns(p, 2, row);
      p.addBatch();
      changed.add(change(row, types.length, batchId, RowKind.INSERT, null));
    }
    p.executeBatch();
  }

  /**
   * Writes each of {@code rows} as its group's row: an {@link RowKind#UPDATE} of the row the
   * result has, or an {@link RowKind#INSERT} if it has none.
   *
   * <p>Which one needs no lookup of its own. A group the aggregation flags as new had no state
   * before the batch, so no batch before emitted it and the result has no row for it (a group
   * that the watermark evicted from state keeps its row, but can never come back: its rows are
   * late). Any other group is updated, and the UPDATE's count says whether the result had its
   * row: a HAVING clause may have kept every earlier row of the group out.
   */
  private void upsert(long batchId, List<Object[]> rows, List<Object[]> changed)
      throws SQLException {
    int n = rows.size();
    byte[][] keys = new byte[n][];
    for (int r = 0; r < n; r++) {
      keys[r] = key.encode(rows.get(r));
    }
    // Written in the table's order; the changes stay in the batch's.
    int[] order = key.tableOrder(keys);
    boolean[] inserted = new boolean[n];
    int[] updated = new int[n];
    int updates = 0;
    for (int r : order) {
      Object[] row = rows.get(r);
      if (key.isNewGroup(row)) {
        inserted[r] = true;
      } else {
        bindColumns(update, 1, row);
        key.bind(update, types.length + 1, row, keys[r]);
        update.addBatch();
        updated[updates++] = r;
      }
    }
    if (updates > 0) {
      int[] counts = update.executeBatch();
      for (int u = 0; u < updates; u++) {
        inserted[updated[u]] = counts[u] == 0;
      }
    }
    boolean inserts = false;
    for (int r : order) {
      if (inserted[r]) {
        key.bind(insert, 1, rows.get(r), keys[r]);
        bindColumns(insert, 2, rows.get(r));
        insert.addBatch();
        inserts = true;
      }
    }
    if (inserts) {
      insert.executeBatch();
    }
    for (int r = 0; r < n; r++) {
      changed.add(change(rows.get(r), types.length, batchId,
          inserted[r] ? RowKind.INSERT : RowKind.UPDATE, keys[r]));
    }
  }

  /** Binds the view's columns of {@code row} to parameters {@code first}, ... of {@code p}. */
  private void bindColumns(PreparedStatement p, int first, Object[] row) throws SQLException {
    for (int i = 0; i < types.length; i++) {
      types[i].bind(p, first + i, row[i]);
    }
  }

  /**
   * Hands {@code listener} the view's result and then every later change, with no gap and no
   * duplicate: first, in one call, the rows of the last committed batch {@code b} as
   * {@link RowKind#INSERT}s with batch id {@code b} (nothing before the first batch); or, if
   * {@code sinceBatch} is 0 or more, the recorded changes of each batch after {@code sinceBatch}
   * up to {@code b}, one call per batch; then each batch after {@code b} as it commits. The first
   * calls come from this thread, later ones from the query's batch thread.
   *
   * @return a handle whose {@code close()} ends the subscription
   * @throws SQLException (22023) if {@code sinceBatch} is after the latest batch, or its changes
   *     are no longer retained
   */
  public AutoCloseable subscribe(long sinceBatch, ChangeListener listener) throws SQLException {
    Gate gate = new Gate(listener);
    // Registered before the snapshot is taken: a batch committed later reaches the gate.
    listeners.add(gate);
    try (Connection snapshot = db.connectSnapshot()) {
      long latest = latestBatch(snapshot);
      if (sinceBatch < 0) {
        if (latest >= 0) {
          List<Object[]> rows = new ArrayList<>();
          for (Object[] row : readAll(snapshot)) {
            rows.add(change(row, types.length, latest, RowKind.INSERT,
                (byte[]) row[types.length]));
          }
          listener.committed(latest, rows);
        }
      } else {
        replayChanges(snapshot, sinceBatch, latest, listener);
      }
      gate.goLive(latest);
      return () -> listeners.remove(gate);
    } catch (SQLException | RuntimeException e) {
      listeners.remove(gate);
      throw e;
    }
  }

  private long latestBatch(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "SELECT BATCH_ID FROM " + RESULTS + " WHERE VIEW_NAME = ?")) {
      p.setString(1, view);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? r.getLong(1) : -1;
      }
    }
  }

  private void replayChanges(Connection c, long sinceBatch, long latest, ChangeListener listener)
      throws SQLException {
    if (sinceBatch > latest) {
      throw Errors.of(SqlState.INVALID_PARAMETER_VALUE, "View " + view + " has no version "
          + sinceBatch + ": its latest is " + latest + ". Resume from a version you have seen,"
          + " or subscribe without 'since_version' to start from the view's current rows");
    }
    if (sinceBatch == latest) {
      return;
    }
    Long oldest = changes.oldestBatch(c);
    if (oldest == null || oldest > sinceBatch + 1) {
      throw Errors.of(SqlState.INVALID_PARAMETER_VALUE, "View " + view + " no longer keeps the"
          + " changes after version " + sinceBatch + (oldest == null ? ""
          : ": the oldest it keeps are those of version " + oldest) + ". Subscribe without"
          + " 'since_version' to start from the view's current rows, or keep more versions with"
          + " SET 'min.batches.to.retain'");
    }
    changes.replay(c, sinceBatch, listener);
  }

  /**
   * Holds back the batches that commit while a subscriber reads its starting point, then hands on
   * those after it and every later one.
   */
  private static final class Gate implements ChangeListener {
    private final ChangeListener target;
    private final List<Long> heldIds = new ArrayList<>();
    private final List<List<Object[]>> held = new ArrayList<>();
    private boolean live;
    private long startAfter;

    Gate(ChangeListener target) {
      this.target = target;
    }

    @Override public synchronized void committed(long batchId, List<Object[]> changes) {
      if (!live) {
        heldIds.add(batchId);
        held.add(changes);
      } else if (batchId > startAfter) {
        target.committed(batchId, changes);
      }
    }

    synchronized void goLive(long latest) {
      startAfter = latest;
      live = true;
      for (int i = 0; i < held.size(); i++) {
        long id = heldIds.get(i);
        if (id > latest) {
          target.committed(id, held.get(i));
        }
      }
      held.clear();
      heldIds.clear();
    }
  }

  /**
   * A change row ({@link ChangeListener}): the first {@code columns} columns of {@code row} (the
   * view's), the batch id, the kind, the group key ({@link Layout#UPSERT} only, else null)
   * and whether the kind is {@link RowKind#INSERT}.
   */
  static Object[] change(Object[] row, int columns, long batchId, RowKind kind,
      byte @Nullable [] key) {
    Object[] change = Arrays.copyOf(row, columns + CHANGE_EXTRA_COLUMNS);
    change[columns] = batchId;
    change[columns + 1] = kind;
    change[columns + 2] = key == null ? null : ByteBuffer.wrap(key);
    change[columns + 3] = kind == RowKind.INSERT;
    return change;
  }

  /** Every row of the result: its columns, then its group key's encoding (UPSERT) or null. */
  private List<Object[]> readAll(Connection c) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    boolean keyed = layout == Layout.UPSERT;
    try (Statement s = c.createStatement();
         ResultSet r = s.executeQuery("SELECT " + (keyed ? "KEY$, " : "NULL, ") + columnList()
             + " FROM " + table)) {
      while (r.next()) {
        Object[] row = Arrays.copyOf(readRow(r, 2), types.length + 1);
        row[types.length] = keyed ? key.read(r, 1) : null;
        rows.add(row);
      }
    }
    return rows;
  }

  private String columnList() {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < types.length; i++) {
      sql.append(i == 0 ? "C" : ", C").append(i);
    }
    return sql.toString();
  }

  /** The view's columns of the current row of {@code r}, starting at column {@code first}. */
  private Object[] readRow(ResultSet r, int first) throws SQLException {
    Object[] row = new Object[types.length];
    for (int i = 0; i < row.length; i++) {
      row[i] = types[i].read(r, first + i);
    }
    return row;
  }

  private Connection writer() throws SQLException {
    if (writer == null) {
      Connection c = db.connect();
      c.setAutoCommit(false);
      insert = c.prepareStatement("INSERT INTO " + table + " VALUES (?"
          + ", ?".repeat(types.length) + ")");
      if (layout == Layout.UPSERT) {
        StringBuilder sql = new StringBuilder("UPDATE " + table + " SET ");
        for (int i = 0; i < types.length; i++) {
          sql.append(i == 0 ? "C" : ", C").append(i).append(" = ?");
        }
        update = c.prepareStatement(sql.append(" WHERE KEY$ = ?").toString());
      }
      recordBatch = c.prepareStatement(
          "UPDATE " + RESULTS + " SET BATCH_ID = ? WHERE VIEW_NAME = ?");
      recordBatch.setString(2, view);
      changeWriter = changes.writer(c);
      writer = c;
    }
    return writer;
  }

  /** Closes the batch thread's connection; the next batch opens another. */
  void closeWriter() {
    Connection c = writer;
    writer = null;
    insert = null;
    update = null;
    recordBatch = null;
    changeWriter = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // The connection is discarded either way; H2 rolls back what it had not committed.
      }
    }
  }

  @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
    return scan(root, List.of(), null);
  }

  /**
   * The result's rows, {@code projects}' columns only if not null; for an {@link Layout#UPSERT}
   * result whose key is one column that the view shows, if {@code filters} require that column
   * to equal a value, only the row of that key, which H2 finds by {@code KEY$}: as a
   * {@code BIGINT} for an integral key that cannot be NULL, by its encoding for a VARCHAR key.
   * Otherwise every row. {@code filters} are left as they are, for Calcite to apply.
   *
   * <pre>{@code
   * // view (K BIGINT NOT NULL, N BIGINT) grouped by K: SELECT C0, C1 ... WHERE KEY$ = 7
   * result.scan(root, List.of(kEquals7), null);
   * }</pre>
   */
  @Override public Enumerable<@Nullable Object[]> scan(DataContext root, List<RexNode> filters,
      int @Nullable [] projects) {
    Object pinned = root.get(SNAPSHOT_VARIABLE);
    Object keyValue = keyValue(root, filters);
    int[] read = projects != null ? projects.clone() : allColumns();
    return new AbstractEnumerable<>() {
      @Override public Enumerator<@Nullable Object[]> enumerator() {
        try {
          return new RowEnumerator(pinned instanceof Connection ? (Connection) pinned : null,
              read, keyValue);
        } catch (SQLException e) {
          throw new IllegalStateException("Cannot read the result of view " + view + ": " + e,
              e);
        }
      }
    };
  }

  /**
   * The group key that {@code filters} require, in the class {@link ResultKey#bindValue} takes;
   * null if they require none, or one this table cannot look up.
   */
  private @Nullable Object keyValue(DataContext root, List<RexNode> filters) {
    if (layout != Layout.UPSERT || filters.isEmpty()) {
      return null;
    }
    int column = key.visibleColumn();
    if (column < 0) {
      return null;
    }
    if (key.format() == ResultKey.Format.LONG) {
      return KeyEquality.integral(filters, column, root);
    }
    // An encoded key is found by its bytes, so the value must be of the class the rows hold:
    // a VARCHAR column's is always a String; other types are read in full.
    return types[column] == StoredColumnType.VARCHAR
        ? KeyEquality.string(filters, column, root) : null;
  }

  private int[] allColumns() {
    int[] all = new int[types.length];
    Arrays.setAll(all, i -> i);
    return all;
  }

  /** Rows of the result table, read through a snapshot connection. */
  private final class RowEnumerator implements Enumerator<@Nullable Object[]> {
    /** The connection this enumerator opened, to close with it; null if pinned by the caller. */
    private final @Nullable Connection owned;
    private final PreparedStatement statement;
    private final ResultSet rows;
    /** The view's columns that each row holds, in order. */
    private final int[] read;
    private @Nullable Object[] current;

    RowEnumerator(@Nullable Connection pinned, int[] read, @Nullable Object keyValue)
        throws SQLException {
      this.owned = pinned == null ? db.connectSnapshot() : null;
      this.read = read;
      Connection c = pinned == null ? owned : pinned;
      // A row must have a column: SELECT COUNT(*) FROM v reads none.
      StringBuilder sql = new StringBuilder(read.length == 0 ? "SELECT 1" : "SELECT ");
      for (int i = 0; i < read.length; i++) {
        sql.append(i == 0 ? "C" : ", C").append(read[i]);
      }
      sql.append(" FROM ").append(table);
      if (keyValue != null) {
        sql.append(" WHERE KEY$ = ?");
      }
      PreparedStatement p = requireNonNull(c).prepareStatement(sql.toString());
      try {
        if (keyValue != null) {
          key.bindValue(p, 1, keyValue);
        }
        this.rows = p.executeQuery();
      } catch (SQLException | RuntimeException e) {
        p.close();
        if (owned != null) {
          owned.close();
        }
        throw e;
      }
      this.statement = p;
    }

    @Override public @Nullable Object[] current() {
      return current;
    }

    @Override public boolean moveNext() {
      try {
        if (!rows.next()) {
          return false;
        }
        Object[] row = new Object[read.length];
        for (int i = 0; i < row.length; i++) {
          row[i] = types[read[i]].read(rows, i + 1);
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

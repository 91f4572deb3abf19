package dev.freshet.engine.view;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.types.SqlType;
import dev.freshet.engine.push.RowKind;
import dev.freshet.executor.state.PinnedStateStore;
import dev.freshet.executor.state.StatePartitions;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.planner.SqlTypes;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The result of a materialized view in UPDATE mode, read from its aggregation's committed state:
 * no second copy of a group is written anywhere; a row is computed from the group's saved value
 * when it is read ({@link ViewFinalizer}).
 *
 * <pre>{@code
 * StateViewResult result = StateViewResult.open("PER_USER", providers, finalizer, 0, BIGINT);
 * // batch thread, after the aggregation committed batch 7's state (version 8):
 * result.publish(7, changeRows);
 * // any thread: the rows of batch 7, or of a later one, whole
 * result.scan(root, filters, null);
 * }</pre>
 *
 * <p><b>Consistency.</b> Readers see published versions only ({@link ViewVersion}): a batch's
 * state on every partition, pinned, published once every partition committed it. A statement pins
 * the current version of each view it reads when it starts ({@link ViewPins}), so a self-join
 * reads one version. <b>Subscriptions</b> get the current rows (or the changes after a version
 * they saw) and then each published batch's change rows, none twice ({@link ChangeGate}).
 */
public final class StateViewResult extends PublishedResult {
  private final List<StateStoreProvider<Object, Object[]>> partitions;
  private final GroupRows finalizer;
  /** The view column that shows a one-column key as it is, or -1. */
  private final int keyColumn;
  private final @Nullable SqlTypeName keyType;
  /**
   * The groups the watermark evicted, finalized, keyed by state key if lookups by key are
   * possible ({@link #keyColumn}); null without an event-time key.
   */
  private final @Nullable AppendedRows evicted;

  private StateViewResult(String view, List<StateStoreProvider<Object, Object[]>> partitions,
      GroupRows finalizer, int columns, int keyColumn, @Nullable SqlTypeName keyType,
      @Nullable AppendedRows evicted) {
    super(view, columns);
    this.evicted = evicted;
    this.partitions = List.copyOf(partitions);
    this.finalizer = requireNonNull(finalizer, "finalizer");
    this.keyColumn = keyColumn;
    this.keyType = keyType;
  }

  /**
   * Opens the result of a view whose aggregation keeps its state in {@code partitions}, and
   * publishes the newest batch that every partition, {@code evicted} and the commit log have
   * (after a restart: never one only partly committed, nor one that will run again).
   *
   * @param columns the view's columns
   * @param keyColumn the view column that shows the group key as it is, if the key is one
   *     column; else -1 (lookups by key then read every row)
   * @param keyType that column's type
   * @param evicted where the groups that the watermark evicts are kept, keyed by their state
   *     key; null if the aggregation has no event-time key
   * @param committedBatch the last batch in the query's commit log (-1 if none; Long.MAX_VALUE
   *     without a checkpoint): a batch whose state was committed but whose commit was not is run
   *     again, and is not shown before
   */
  public static StateViewResult open(String view,
      List<StateStoreProvider<Object, Object[]>> partitions, GroupRows finalizer,
      int columns, int keyColumn, @Nullable SqlTypeName keyType,
      @Nullable AppendedRows evicted, long committedBatch) {
    StateViewResult result = new StateViewResult(view, partitions, finalizer, columns,
        keyColumn, keyType, evicted);
    long committed = Long.MAX_VALUE;
    for (StateStoreProvider<Object, Object[]> p : partitions) {
      committed = Math.min(committed, p.latestCommittedVersion());
    }
    long batch = committed == Long.MAX_VALUE ? -1 : Math.min(committed - 1, committedBatch);
    if (evicted != null) {
      batch = Math.min(batch, evicted.lastBatch());
    }
    if (batch >= 0) {
      result.publish(result.version(batch), List.of(), true);
    }
    return result;
  }

  /** Version {@code batchId}: its state, pinned, and the groups evicted up to it. */
  private ViewVersion version(long batchId) {
    return new ViewVersion(batchId, pinAll(batchId + 1),
        evicted == null ? null : evicted.snapshot(batchId));
  }

  /** {@inheritDoc} The view's changes, read from its state stores ({@link ViewChangeSource}). */
  @Override public java.util.Optional<dev.freshet.executor.source.Source> newChangeSource() {
    return java.util.Optional.of(new ViewChangeSource(this));
  }

  /**
   * The rows of the groups the watermark evicted up to state version {@code stateVersion}: part
   * of the view at that version beside the state's groups. None without an event-time key.
   */
  Iterable<Object[]> evictedRows(long stateVersion) {
    return evicted == null ? java.util.List.of() : evicted.snapshot(stateVersion - 1).rows();
  }

  /** Whether the watermark evicts groups: then a group leaving the state stays in the view. */
  boolean evicts() {
    return evicted != null;
  }

  /**
   * State version {@code stateVersion} (batch {@code stateVersion - 1}) of every partition,
   * pinned; the caller closes the pins.
   */
  List<PinnedStateStore<Object, Object[]>> pinVersion(long stateVersion) {
    return pinAll(stateVersion);
  }

  /**
   * Hands {@code visitor} the changes of state versions {@code from + 1} to {@code to}, per
   * partition in version order; false, having handed nothing, if a partition no longer keeps
   * them.
   */
  boolean readStateChanges(long from, long to, ViewChangeSource.GroupChange visitor) {
    try {
      for (StateStoreProvider<Object, Object[]> p : partitions) {
        if (p.oldestChangesVersion() > from) {
          return false;
        }
      }
    } catch (UnsupportedOperationException e) {
      return false;
    }
    for (StateStoreProvider<Object, Object[]> p : partitions) {
      p.readChanges(from, to, (version, key, oldValue, newValue) ->
          visitor.change(key, oldValue, newValue));
    }
    return true;
  }

  /** Whether {@link #publish} needs the state keys of the evicted groups (lookups by key). */
  public boolean keysEvicted() {
    return evicted != null && keyColumn >= 0;
  }

  /** How the view's rows are read from the state: {@link ViewFinalizer}, or the saved row. */
  public GroupRows finalizer() {
    return finalizer;
  }

  /**
   * Publishes batch {@code batchId}, whose state (version {@code batchId + 1}) every partition
   * has committed, then hands {@code changes} to the subscribers. First the rows of the groups
   * the batch evicted are kept, durably. A batch published already (a re-run after a restart) is
   * pinned again and hands nothing on. Batch thread only.
   *
   * @param changes change rows as {@link ChangeListener} describes them
   * @param evictedRows the view's rows of the groups the batch evicted (empty without an
   *     event-time key)
   * @param evictedKeys their state keys, if {@link #keysEvicted()}; else ignored
   */
  public void publish(long batchId, List<Object[]> changes, List<Object[]> evictedRows,
      List<Object> evictedKeys) {
    boolean rerun = batchId <= batchId();
    if (evicted != null) {
      // Every batch, also one that evicts nothing: its last batch says how far the view got.
      evicted.addBatch(batchId, evictedRows, keyColumn >= 0 ? evictedKeys : null);
    }
    stage(version(batchId), changes, rerun);
  }

  /**
   * The view's row of group {@code key} in the version before the one being published, or null:
   * what a subscriber has for the group. Batch thread only, while it publishes.
   */
  @Nullable Object[] publishedRow(Object key) {
    ViewVersion v = current();
    if (v.partitions() == 0) {
      return null;
    }
    Object[] saved = v.partition(StatePartitions.of(key, partitions.size())).get(key);
    return saved == null ? null : finalizer.row(key, saved);
  }

  private List<PinnedStateStore<Object, Object[]>> pinAll(long stateVersion) {
    List<PinnedStateStore<Object, Object[]>> pins = new ArrayList<>(partitions.size());
    try {
      for (StateStoreProvider<Object, Object[]> p : partitions) {
        pins.add(p.pin(stateVersion));
      }
      return pins;
    } catch (RuntimeException e) {
      pins.forEach(PinnedStateStore::close);
      throw e;
    }
  }

  /**
   * The view's rows in the version the statement pinned ({@link ViewPins}), or the current one;
   * {@code projects}' columns only if not null. If {@code filters} require the view's key
   * column (a one-column key shown as it is) to equal a value, only that group's row, found in
   * its partition by key. {@code filters} are left as they are, for Calcite to apply.
   */
  @Override public Enumerable<@Nullable Object[]> scan(DataContext root, List<RexNode> filters,
      int @Nullable [] projects) {
    Object key = keyColumn < 0 || filters.isEmpty() ? null : lookupKey(root, filters);
    ViewVersion pinned = pinnedBy(root);
    return new AbstractEnumerable<>() {
      @Override public Enumerator<@Nullable Object[]> enumerator() {
        if (pinned != null) {
          // The statement holds the version until it ends, whether Calcite closes this or not.
          return enumerate(pinned, key, projects);
        }
        ViewVersion v;
        try {
          v = pin();
        } catch (SQLException e) {
          throw new IllegalStateException(e.getMessage(), e);
        }
        try {
          List<@Nullable Object[]> rows = new ArrayList<>();
          for (Enumerator<@Nullable Object[]> e = enumerate(v, key, projects); e.moveNext(); ) {
            rows.add(e.current());
          }
          return Linq4j.enumerator(rows);
        } finally {
          v.release();
        }
      }
    };
  }

  private Enumerator<@Nullable Object[]> enumerate(ViewVersion v, @Nullable Object key,
      int @Nullable [] projects) {
    if (key == null) {
      return new RowEnumerator(v, projects);
    }
    Object[] row = lookup(v, key);
    return Linq4j.enumerator(row == null ? List.<@Nullable Object[]>of()
        : List.<@Nullable Object[]>of(project(row, projects)));
  }

  private @Nullable Object[] lookup(ViewVersion v, Object key) {
    if (v.partitions() == 0) {
      return null;
    }
    Object[] saved = v.partition(StatePartitions.of(key, partitions.size())).get(key);
    if (saved != null) {
      return finalizer.row(key, saved);
    }
    AppendedRows.Snapshot appended = v.appended();
    return appended == null ? null : appended.get(key);
  }

  /**
   * The state key that {@code filters} require, in the class the state holds it in; null if
   * they require none, or one of a type looked up by scanning.
   */
  private @Nullable Object lookupKey(DataContext root, List<RexNode> filters) {
    if (keyType == null) {
      return null;
    }
    SqlType key = SqlTypes.of(keyType);
    if (key == SqlType.VARCHAR) {
      return KeyEquality.string(filters, keyColumn, root);
    }
    if (key == SqlType.BIGINT || key == SqlType.INTEGER) {
      // In the class the state holds the key in: an INTEGER's Integer, if the value fits one.
      Long value = KeyEquality.integral(filters, keyColumn, root);
      return value == null ? null : key.wholeNumber(value);
    }
    return null;
  }

  @Override List<Object[]> snapshot(ViewVersion v) {
    List<Object[]> rows = new ArrayList<>();
    for (int p = 0; p < v.partitions(); p++) {
      for (Map.Entry<Object, Object[]> e : v.partition(p).entries()) {
        Object[] row = finalizer.row(e.getKey(), e.getValue());
        if (row != null) {
          rows.add(ViewChanges.row(row, columns, v.batchId(), RowKind.INSERT, e.getKey()));
        }
      }
    }
    AppendedRows.Snapshot appended = v.appended();
    if (appended != null) {
      // Keyed by state key for coalescing; an evicted group's key no longer changes.
      for (Object[] row : appended.rows()) {
        rows.add(ViewChanges.row(row, columns, v.batchId(), RowKind.INSERT, new Object()));
      }
    }
    return rows;
  }

  /** {@inheritDoc} From the state stores' retained changes, per partition. */
  @Override void replay(long sinceBatch, ViewVersion v, ChangeListener listener)
      throws SQLException {
    long latest = v.batchId();
    // Batch b committed state version b + 1; the changes after the reader's are versions
    // sinceBatch + 2 to latest + 1.
    TreeMap<Long, List<Object[]>> batches = new TreeMap<>();
    try {
      for (StateStoreProvider<Object, Object[]> p : partitions) {
        p.readChanges(sinceBatch + 1, latest + 1, (version, key, oldValue, newValue) -> {
          Object[] change = change(version - 1, key, oldValue, newValue);
          if (change != null) {
            batches.computeIfAbsent(version - 1, b -> new ArrayList<>()).add(change);
          }
        });
      }
    } catch (StateStoreException | UnsupportedOperationException e) {
      throw changesNotKept(sinceBatch, oldestKept(), e);
    }
    for (Map.Entry<Long, List<Object[]>> batch : batches.entrySet()) {
      listener.committed(batch.getKey(), batch.getValue());
    }
  }

  /** The oldest version a subscriber can resume after, or -1 if unknown. */
  private long oldestKept() {
    long oldest = -1;
    try {
      for (StateStoreProvider<Object, Object[]> p : partitions) {
        oldest = Math.max(oldest, p.oldestChangesVersion() - 1);
      }
    } catch (RuntimeException e) {
      return -1;
    }
    return oldest;
  }

  /**
   * The change row of one group in batch {@code batchId}, from its saved values before and
   * after; null if nothing a reader sees changed (a group the watermark evicted leaves the state,
   * not the view; one that a retracting input emptied leaves both: a DELETE).
   */
  private @Nullable Object[] change(long batchId, Object key, Object @Nullable [] oldValue,
      Object @Nullable [] newValue) {
    if (newValue == null && evicted != null) {
      return null;
    }
    Object[] was = oldValue == null ? null : finalizer.row(key, oldValue);
    // Without a watermark a group leaves the state only when a retracting input empties it.
    Object[] is = newValue == null ? null : finalizer.row(key, newValue);
    if (is != null) {
      return ViewChanges.row(is, columns, batchId, was == null ? RowKind.INSERT : RowKind.UPDATE,
          key);
    }
    return was == null ? null : ViewChanges.row(was, columns, batchId, RowKind.DELETE, key);
  }

  /** {@inheritDoc} Then closes the state store providers. */
  @Override public void close() {
    super.close();
    if (evicted != null) {
      evicted.close();
    }
    for (StateStoreProvider<Object, Object[]> p : partitions) {
      p.close();
    }
  }

  /** Every row of a version, partition by partition, while the caller holds the version. */
  private final class RowEnumerator implements Enumerator<@Nullable Object[]> {
    private final ViewVersion version;
    private final int @Nullable [] projects;
    private int partition = -1;
    private @Nullable Iterator<Map.Entry<Object, Object[]>> entries;
    private @Nullable Iterator<Object[]> appendedRows;
    private @Nullable Object[] row;

    RowEnumerator(ViewVersion version, int @Nullable [] projects) {
      this.version = version;
      this.projects = projects;
    }

    @Override public @Nullable Object[] current() {
      return row;
    }

    @Override public boolean moveNext() {
      while (true) {
        while (entries == null || !entries.hasNext()) {
          if (++partition >= version.partitions()) {
            return moveNextAppended();
          }
          entries = version.partition(partition).entries().iterator();
        }
        Map.Entry<Object, Object[]> e = entries.next();
        Object[] finished = finalizer.row(e.getKey(), e.getValue());
        if (finished != null) {
          row = project(finished, projects);
          return true;
        }
      }
    }

    /** After the state's rows, those of the evicted groups. */
    private boolean moveNextAppended() {
      AppendedRows.Snapshot appended = version.appended();
      if (appended == null) {
        row = null;
        return false;
      }
      if (appendedRows == null) {
        appendedRows = appended.rows().iterator();
      }
      if (!appendedRows.hasNext()) {
        row = null;
        return false;
      }
      row = project(appendedRows.next(), projects);
      return true;
    }

    @Override public void reset() {
      partition = -1;
      entries = null;
      appendedRows = null;
      row = null;
    }

    @Override public void close() {
    }
  }
}

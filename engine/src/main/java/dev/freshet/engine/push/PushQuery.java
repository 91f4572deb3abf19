package dev.freshet.engine.push;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.Failures;
import dev.freshet.executor.runtime.Sink;
import dev.freshet.executor.runtime.StreamingQuery;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.executor.limits.MemoryBudgetExceededException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import dev.freshet.engine.options.SessionOption;

/**
 * The subscriber's end of a continuous query: rows of each micro-batch, in order, as soon as the
 * batch completes, each ending with {@value #BATCH_ID} (the batch that produced it) and
 * {@value #ROW_KIND} (the {@link RowKind#text()} of INSERT, UPDATE, DELETE, or BATCH_END for the
 * optional end-of-batch marker).
 *
 * <pre>{@code
 * Object[] row = push.next(Duration.ofSeconds(1));   // null if no row came within a second
 * push.close();                                      // stops the query
 * }</pre>
 *
 * <p>Memory per subscription is bounded whatever the reader's pace, and the batch thread never
 * waits for the reader (it only takes this object's monitor for as long as handing over a batch
 * takes). How unread rows are kept depends on the {@link PushPolicy}: an UPDATE result keeps the
 * latest unread row per key, a COMPLETE result the table being read and the latest unread one,
 * and an APPEND result at most {@code bufferRows} rows, beyond which the subscription fails.
 *
 * <p>Buffered rows carry their {@link RowKind} constant, which the buffers compare; each row is
 * this subscription's own copy, and its kind becomes the kind's text as the reader takes it.
 *
 * <p>Thread-safe: the query's batch thread adds rows while one reader takes them.
 */
public final class PushQuery implements AutoCloseable {
  /** Name of the trailing column that holds the id of the batch that produced the row. */
  public static final String BATCH_ID = "_BATCH_ID";
  /** Name of the trailing column that says what the row is. */
  public static final String ROW_KIND = "_ROW_KIND";

  /** Ends the stream of rows; {@code error} is null after a normal stop. */
  private record End(Throwable error) {
  }

  /** Key of the batch marker among the unread rows of an UPSERT result. */
  private static final Object MARKER_KEY = new Object();
  /** Key of every row of a result without grouping columns: it has one group. */
  private static final Object NO_KEY = new Object();

  private final PushPolicy policy;
  /** Number of the query's own columns, before {@value #BATCH_ID} and {@value #ROW_KIND}. */
  private final int visible;
  /** Positions of the group key in the rows the query emits; {@link PushPolicy} Upsert, Table. */
  private final int[] keyColumns;
  private final boolean markers;
  private final ScheduledExecutorService scheduler;
  private StreamingQuery query;

  // Guarded by this; the reader waits on this for rows.
  /**
   * APPEND: unread rows in order; TABLE: the rest of the table being read; UPSERT: the rest of
   * the batch the reader has begun, which no later batch coalesces into.
   */
  private final ArrayDeque<Object[]> ready = new ArrayDeque<>();
  /** UPSERT: the latest unread row per key, oldest first; the marker under {@link #MARKER_KEY}. */
  private final LinkedHashMap<Object, Object[]> unread = new LinkedHashMap<>();
  /** TABLE: the latest table no row of which has been read, with kinds against pendingBase. */
  private List<Object[]> pendingTable;
  /** TABLE: the table the reader will have once it has read {@link #ready}. */
  private Map<Object, Object[]> pendingBase;
  /** TABLE: the latest batch's table by key; what the next batch is compared with. */
  private Map<Object, Object[]> lastTable = new HashMap<>();
  /** Set when the query stopped or this subscription failed; read after the rows before it. */
  private End end;
  /** Set when this subscription failed (buffer overflow, timeout) while its query stops. */
  private SQLException failure;
  private int maxBuffered;
  private ScheduledFuture<?> expiry;
  /** The last batch whose rows were all handed over; null before the first. */
  private Long lastBatch;

  /** Set when the reader has reached the end; later reads return it again. */
  private volatile boolean endReached;

  /**
   * Creates the subscriber's end.
   *
   * @param policy how unread rows are kept
   * @param visible number of the query's own columns
   * @param markers whether each batch ends with a {@link RowKind#BATCH_END} row
   * @param scheduler runs the query timeout
   */
  public PushQuery(PushPolicy policy, int visible, boolean markers,
      ScheduledExecutorService scheduler) {
    this.policy = requireNonNull(policy, "policy");
    this.visible = visible;
    this.keyColumns = policy instanceof PushPolicy.Upsert upsert ? upsert.keyColumns()
        : policy instanceof PushPolicy.Table table ? table.keyColumns() : new int[0];
    this.markers = markers;
    this.scheduler = requireNonNull(scheduler, "scheduler");
  }

  public void attach(StreamingQuery query) {
    this.query = requireNonNull(query, "query");
  }

  /** The continuous query behind this result. */
  public StreamingQuery query() {
    return query;
  }

  /**
   * Ends the query after {@code timeout}: its reader then gets a SQLException with SQLSTATE
   * HYT00 ({@link SqlState#TIMEOUT_EXPIRED}) instead of more rows.
   *
   * <pre>{@code
   * push.expireAfter(Duration.ofSeconds(30));   // Statement.setQueryTimeout(30)
   * }</pre>
   */
  public void expireAfter(Duration timeout) {
    long millis = timeout.toMillis();
    ScheduledFuture<?> task = scheduler.schedule(() -> fail(Errors.of(SqlState.TIMEOUT_EXPIRED,
        "Push query " + query.name() + " ran for its query timeout of " + describe(timeout)
        + " and was stopped. Raise Statement.setQueryTimeout, or set it to 0 for no timeout")),
        millis, TimeUnit.MILLISECONDS);
    synchronized (this) {
      if (expiry != null) {
        expiry.cancel(false);
      }
      expiry = task;
    }
  }

  private static String describe(Duration timeout) {
    return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
  }

  /** The sink that the continuous query writes into. */
  public Sink sink() {
    return new Sink() {
      @Override public void addBatch(long batchId, List<Object[]> rows) {
        // Java 17 has no switch over a sealed type's records: one branch per record, and the
        // cast of the last fails loudly should a policy be added without a branch.
        if (policy instanceof PushPolicy.Upsert upsert) {
          addUpserts(upsert, batchId, rows);
        } else if (policy instanceof PushPolicy.Table) {
          addTable(batchId, rows);
        } else if (policy instanceof PushPolicy.Changes changes) {
          addChanges(changes, batchId, rows);
        } else {
          addAppends((PushPolicy.Append) policy, batchId, rows);
        }
        // After the rows: a progress row never claims a batch whose rows are still to come.
        synchronized (PushQuery.this) {
          lastBatch = batchId;
        }
      }

      @Override public void queryTerminated(Throwable error) {
        synchronized (PushQuery.this) {
          if (end == null && failure == null) {
            end = new End(error);
          }
          cancelExpiry();
          PushQuery.this.notifyAll();
        }
      }

      @Override public String description() {
        return "PushQuery[" + (query == null ? "" : query.name()) + "]";
      }
    };
  }

  private Object[] out(Object[] row, Long batchId, RowKind kind) {
    // One copy per emitted row: it drops the hidden columns and makes room for the two trailing
    // ones. Rows are the batch's output, one per changed group, not its input.
    Object[] out = Arrays.copyOf(row, visible + 2);
    out[visible] = batchId;
    out[visible + 1] = kind;
    return out;
  }

  private Object[] marker(Long batchId) {
    Object[] out = new Object[visible + 2];
    out[visible] = batchId;
    out[visible + 1] = RowKind.BATCH_END;
    return out;
  }

  private Object keyOf(Object[] row) {
    if (keyColumns.length == 0) {
      return NO_KEY;
    }
    if (keyColumns.length == 1) {
      return row[keyColumns[0]];
    }
    Object[] key = new Object[keyColumns.length];
    for (int i = 0; i < key.length; i++) {
      key[i] = row[keyColumns[i]];
    }
    return Arrays.asList(key);
  }

  private void addAppends(PushPolicy.Append append, long batchId, List<Object[]> rows) {
    Long id = batchId;
    List<Object[]> outs = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      outs.add(out(row, id, RowKind.INSERT));
    }
    addInOrder(append.bufferRows(), batchId, outs);
  }

  /**
   * Rows that carry their batch id and kind already, as a view's changes do. Copied even when
   * they have no extra column: the view hands the same rows to every subscriber.
   */
  private void addChanges(PushPolicy.Changes changes, long batchId, List<Object[]> rows) {
    List<Object[]> outs = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      outs.add(Arrays.copyOf(row, visible + 2));
    }
    addInOrder(changes.bufferRows(), batchId, outs);
  }

  private void addInOrder(long bufferRows, long batchId, List<Object[]> outs) {
    Long id = batchId;
    boolean overflow;
    synchronized (this) {
      if (end != null || failure != null) {
        return;
      }
      overflow = ready.size() + (long) outs.size() > bufferRows;
      if (!overflow) {
        ready.addAll(outs);
        if (markers) {
          // An unread marker is superseded by the next one: batches that change nothing cost
          // one row, not one each.
          Object[] last = ready.peekLast();
          if (last != null && last[visible + 1] == RowKind.BATCH_END) {
            ready.pollLast();
          }
          ready.add(marker(id));
        }
        delivered(ready.size());
      }
    }
    if (overflow) {
      fail(Errors.of(SqlState.INSUFFICIENT_RESOURCES, "Push query " + query.name()
          + " stopped: its reader fell more than "
          + bufferRows + " rows behind (batch " + batchId + "), which is what option '"
          + SessionOption.PUSH_BUFFER_ROWS.key() + "' allows for a result whose rows never"
          + " change. Read faster, raise it with SET '" + SessionOption.PUSH_BUFFER_ROWS.key()
          + "' = '...',"
          + " or aggregate with EMIT UPDATE, whose unread rows are coalesced per key"));
    }
  }

  private void addUpserts(PushPolicy.Upsert upsert, long batchId, List<Object[]> rows) {
    Long id = batchId;
    int newKeyColumn = upsert.newKeyColumn();
    synchronized (this) {
      if (end != null || failure != null) {
        return;
      }
      int kindColumn = upsert.kindColumn();
      for (Object[] row : rows) {
        Object key = keyOf(row);
        // A null new-key flag: an aggregation over a view's changes deleted the group.
        RowKind kind = kindColumn >= 0 && row[kindColumn] == RowKind.DELETE
            || kindColumn < 0 && row[newKeyColumn] == null ? RowKind.DELETE
            : Boolean.TRUE.equals(row[newKeyColumn]) ? RowKind.INSERT : RowKind.UPDATE;
        Object[] previous = unread.remove(key);
        Object unreadKind = previous == null ? null : previous[visible + 1];
        if (unreadKind == RowKind.INSERT) {
          if (kind == RowKind.DELETE) {
            // The reader never saw the row: it saw nothing of the key, and needs nothing.
            continue;
          }
          // The reader never saw the key: to it the latest value is still a new key.
          kind = RowKind.INSERT;
        } else if (unreadKind == RowKind.DELETE && kind == RowKind.INSERT) {
          // The reader still has the row the unread DELETE removes: to it this replaces it.
          kind = RowKind.UPDATE;
        }
        // Removed and put again so that unread rows stay in batch order.
        unread.put(key, out(row, id, kind));
      }
      if (markers) {
        unread.remove(MARKER_KEY);
        unread.put(MARKER_KEY, marker(id));
      }
      delivered(unread.size());
    }
  }

  private void addTable(long batchId, List<Object[]> rows) {
    Long id = batchId;
    Map<Object, Object[]> table = new HashMap<>(Math.max(16, rows.size() * 2));
    List<Object[]> keys = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      Object key = keyOf(row);
      keys.add(new Object[] {key, row});
    }
    synchronized (this) {
      if (end != null || failure != null) {
        return;
      }
      // Kinds are relative to what the reader will have read: an unread table is replaced, so
      // the new one is compared with the table before it.
      Map<Object, Object[]> base = pendingTable != null ? pendingBase : lastTable;
      List<Object[]> outs = new ArrayList<>(rows.size() + 1);
      for (Object[] pair : keys) {
        Object key = pair[0];
        Object[] out = out((Object[]) pair[1], id,
            base.containsKey(key) ? RowKind.UPDATE : RowKind.INSERT);
        table.put(key, out);
        outs.add(out);
      }
      List<Object[]> deletes = new ArrayList<>();
      for (Map.Entry<Object, Object[]> old : base.entrySet()) {
        if (!table.containsKey(old.getKey())) {
          Object[] deleted = old.getValue().clone();
          deleted[visible] = id;
          deleted[visible + 1] = RowKind.DELETE;
          deletes.add(deleted);
        }
      }
      // Deletes first, so that a consumer applying rows in order never holds more groups than
      // either table has.
      deletes.addAll(outs);
      if (markers) {
        deletes.add(marker(id));
      }
      pendingBase = base;
      pendingTable = deletes;
      lastTable = table;
      delivered(ready.size() + deletes.size());
    }
  }

  /** Records the number of unread rows after a batch and wakes the reader; holds the monitor. */
  private void delivered(int buffered) {
    maxBuffered = Math.max(maxBuffered, buffered);
    notifyAll();
  }

  /**
   * Ends this subscription because its reader lost the right to read what it reads: as
   * {@link #fail}, the reader's next read throws {@code refusal} (42501).
   */
  public void revoke(SQLException refusal) {
    fail(refusal);
  }

  /**
   * Ends this subscription with {@code error} at once: unread rows are dropped, the query stops,
   * and then the reader's next read throws it (so that a reader who sees it finds the query gone).
   */
  private void fail(SQLException error) {
    synchronized (this) {
      if (end != null || failure != null) {
        return;
      }
      failure = error;
      ready.clear();
      unread.clear();
      pendingTable = null;
      pendingBase = null;
      lastTable = new HashMap<>();
      cancelExpiry();
    }
    // Outside the monitor: stopping waits for the batch thread, which may want it. On the batch
    // thread itself it only asks the loop to end.
    if (query != null) {
      query.stop();
    }
    synchronized (this) {
      end = new End(error);
      notifyAll();
    }
  }

  private void cancelExpiry() {
    if (expiry != null) {
      expiry.cancel(false);
      expiry = null;
    }
  }

  /** Takes the next unread row, or null if there is none; holds the monitor. */
  private Object[] take() {
    Object[] row = ready.poll();
    if (row != null) {
      return row;
    }
    if (policy instanceof PushPolicy.Upsert && !unread.isEmpty()) {
      Iterator<Object[]> first = unread.values().iterator();
      row = first.next();
      first.remove();
      // The reader has begun this batch: the batch's other unread rows (next in line, since
      // unread rows are in batch order) leave the coalescing for the queue read first, so that
      // a later batch cannot replace them and the reader never gets a batch torn in two.
      Object batch = row[visible];
      while (first.hasNext()) {
        Object[] next = first.next();
        if (!batch.equals(next[visible])) {
          break;
        }
        ready.add(next);
        first.remove();
      }
      return row;
    }
    if (pendingTable != null) {
      ready.addAll(pendingTable);
      pendingTable = null;
      pendingBase = null;
      return ready.poll();
    }
    return null;
  }

  /** A {@link RowKind#PROGRESS} row for a reader that has read every row; holds the monitor. */
  private Object[] progressRow() {
    Object[] row = new Object[visible + 2];
    row[visible] = lastBatch;
    row[visible + 1] = RowKind.PROGRESS.text();
    return row;
  }

  /** Number of rows buffered for the reader now (markers included). */
  public synchronized int bufferedRows() {
    return ready.size() + unread.size() + (pendingTable == null ? 0 : pendingTable.size());
  }

  /** The largest {@link #bufferedRows()} seen right after a batch was handed over. */
  public synchronized int maxBufferedRows() {
    return maxBuffered;
  }

  /**
   * Returns the next row, waiting at most {@code timeout}; returns null if none arrived in time or
   * the query has stopped ({@link #isClosed()} tells which).
   *
   * @throws SQLException if the query failed (SQLSTATE 58000, the cause is the failure), the
   *     reader fell too far behind (53000, {@link SqlState#INSUFFICIENT_RESOURCES}) or the query
   *     timed out (HYT00, {@link SqlState#TIMEOUT_EXPIRED})
   */
  public Object[] next(Duration timeout) throws SQLException {
    return next(timeout, false);
  }

  /**
   * Like {@link #next}, but when no row arrived in time returns a {@link RowKind#PROGRESS} row
   * instead of null: its data columns are null and its {@value #BATCH_ID} is the last batch
   * whose rows have all been returned (null before the first batch). A server sends it to a
   * client that cannot wait for rows, so that the client's reads return now and then.
   *
   * <pre>{@code
   * Object[] row = push.nextOrProgress(Duration.ofSeconds(5));   // a row, or PROGRESS after 5 s
   * }</pre>
   *
   * @return the next row, a progress row, or null once the query has stopped
   * @throws SQLException as {@link #next} does
   */
  public Object[] nextOrProgress(Duration timeout) throws SQLException {
    return next(timeout, true);
  }

  private Object[] next(Duration timeout, boolean progress) throws SQLException {
    End ended;
    synchronized (this) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        Object[] row = take();
        if (row != null) {
          // The reader's edge: the row is its own copy, read once (a COMPLETE result's previous
          // table only lends its rows to clones that get a kind of their own).
          row[visible + 1] = ((RowKind) row[visible + 1]).text();
          return row;
        }
        if (end != null) {
          ended = end;
          break;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return progress ? progressRow() : null;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw Errors.of(SqlState.OPERATION_CANCELED, "Interrupted while waiting for the next"
              + " row of query " + query.name(), e);
        }
      }
    }
    endReached = true;
    if (ended.error() instanceof SQLException sql) {
      throw sql;
    }
    if (ended.error() instanceof MemoryBudgetExceededException memory) {
      throw StreamErrors.memoryBudgetExceeded(memory);
    }
    if (ended.error() != null) {
      // The condition's SQLSTATE (22003 for an overflow, ...), the query's name in the message.
      Optional<Failures.Condition> condition = Failures.condition(ended.error());
      throw Errors.of(condition.map(Failures.Condition::state).orElse(SqlState.SYSTEM_ERROR),
          "Continuous query " + query.name() + " failed: " + condition
              .map(Failures.Condition::message).orElse(ended.error().toString()), ended.error());
    }
    return null;
  }

  /** Whether the query has stopped and every row before the stop has been read. */
  public boolean isClosed() {
    return endReached;
  }

  /** Stops the continuous query; rows not yet read are dropped. Idempotent. */
  @Override public void close() {
    synchronized (this) {
      cancelExpiry();
    }
    if (query != null) {
      query.stop();
    }
  }
}

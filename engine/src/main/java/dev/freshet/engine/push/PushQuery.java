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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

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
 * and an APPEND result at most {@code bufferRows} rows, beyond which the subscription fails:
 * one {@link PushBuffer} per policy.
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

  /** Number of the query's own columns, before {@value #BATCH_ID} and {@value #ROW_KIND}. */
  private final int visible;
  private final ScheduledExecutorService scheduler;
  private StreamingQuery query;

  // Guarded by this; the reader waits on this for rows.
  /** The unread rows, kept as the policy says. */
  private final PushBuffer buffer;
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
    requireNonNull(policy, "policy");
    this.visible = visible;
    this.buffer = PushBuffer.of(policy, visible, markers);
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
        // What needs no monitor (copies) is done before taking it: the reader waits on it.
        List<Object[]> prepared = buffer.prepare(batchId, rows);
        boolean overflow = false;
        synchronized (PushQuery.this) {
          if (end == null && failure == null) {
            int buffered = buffer.add(batchId, prepared);
            overflow = buffered == PushBuffer.OVERFLOW;
            if (!overflow) {
              delivered(buffered);
            }
          }
        }
        if (overflow) {
          fail(buffer.overflow(query.name(), batchId));
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
      buffer.clear();
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
    return buffer.take();
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
    return buffer.size();
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

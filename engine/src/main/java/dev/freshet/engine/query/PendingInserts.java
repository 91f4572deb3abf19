package dev.freshet.engine.query;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.errors.StreamErrors;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.StreamLogException;
import dev.freshet.executor.source.StreamMemoryFullException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The rows a transaction has INSERTed but not committed, per stream, in statement order. Nobody
 * sees them (not even the session's own queries) until {@link #commit}, which appends each
 * stream's rows as <em>one</em> offset: a single {@code addData}, so one fsync of a durable
 * stream and one micro-batch of every query that reads it.
 *
 * <pre>{@code
 * PendingInserts pending = new PendingInserts();
 * pending.add(InsertExecutor.evaluate(planner, insert1));   // clicks: 2 rows
 * pending.add(InsertExecutor.evaluate(planner, insert2));   // clicks: 1 row, orders: 1 row
 * pending.commit(name -> catalog.stream(name).flatMap(StreamTable::memoryStream));
 * // clicks got one offset of 3 rows, then orders one offset of 1 row
 * }</pre>
 *
 * <p>Atomicity is per stream: a stream's rows are appended whole or not at all. Streams are
 * appended one after the other, in the order the transaction first inserted into them, so a
 * crash (or a failed write) between two streams leaves the earlier streams' rows stored and the
 * later ones' lost. A failed write keeps the rows not yet appended pending, so the caller can
 * commit again or roll back.
 */
public final class PendingInserts {
  /** Per stream, keyed by the stream's name in the catalog, in first-insert order. */
  private final Map<String, Pending> streams = new LinkedHashMap<>();
  private long rows;

  /** The rows of one stream: the stream object they were checked against, and the rows. */
  private static final class Pending {
    final MemoryStream target;
    final List<Object[]> rows = new ArrayList<>();

    Pending(MemoryStream target) {
      this.target = target;
    }
  }

  /** Holds the rows of one INSERT until {@link #commit} or {@link #clear}. */
  public void add(InsertExecutor.Rows insert) {
    Pending pending = streams.get(insert.stream());
    if (pending == null) {
      pending = new Pending(insert.target());
      streams.put(insert.stream(), pending);
    }
    // A stream dropped and declared again under the same name since the first insert is
    // another stream: commit refuses the rows, as the stream they were checked against is gone.
    pending.rows.addAll(insert.rows());
    rows += insert.rows().size();
  }

  /** How many rows are pending, over all streams. */
  public long rowCount() {
    return rows;
  }

  /** Whether no rows are pending. */
  public boolean isEmpty() {
    return rows == 0;
  }

  /** Drops every pending row: what a rollback does. */
  public void clear() {
    streams.clear();
    rows = 0;
  }

  /**
   * Appends each stream's pending rows as one offset of that stream, then forgets them.
   *
   * @param current the stream a name denotes now, empty if none: rows of a stream dropped since
   *     they were inserted make the commit fail before anything is appended
   * @throws SQLException if a stream was dropped (42S02, nothing appended), or a stream's rows
   *     cannot be written (its log's state; the streams before it are committed, the others
   *     stay pending)
   */
  public void commit(Function<String, Optional<MemoryStream>> current) throws SQLException {
    for (Map.Entry<String, Pending> e : streams.entrySet()) {
      Optional<MemoryStream> now = current.apply(e.getKey());
      if (now.isEmpty() || now.get() != e.getValue().target) {
        throw Errors.of(SqlState.OBJECT_NOT_FOUND, "Cannot commit: stream " + e.getKey()
            + " was dropped after this transaction inserted " + e.getValue().rows.size()
            + " rows into it; nothing was committed. Call rollback() to drop the"
            + " transaction's rows");
      }
    }
    List<String> committed = new ArrayList<>();
    Iterator<Map.Entry<String, Pending>> it = streams.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Pending> e = it.next();
      try {
        e.getValue().target.addData(e.getValue().rows);
      } catch (StreamLogException | StreamMemoryFullException failure) {
        SQLException cause = failure instanceof StreamLogException log
            ? StreamErrors.streamLogError(log)
            : StreamErrors.streamMemoryFull((StreamMemoryFullException) failure);
        throw Errors.of(SqlState.of(cause.getSQLState()).orElse(SqlState.IO_ERROR), "Commit "
            + (committed.isEmpty() ? "appended nothing" : "appended the rows of "
                + String.join(", ", committed)) + ", but the rows of stream " + e.getKey()
            + " cannot be written: " + failure.getMessage() + ". The rows of "
            + String.join(", ", streams.keySet()) + " are still pending: call commit() to"
            + " try again or rollback() to drop them", failure);
      }
      rows -= e.getValue().rows.size();
      committed.add(e.getKey());
      it.remove();
    }
  }
}

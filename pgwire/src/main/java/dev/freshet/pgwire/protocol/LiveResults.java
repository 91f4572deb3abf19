package dev.freshet.pgwire.protocol;

import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.ResultColumn;
import dev.freshet.pgwire.live.CopyFormat;
import dev.freshet.pgwire.live.LiveColumns;
import dev.freshet.pgwire.live.LivePump;
import dev.freshet.pgwire.live.LiveStatement;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The live results of one connection: {@code SELECT STREAM} on the simple protocol (DataRows as
 * batches commit, until a CancelRequest), {@code COPY (SELECT STREAM ...) TO STDOUT} (CopyData
 * rows the same way), cursors ({@code DECLARE}, {@code FETCH ... WITH (timeout)}, {@code CLOSE})
 * and Execute with a row limit on a push portal.
 *
 * <pre>
 * Query("SELECT STREAM * FROM v")  → RowDescription, DataRow... (as batches commit)
 * CancelRequest                    → ErrorResponse 57014, ReadyForQuery
 * </pre>
 *
 * <p>While a live result runs, the connection handles no other message (as PostgreSQL does
 * while a query runs) and no executor thread waits for it: a {@link LivePump} on the channel's
 * event loop writes rows as they arrive and respects the channel's writability, then hands the
 * connection back ({@link Host#resume}). Every push query this connection opened is stopped when
 * its result ends, its cursor or portal is closed, or the connection closes.
 */
final class LiveResults {
  /** The connection a live result suspends and resumes. */
  interface Host {
    /** Stops handling messages after the one being handled, until {@link #resume}. */
    void suspend();

    /**
     * The live result ended (on the event loop): {@code then} runs where messages run, before
     * the next message.
     */
    void resume(Runnable then);
  }

  /** A cursor: a push query read by FETCH. */
  private record Cursor(String name, boolean hold, List<ResultColumn> columns, PushQuery push) {
  }

  private final PgSession session;
  private final MessageWriter out;
  private final Channel channel;
  private final PgValues.Formats formats;
  /** Where push queries are stopped: stopping may wait for a batch, never on an event loop. */
  private final Executor closer;
  private final Host host;
  /** This connection's cursors; touched where messages run. */
  private final Map<String, Cursor> cursors = new HashMap<>();
  /** Every push query opened and not yet stopped, to stop when the connection closes. */
  private final Set<PushQuery> open = ConcurrentHashMap.newKeySet();
  private volatile @Nullable LivePump active;

  LiveResults(PgSession session, MessageWriter out, Channel channel, PgValues.Formats formats,
      Executor closer, Host host) {
    this.session = session;
    this.out = out;
    this.channel = channel;
    this.formats = formats;
    this.closer = closer;
    this.host = host;
  }

  /** Whether a live result is running (the connection is not idle). */
  boolean running() {
    return active != null;
  }

  /** Cancels the running live result, if any; returns whether there was one. */
  boolean cancel() {
    LivePump pump = active;
    if (pump == null) {
      return false;
    }
    pump.cancel();
    return true;
  }

  /**
   * Runs one statement of a simple Query: the live ones here, any other through the session.
   * Returns its outcome for the caller to write, or null when a live result took over the
   * connection; then {@code resumed} runs when it ends, with whether it ended in an error.
   */
  PgSession.@Nullable Outcome simple(String sql, Consumer<Boolean> resumed)
      throws SQLException {
    Optional<LiveStatement> live = LiveStatement.parse(sql);
    if (live.isEmpty()) {
      PgSession.Outcome outcome = session.execute(sql);
      if (outcome.push() == null) {
        return outcome;
      }
      PgColumn[] columns = Rows.columns(outcome.columns(), new short[0]);
      Rows.rowDescription(out, columns);
      start(outcome.push(), new DataRows(outcome.push(), columns) {
        @Override void finished(LivePump.Ending ending, long rows, boolean failed) {
          if (ending == LivePump.Ending.ENDED) {
            pumpOut.commandComplete("SELECT " + rows);
          }
          stop(push);
          resume(() -> resumed.accept(failed));
        }
      }, LiveStatement.ALL, null, false);
      return null;
    }
    LiveStatement statement = live.get();
    if (statement instanceof LiveStatement.CopyOut copy) {
      return copy(copy, resumed);
    }
    refuseInFailedTransaction();
    if (statement instanceof LiveStatement.Declare declare) {
      return declare(declare);
    }
    if (statement instanceof LiveStatement.Close close) {
      return close(close);
    }
    fetch((LiveStatement.Fetch) statement, resumed);
    return null;
  }

  /**
   * A DECLARE or CLOSE sent by the extended protocol, which answers it as a command; null for
   * any other statement. A FETCH goes through {@link #fetch(String, short[], int, Consumer)};
   * COPY of a live result needs the simple protocol.
   */
  PgSession.@Nullable Outcome command(String sql) throws SQLException {
    Optional<LiveStatement> live = LiveStatement.parse(sql);
    if (live.isEmpty()) {
      return null;
    }
    refuseInFailedTransaction();
    if (live.get() instanceof LiveStatement.Declare declare) {
      return declare(declare);
    }
    if (live.get() instanceof LiveStatement.Close close) {
      return close(close);
    }
    throw new SQLException("COPY takes the simple query protocol (psql; pgjdbc's CopyManager)."
        + " Over the extended protocol, read a SELECT STREAM portal with a row limit (pgjdbc:"
        + " autocommit off and setFetchSize), or DECLARE a cursor and FETCH", "0A000");
  }

  /** The columns a FETCH returns (its cursor's), or null if {@code sql} is no FETCH. */
  @Nullable List<ResultColumn> fetchColumns(String sql) throws SQLException {
    Optional<LiveStatement> live = LiveStatement.parse(sql);
    if (live.isEmpty() || !(live.get() instanceof LiveStatement.Fetch fetch)) {
      return null;
    }
    Cursor cursor = cursors.get(fetch.name());
    if (cursor == null) {
      throw missing(fetch.name());
    }
    return cursor.columns();
  }

  /**
   * Executes a FETCH sent by the extended protocol (its RowDescription came with Describe):
   * DataRows in {@code formats}, then CommandComplete; returns false if {@code sql} is no FETCH.
   * A row limit below the FETCH's count lowers it.
   */
  boolean fetch(String sql, short[] formats, int maxRows, Consumer<Boolean> resumed)
      throws SQLException {
    Optional<LiveStatement> live = LiveStatement.parse(sql);
    if (live.isEmpty() || !(live.get() instanceof LiveStatement.Fetch fetch)) {
      return false;
    }
    refuseInFailedTransaction();
    Cursor cursor = cursors.get(fetch.name());
    if (cursor == null) {
      throw missing(fetch.name());
    }
    long count = maxRows > 0 ? Math.min(fetch.count(), maxRows) : fetch.count();
    fetch(cursor, new LiveStatement.Fetch(fetch.name(), count, fetch.timeout()),
        Rows.columns(cursor.columns(), formats), resumed);
    return true;
  }

  /**
   * Executes a push portal: with a row limit, waits for a first row and sends what has arrived,
   * at most {@code maxRows} rows, then PortalSuspended (so that a client with a fetch size sees
   * each batch as it commits, not once {@code maxRows} rows have come); without one (0), rows
   * until cancelled. ErrorResponse if cancelled; then {@code resumed} with whether it failed.
   */
  void execute(PushQuery push, PgColumn[] columns, int maxRows,
      Consumer<Boolean> resumed) {
    open.add(push);
    start(push, new DataRows(push, columns) {
      @Override void finished(LivePump.Ending ending, long rows, boolean failed) {
        switch (ending) {
        case LIMIT, DRAINED -> pumpOut.portalSuspended();
        case ENDED -> pumpOut.commandComplete("SELECT " + rows);
        default -> stop(push);
        }
        resume(() -> resumed.accept(failed));
      }
    }, maxRows, null, maxRows > 0);
  }

  /** A portal holding {@code push} is closed: its push query stops. */
  void release(@Nullable PushQuery push) {
    if (push != null) {
      stop(push);
    }
  }

  /** The transaction ended: cursors without HOLD close, as PostgreSQL closes them. */
  void transactionEnded() {
    for (Iterator<Cursor> it = cursors.values().iterator(); it.hasNext(); ) {
      Cursor c = it.next();
      if (!c.hold()) {
        it.remove();
        stop(c.push());
      }
    }
  }

  /** The connection closed: every push query it opened stops. */
  void closeAll() {
    LivePump pump = active;
    if (pump != null) {
      pump.cancel();
    }
    cursors.clear();
    for (PushQuery push : List.copyOf(open)) {
      stop(push);
    }
  }

  // Statements.

  private PgSession.Outcome copy(LiveStatement.CopyOut copy,
      Consumer<Boolean> resumed) throws SQLException {
    PgSession.Outcome outcome = session.execute(copy.query());
    if (outcome.columns() == null) {
      throw new SQLException("COPY (query) TO STDOUT needs a query that returns rows", "0A000");
    }
    PgColumn[] columns = Rows.columns(outcome.columns(), new short[0]);
    copyOutResponse(out, columns.length);
    if (copy.header()) {
      copyHeader(out, columns, copy.format());
    }
    if (outcome.push() == null) {
      for (Object[] row : outcome.rows()) {
        copyData(out, columns, row, copy.format());
      }
      out.begin('c').end();
      return PgSession.Outcome.command("COPY " + outcome.rows().size());
    }
    PushQuery push = outcome.push();
    int visible = columns.length - 2;
    start(push, new Output(push) {
      @Override public void row(Object[] row) {
        LiveColumns.reorder(row, visible);
        copyData(pumpOut, columns, row, copy.format());
      }

      @Override void finished(LivePump.Ending ending, long rows, boolean failed) {
        if (ending == LivePump.Ending.ENDED) {
          pumpOut.begin('c').end();
          pumpOut.commandComplete("COPY " + rows);
        }
        stop(push);
        resume(() -> resumed.accept(failed));
      }
    }, LiveStatement.ALL, null, false);
    return null;
  }

  private PgSession.Outcome declare(LiveStatement.Declare declare) throws SQLException {
    if (!declare.hold() && session.status() == PgSession.IDLE) {
      throw new SQLException("DECLARE CURSOR can only be used in transaction blocks. BEGIN"
          + " first, or DECLARE ... CURSOR WITH HOLD FOR ...", "25P01");
    }
    if (cursors.containsKey(declare.name())) {
      throw new SQLException("Cursor \"" + declare.name() + "\" already exists. CLOSE it first",
          "42P03");
    }
    PgSession.Outcome outcome = session.execute(declare.query());
    if (outcome.push() == null) {
      throw new SQLException("A cursor reads a live result here: DECLARE " + declare.name()
          + " CURSOR FOR SELECT STREAM .... Run a bounded query without DECLARE", "0A000");
    }
    open.add(outcome.push());
    cursors.put(declare.name(), new Cursor(declare.name(), declare.hold(), outcome.columns(),
        outcome.push()));
    return PgSession.Outcome.command("DECLARE CURSOR");
  }

  private PgSession.Outcome close(LiveStatement.Close close) throws SQLException {
    if (close.name() == null) {
      for (Cursor c : cursors.values()) {
        stop(c.push());
      }
      cursors.clear();
    } else {
      Cursor c = cursors.remove(close.name());
      if (c == null) {
        throw missing(close.name());
      }
      stop(c.push());
    }
    return PgSession.Outcome.command("CLOSE CURSOR");
  }

  private void fetch(LiveStatement.Fetch fetch, Consumer<Boolean> resumed)
      throws SQLException {
    Cursor cursor = cursors.get(fetch.name());
    if (cursor == null) {
      throw missing(fetch.name());
    }
    PgColumn[] columns = Rows.columns(cursor.columns(), new short[0]);
    Rows.rowDescription(out, columns);
    fetch(cursor, fetch, columns, resumed);
  }

  private void fetch(Cursor cursor, LiveStatement.Fetch fetch, PgColumn[] columns,
      Consumer<Boolean> resumed) {
    start(cursor.push(), new DataRows(cursor.push(), columns) {
      @Override void finished(LivePump.Ending ending, long rows, boolean failed) {
        switch (ending) {
        case LIMIT, DRAINED, ENDED -> pumpOut.commandComplete("FETCH " + rows);
        default -> {
          // A failed or cancelled FETCH leaves a cursor PostgreSQL would have aborted.
          cursors.remove(cursor.name());
          stop(push);
        }
        }
        resume(() -> resumed.accept(failed));
      }
    }, fetch.count(), fetch.timeout(), true);
  }

  /** As PostgreSQL, a failed transaction block takes nothing but its end. */
  private void refuseInFailedTransaction() throws SQLException {
    if (session.status() == PgSession.FAILED) {
      throw new SQLException("Current transaction is aborted, commands ignored until end of"
          + " transaction block. Send ROLLBACK", "25P02");
    }
  }

  private static SQLException missing(String name) {
    return new SQLException("Cursor \"" + name + "\" does not exist. DECLARE it first (cursors"
        + " without HOLD close when their transaction ends)", "34000");
  }

  // The wire.

  private void start(PushQuery push, Output output, long limit,
      java.time.@Nullable Duration timeout, boolean drain) {
    open.add(push);
    out.flush();
    host.suspend();
    LivePump pump = new LivePump(push, output, channel.eventLoop(), limit, timeout, drain);
    active = pump;
    if (session.takeCancel()) {
      // A CancelRequest came as it started.
      pump.cancel();
    }
    pump.start();
  }

  private void stop(PushQuery push) {
    if (!open.remove(push)) {
      return;
    }
    try {
      closer.execute(push::close);
    } catch (RejectedExecutionException e) {
      push.close();
    }
  }

  /** The pump's end of the wire: its own writer, which never waits (it runs on the event loop). */
  private abstract class Output implements LivePump.Output {
    final PushQuery push;
    final MessageWriter pumpOut = new MessageWriter(channel, null);

    Output(PushQuery push) {
      this.push = push;
    }

    @Override public boolean open() {
      return channel.isActive();
    }

    @Override public boolean writable() {
      return channel.isWritable();
    }

    @Override public void flush() {
      pumpOut.flush();
    }

    @Override public final void finish(LivePump.Ending ending, long rows,
        @Nullable SQLException error) {
      active = null;
      boolean failed = false;
      if (ending == LivePump.Ending.CANCELLED) {
        pumpOut.errorOrNotice('E', ErrorFields.of("ERROR", "57014",
            "canceling statement due to user request"));
        failed = true;
      } else if (ending == LivePump.Ending.FAILED) {
        pumpOut.errorOrNotice('E', ErrorFields.of(error));
        failed = true;
      }
      finished(ending, rows, failed);
      pumpOut.flush();
    }

    /** Writes what ends the result ({@code failed}: an error was written) and resumes. */
    abstract void finished(LivePump.Ending ending, long rows, boolean failed);

    void resume(Runnable then) {
      if (channel.isActive()) {
        host.resume(then);
      }
    }
  }

  /** Rows as DataRow messages. */
  private abstract class DataRows extends Output {
    private final PgColumn[] columns;
    private final int visible;

    DataRows(PushQuery push, PgColumn[] columns) {
      super(push);
      this.columns = columns;
      this.visible = columns.length - 2;
    }

    @Override public void row(Object[] row) {
      LiveColumns.reorder(row, visible);
      Rows.dataRow(pumpOut, columns, row, formats);
    }
  }

  private static void copyOutResponse(MessageWriter w, int columns) {
    w.begin('H').int8(0).int16(columns);
    for (int i = 0; i < columns; i++) {
      w.int16(0);
    }
    w.end();
  }

  private static void copyHeader(MessageWriter w, PgColumn[] columns, CopyFormat format) {
    w.begin('d');
    ByteBuf buf = w.buffer();
    for (int i = 0; i < columns.length; i++) {
      format.field(buf, i, columns.length, columns[i].name());
    }
    format.endRow(buf);
    w.end();
  }

  private void copyData(MessageWriter w, PgColumn[] columns, Object[] row, CopyFormat format) {
    w.begin('d');
    ByteBuf buf = w.buffer();
    for (int i = 0; i < columns.length; i++) {
      Object v = row[i];
      format.field(buf, i, columns.length,
          v == null ? null : PgValues.text(columns[i].type(), v, formats));
    }
    format.endRow(buf);
    w.end();
  }
}

package dev.freshet.pgwire.live;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.push.PushQuery;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Moves a push query's rows to one connection as they arrive, without a thread waiting for them:
 * a task on the connection's event loop takes what the {@link PushQuery} holds every
 * {@value #TICK_MS} ms, writes it, flushes, and comes back; while the client does not read (the
 * channel is not writable) it takes nothing, so unread rows stay in the push query, whose policy
 * bounds them (the latest row per key of an UPDATE result; an APPEND result fails with 53000
 * beyond {@code push.buffer.rows}).
 *
 * <pre>{@code
 * new LivePump(push, output, eventLoop, 0, null, false).start();          // SELECT STREAM
 * new LivePump(push, output, eventLoop, 100, null, false).start();        // Execute(portal, 100)
 * new LivePump(push, output, eventLoop, ALL, Duration.ofSeconds(1), true) // FETCH ALL c WITH ...
 * }</pre>
 *
 * <p>The pump ends once, with an {@link Ending}: it reached its row limit, returned what had
 * arrived (a FETCH), was cancelled, the query ended or failed, or the client went away. The
 * output decides what that means on the wire and whether the push query goes on.
 */
public final class LivePump {
  /** How often a pump looks for rows: bounds the latency a live result adds to a batch. */
  static final long TICK_MS = 2;
  /** Most rows one tick writes before letting the event loop serve other connections. */
  private static final int ROWS_PER_TICK = 1000;

  /** Why a pump ended. */
  public enum Ending {
    /** It wrote as many rows as it was asked for. */
    LIMIT,
    /** A FETCH: it returned what had arrived (or its timeout passed with nothing). */
    DRAINED,
    /** A CancelRequest. */
    CANCELLED,
    /** The push query stopped (its view was dropped, the engine closed). */
    ENDED,
    /** The push query failed; {@link Output#finish} gets the error. */
    FAILED,
    /** The connection closed. */
    GONE
  }

  /** Where the rows go: one connection's wire. Called on the pump's event loop only. */
  public interface Output {
    /** Whether the connection is open. */
    boolean open();

    /** Whether the connection takes more writes now (its buffer is below the high-water mark). */
    boolean writable();

    /** Writes one row as the push query returned it (data columns, batch id, row kind). */
    void row(Object[] row);

    /** Sends what was written. */
    void flush();

    /**
     * The pump ended after {@code rows} rows; {@code error} is set for {@link Ending#FAILED}.
     */
    void finish(Ending ending, long rows, @Nullable SQLException error);
  }

  private final PushQuery push;
  private final Output output;
  private final ScheduledExecutorService loop;
  /** Most rows to write; {@link LiveStatement#ALL} for no limit. */
  private final long limit;
  /** When a FETCH stops waiting for a first row (System.nanoTime); 0 for no timeout. */
  private final long deadline;
  /** Whether it ends once it wrote the rows that had arrived (a FETCH). */
  private final boolean drain;
  private volatile boolean cancelled;
  /** Touched on the event loop only. */
  private long rows;
  private boolean done;

  /**
   * A pump of {@code push} to {@code output} on {@code loop}.
   *
   * @param limit most rows, {@link LiveStatement#ALL} for no limit
   * @param timeout with {@code drain}, how long to wait for a first row; null for no limit
   * @param drain whether to end after writing the rows that had arrived (FETCH)
   */
  public LivePump(PushQuery push, Output output, ScheduledExecutorService loop, long limit,
      @Nullable Duration timeout, boolean drain) {
    this.push = requireNonNull(push, "push");
    this.output = requireNonNull(output, "output");
    this.loop = requireNonNull(loop, "loop");
    this.limit = limit <= 0 ? LiveStatement.ALL : limit;
    this.deadline = timeout == null ? 0 : Math.max(1, System.nanoTime() + timeout.toNanos());
    this.drain = drain;
  }

  /** Starts pumping: the first look is at once. */
  public void start() {
    loop.execute(this::tick);
  }

  /** Asks the pump to end with {@link Ending#CANCELLED} (any thread). */
  public void cancel() {
    cancelled = true;
    loop.execute(this::tick);
  }

  private void tick() {
    if (done) {
      return;
    }
    if (!output.open()) {
      end(Ending.GONE, null);
      return;
    }
    if (cancelled) {
      end(Ending.CANCELLED, null);
      return;
    }
    if (output.writable()) {
      int written = 0;
      try {
        while (rows < limit && written < ROWS_PER_TICK) {
          Object[] row = push.next(Duration.ZERO);
          if (row == null) {
            break;
          }
          output.row(row);
          rows++;
          written++;
          if (!output.writable()) {
            break;
          }
        }
      } catch (SQLException e) {
        if (written > 0) {
          output.flush();
        }
        end(Ending.FAILED, e);
        return;
      }
      if (written > 0) {
        output.flush();
      }
      if (rows >= limit) {
        end(Ending.LIMIT, null);
        return;
      }
      if (push.isClosed()) {
        end(Ending.ENDED, null);
        return;
      }
      // A FETCH returns what had arrived once something has, or when its timeout passed.
      if (drain && (rows > 0 || deadline != 0 && System.nanoTime() - deadline >= 0)
          && written < ROWS_PER_TICK) {
        end(Ending.DRAINED, null);
        return;
      }
    }
    loop.schedule(this::tick, TICK_MS, TimeUnit.MILLISECONDS);
  }

  private void end(Ending ending, @Nullable SQLException error) {
    done = true;
    output.finish(ending, rows, error);
  }
}

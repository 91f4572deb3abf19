package dev.freshet.jdbc;

import static java.util.Objects.requireNonNull;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.push.RowKind;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.Meta.Frame;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of one push query as frames for a client that fetches them over the wire, with a
 * long-poll: a fetch waits up to a bound for the next row and otherwise returns an empty frame that
 * is not final, so that the client asks again without the request outliving an HTTP timeout.
 *
 * <pre>{@code
 * PushFrames frames = new PushFrames(push, 0, false);
 * Frame frame = frames.fetch(0, 100, Duration.ofSeconds(5));   // offset 0, up to 100 rows
 * }</pre>
 *
 * <p>A client's offset only moves past rows it has received, so a fetch that repeats the offset of
 * the last non-empty frame means that frame's response was lost (an HTTP client resends a request
 * whose response never came): the same frame is sent again. Empty frames are not kept: a client
 * that repeats their offset simply waits again.
 *
 * <p>With a row limit ({@code Statement.setMaxRows}) the frame that reaches it is final and the
 * query stops, so that a client such as sqlline can read a bounded piece of a never-ending result.
 *
 * <p>A client that cannot long-poll (every client but Freshet's own drivers: Avatica's stock client
 * fetches again, without a cancel check, as long as it gets empty frames, and reads one row ahead)
 * never gets an empty frame: when no row came in time the frame holds one
 * {@link RowKind#PROGRESS} row ({@link PushQuery#nextOrProgress}), which
 * takes an offset like any row. Its reads thus return at least once per fetch timeout.
 *
 * <pre>{@code
 * PushFrames frames = new PushFrames(push, 0, true);
 * Frame first = frames.fetch(0, 100, Duration.ZERO);   // rows ready now, or one PROGRESS row
 * }</pre>
 *
 * <p>Fetches of one statement run one at a time; a retry that arrives while the original waits gets
 * the original's frame once it is ready.
 */
final class PushFrames {
  /** Rows per frame when the client does not say. */
  private static final int DEFAULT_FETCH_SIZE = 100;

  private final PushQuery push;
  /** Rows to send in all before the result ends; 0 for no limit. */
  private final long maxRows;
  /** Whether a fetch with no row answers with a PROGRESS row instead of an empty frame. */
  private final boolean progress;
  /** Offset of the next row not yet sent; guarded by {@code this}. */
  private long nextOffset;
  /** The last non-empty frame, sent again if its offset is fetched again; guarded by {@code this}. */
  private @Nullable Frame lastFrame;
  /** {@link System#nanoTime()} when a fetch last began or ended, or when the result was made. */
  private volatile long lastActivityNanos = System.nanoTime();

  /**
   * Frames of {@code push}'s rows.
   *
   * @param maxRows rows to send in all, PROGRESS rows included; 0 for no limit
   * @param progress whether the client cannot long-poll: a fetch with no row then answers with
   *     a PROGRESS row instead of an empty frame
   */
  PushFrames(PushQuery push, long maxRows, boolean progress) {
    this.push = requireNonNull(push, "push");
    this.maxRows = Math.max(maxRows, 0);
    this.progress = progress;
  }

  /** Whether a fetch with no row answers with a PROGRESS row instead of an empty frame. */
  boolean progress() {
    return progress;
  }

  /** Whether no fetch has begun or ended since {@code idle} before {@code nowNanos}. */
  boolean idleSince(long nowNanos, Duration idle) {
    return nowNanos - lastActivityNanos >= idle.toNanos();
  }

  /** Rows to send in all before the result ends; 0 for no limit. */
  long maxRows() {
    return maxRows;
  }

  /**
   * Returns the frame at {@code offset}: up to {@code fetchSize} rows (100 if not positive), waiting
   * at most {@code wait} for the first; if none came in time, empty and not final, or for a client
   * that cannot long-poll one PROGRESS row.
   *
   * @throws SQLException if the query failed, or {@code offset} is neither the next row nor the
   *     start of the last frame sent
   */
  synchronized Frame fetch(long offset, int fetchSize, Duration wait) throws SQLException {
    lastActivityNanos = System.nanoTime();
    try {
      return fetchFrame(offset, fetchSize, wait);
    } finally {
      lastActivityNanos = System.nanoTime();
    }
  }

  private Frame fetchFrame(long offset, int fetchSize, Duration wait) throws SQLException {
    Frame last = lastFrame;
    if (last != null && offset == last.offset) {
      return last;
    }
    if (offset != nextOffset) {
      throw Errors.of(SqlState.INVALID_CURSOR_STATE, "Cannot fetch the rows of a push query"
          + " from offset " + offset
          + ": its rows continue at offset " + nextOffset
          + (last == null ? "" : " and the frame at offset " + last.offset + " can be fetched again")
          + ". Fetch offsets in order, as a JDBC result set does");
    }
    long room = maxRows == 0 ? Long.MAX_VALUE : maxRows - nextOffset;
    int max = (int) Math.min(fetchSize > 0 ? fetchSize : DEFAULT_FETCH_SIZE, room);
    List<Object> rows = new ArrayList<>();
    if (max > 0) {
      Object[] row = progress ? push.nextOrProgress(wait) : push.next(wait);
      // Only the first row can be PROGRESS (none came); it stands alone in its frame.
      boolean alone = progress && row != null
          && RowKind.PROGRESS.text().equals(row[row.length - 1]);
      while (row != null) {
        rows.add(row);
        if (alone || rows.size() >= max) {
          break;
        }
        row = push.next(Duration.ZERO);
      }
    }
    boolean limitReached = maxRows > 0 && nextOffset + rows.size() >= maxRows;
    if (limitReached) {
      // The client asked for no more rows: the result ends here, and so does the query.
      push.close();
    }
    Frame frame = Frame.create(offset, limitReached || push.isClosed(), rows);
    if (!rows.isEmpty()) {
      nextOffset += rows.size();
      lastFrame = frame;
    }
    return frame;
  }
}

package dev.freshet.executor.operators;

import java.util.ArrayList;
import java.util.List;

/**
 * The sessions of one key, sorted by start and disjoint: adding a session merges it with every
 * session it overlaps or touches (Spark merges {@code [s1, e1)} and {@code [s2, e2)} when
 * {@code s2 <= e1}), their aggregate values merged too.
 *
 * <p>A session's value is a buffer of merge accumulators (the aggregate's slots after
 * {@code slotBase} grouping columns, which the buffer leaves empty), so that one session merges
 * into another exactly as a partial value merges into saved state. Buffers read from the state
 * store are copied before they change: saved values are immutable.
 *
 * <p>Saved as one flat row {@code [start0, end0, buffer0, start1, end1, buffer1, ...]}, which
 * {@link dev.freshet.executor.state.StateCodec} writes with nested rows.
 *
 * <pre>{@code
 * SessionList sessions = SessionList.restore(store.get(key), merge);
 * sessions.add(1_000, 6_000, buffer);      // [1 s, 6 s)
 * sessions.add(7_000, 12_000, other);      // separate
 * sessions.add(5_000, 10_000, bridge);     // merges both: [1 s, 12 s)
 * store.put(key, sessions.toSaved());
 * }</pre>
 */
final class SessionList {
  private final Accumulator[] merge;
  private final List<Session> sessions = new ArrayList<>(2);

  /** One session: its bounds in epoch milliseconds and its aggregate buffer. */
  static final class Session {
    long start;
    long end;
    Object[] buffer;
    /** Whether {@link #buffer} was read from the store and must be copied before it changes. */
    boolean saved;

    Session(long start, long end, Object[] buffer, boolean saved) {
      this.start = start;
      this.end = end;
      this.buffer = buffer;
      this.saved = saved;
    }
  }

  SessionList(Accumulator[] merge) {
    this.merge = merge;
  }

  /** The sessions saved as {@code saved} (null: none). */
  static SessionList restore(Object[] saved, Accumulator[] merge) {
    SessionList list = new SessionList(merge);
    if (saved != null) {
      for (int i = 0; i < saved.length; i += 3) {
        list.sessions.add(new Session((Long) saved[i], (Long) saved[i + 1],
            (Object[]) saved[i + 2], true));
      }
    }
    return list;
  }

  /** The sessions as the state store keeps them. */
  Object[] toSaved() {
    Object[] saved = new Object[sessions.size() * 3];
    for (int i = 0; i < sessions.size(); i++) {
      Session s = sessions.get(i);
      saved[3 * i] = s.start;
      saved[3 * i + 1] = s.end;
      saved[3 * i + 2] = s.buffer;
    }
    return saved;
  }

  List<Session> sessions() {
    return sessions;
  }

  int size() {
    return sessions.size();
  }

  /**
   * The session that {@code [start, end)} falls into, extended to cover it and merged with the
   * sessions it now reaches; a new empty one if it touches none. The caller folds the value in.
   *
   * @param emptyBuffer makes the buffer of a new session
   */
  Session cover(long start, long end, java.util.function.Supplier<Object[]> emptyBuffer) {
    int i = firstEndingAtOrAfter(start);
    if (i == sessions.size() || sessions.get(i).start > end) {
      Session s = new Session(start, end, emptyBuffer.get(), false);
      sessions.add(i, s);
      return s;
    }
    Session s = writable(sessions.get(i));
    s.start = Math.min(s.start, start);
    s.end = Math.max(s.end, end);
    // The wider session may now reach those after it: a row that bridges two sessions.
    while (i + 1 < sessions.size() && sessions.get(i + 1).start <= s.end) {
      Session next = sessions.remove(i + 1);
      s.end = Math.max(s.end, next.end);
      fold(s.buffer, next.buffer);
    }
    return s;
  }

  /** Adds a whole session, merging it with those it overlaps or touches. */
  void add(long start, long end, Object[] buffer, java.util.function.Supplier<Object[]> empty) {
    Session s = cover(start, end, empty);
    fold(s.buffer, buffer);
  }

  /** Removes and returns the sessions that end at or before {@code watermarkMs}. */
  List<Session> removeEndingAtOrBefore(long watermarkMs) {
    List<Session> done = new ArrayList<>();
    // Sorted and disjoint, so ends ascend: the finished sessions are a prefix.
    while (!sessions.isEmpty() && sessions.get(0).end <= watermarkMs) {
      done.add(sessions.remove(0));
    }
    return done;
  }

  /** Folds a session value or a finished partial value into {@code into}. */
  void fold(Object[] into, Object[] from) {
    for (Accumulator a : merge) {
      a.accumulate(into, from);
    }
  }

  /** Index of the first session whose end is at or after {@code t} (ends ascend). */
  private int firstEndingAtOrAfter(long t) {
    int lo = 0;
    int hi = sessions.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sessions.get(mid).end < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static Session writable(Session s) {
    if (s.saved) {
      s.buffer = s.buffer.clone();
      s.saved = false;
    }
    return s;
  }
}

package dev.freshet.engine.view;

import dev.freshet.executor.state.PinnedStateStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One committed version of a view that readers can hold: the view's batch id and, per state
 * partition, the aggregation's state that batch committed, pinned (an UPDATE view), or the
 * batch's rows (a COMPLETE view, with the rows of the version before), and the rows appended up
 * to the batch ({@link AppendedRows}). Reference counted: the view
 * holds one reference while the version is its latest, each reader one while it reads; the pins
 * are released when the last reference goes.
 *
 * <pre>{@code
 * ViewVersion v = result.pin();
 * try { ... v.partition(p).get(key) ... } finally { v.release(); }
 * }</pre>
 */
final class ViewVersion {
  /** The version of a view before its first batch: no rows. */
  static final ViewVersion EMPTY = new ViewVersion(-1, List.of());

  private final long batchId;
  private final List<PinnedStateStore<Object, Object[]>> pins;
  private final List<Object[]> rows;
  private final @Nullable ViewVersion previous;
  private final AppendedRows.@Nullable Snapshot appended;
  private final AtomicInteger references = new AtomicInteger(1);

  /** A version of state pins whose one reference is the caller's. */
  ViewVersion(long batchId, List<PinnedStateStore<Object, Object[]>> pins) {
    this(batchId, pins, null);
  }

  /**
   * A version of state pins and of the rows appended up to the batch (the groups an UPDATE
   * view's watermark evicted; all rows of an APPEND view, which has no pins).
   */
  ViewVersion(long batchId, List<PinnedStateStore<Object, Object[]>> pins,
      AppendedRows.@Nullable Snapshot appended) {
    this.batchId = batchId;
    this.pins = List.copyOf(pins);
    this.rows = List.of();
    this.previous = null;
    this.appended = appended;
  }

  /** The rows appended up to this version's batch, if the view appends rows. */
  AppendedRows.@Nullable Snapshot appended() {
    return appended;
  }

  /**
   * A version of rows, which the view holds whole; {@code previous} is the version before (its
   * own previous dropped), for a subscriber who saw that one.
   */
  ViewVersion(long batchId, List<Object[]> rows, @Nullable ViewVersion previous) {
    this.batchId = batchId;
    this.pins = List.of();
    this.rows = List.copyOf(rows);
    this.previous = previous == null || previous.batchId < 0 ? null
        : new ViewVersion(previous.batchId, previous.rows, null);
    this.appended = null;
  }

  /** The rows of a version of rows. */
  List<Object[]> rows() {
    return rows;
  }

  /** The version before a version of rows, if the view kept it. */
  @Nullable ViewVersion previous() {
    return previous;
  }

  long batchId() {
    return batchId;
  }

  /** The state of partition {@code p}; only while a reference is held. */
  PinnedStateStore<Object, Object[]> partition(int p) {
    return pins.get(p);
  }

  int partitions() {
    return pins.size();
  }

  /** Takes one more reference, unless the version was released for good. */
  boolean tryRetain() {
    if (this == EMPTY) {
      return true;
    }
    for (int n = references.get(); n > 0; n = references.get()) {
      if (references.compareAndSet(n, n + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Gives a reference back; the last one releases the pinned state. */
  void release() {
    if (this != EMPTY && references.decrementAndGet() == 0) {
      for (PinnedStateStore<Object, Object[]> pin : pins) {
        pin.close();
      }
    }
  }
}

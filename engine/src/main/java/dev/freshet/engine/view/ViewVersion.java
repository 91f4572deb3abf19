package dev.freshet.engine.view;

import dev.freshet.executor.state.PinnedStateStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One committed version of a view that readers can hold: the view's batch id and, per state
 * partition, the aggregation's state that batch committed, pinned. Reference counted: the view
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
  private final AtomicInteger references = new AtomicInteger(1);

  /** A version whose one reference is the caller's. */
  ViewVersion(long batchId, List<PinnedStateStore<Object, Object[]>> pins) {
    this.batchId = batchId;
    this.pins = List.copyOf(pins);
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

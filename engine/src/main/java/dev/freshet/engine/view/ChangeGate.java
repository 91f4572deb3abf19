package dev.freshet.engine.view;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds back the batches that commit while a subscriber reads its starting point (a snapshot or
 * a replay up to version {@code b}), then hands on those after {@code b} and every later one:
 * registered before the starting point is pinned, so that no batch falls between the two and
 * none arrives twice.
 */
final class ChangeGate implements ChangeListener {
  private final ChangeListener target;
  private final List<Long> heldIds = new ArrayList<>();
  private final List<List<Object[]>> held = new ArrayList<>();
  private boolean live;
  private long startAfter;

  ChangeGate(ChangeListener target) {
    this.target = target;
  }

  @Override public synchronized void committed(long batchId, List<Object[]> changes) {
    if (!live) {
      heldIds.add(batchId);
      held.add(changes);
    } else if (batchId > startAfter) {
      target.committed(batchId, changes);
    }
  }

  /** Hands on the held batches after {@code latest}, then every batch as it commits. */
  synchronized void goLive(long latest) {
    startAfter = latest;
    live = true;
    for (int i = 0; i < held.size(); i++) {
      if (heldIds.get(i) > latest) {
        target.committed(heldIds.get(i), held.get(i));
      }
    }
    held.clear();
    heldIds.clear();
  }
}

package dev.freshet.engine.view;

import java.util.List;

/**
 * Hears each published batch's change rows ({@link ViewChanges}) of a view, on the query's batch
 * thread after the batch is published, or, for a subscriber's starting point, on the thread that
 * subscribes.
 *
 * <pre>{@code
 * result.subscribe(-1, (batchId, changes) -> push.sink().addBatch(batchId, changes));
 * }</pre>
 */
@FunctionalInterface
public interface ChangeListener {
  void committed(long batchId, List<Object[]> changes);
}

package dev.freshet.engine.spi;

/**
 * Where a {@link RunningView} reports each batch it ran, once, in batch order, after the batch:
 * the engine keeps the last ones and the totals over every batch for its system tables, web UI
 * and metrics.
 *
 * <pre>{@code
 * ViewProgressListener listener = progress -> System.out.println(progress.numInputRows());
 * }</pre>
 */
@FunctionalInterface
public interface ViewProgressListener {
  /** A listener that keeps nothing, e.g. for a job only explained. */
  ViewProgressListener NONE = progress -> { };

  /** Batch {@code progress.batchId()} ran. Called on one thread at a time; returns quickly. */
  void onBatch(BatchProgress progress);
}

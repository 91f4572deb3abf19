package dev.freshet.spark;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.spi.BatchProgress;
import dev.freshet.engine.spi.ViewProgressListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * Every batch's progress of one Spark query, in the SPI's terms: each batch that ran handed once
 * to a {@link ViewProgressListener} (the engine's, which keeps totals over every batch), and its
 * last {@value #RETAINED} records, which Spark's own {@code recentProgress} (only
 * {@code spark.sql.streaming.numRecentProgressUpdates} records) cannot give.
 *
 * <p>Spark posts progress to listeners from its listener bus, after the batch: a reader that must
 * see a batch waits for it ({@link #awaitBatch}). The query's id is known only once Spark has
 * started it, so progress that arrives before is kept until {@link #follow} names the id. Its
 * owner removes it from the session when it stops the query.
 *
 * <pre>{@code
 * ProgressListener listener = new ProgressListener(job.progress());
 * spark.streams().addListener(listener);
 * listener.follow(writer.start().id());
 * }</pre>
 */
final class ProgressListener extends StreamingQueryListener {
  /** Records kept, as Freshet's executor. */
  static final int RETAINED = 100;

  private final Object lock = new Object();
  private final ArrayDeque<BatchProgress> recent = new ArrayDeque<>();
  private final ViewProgressListener forward;
  /** Progress of any query posted before {@link #follow}: a few at most, in a short window. */
  private final List<org.apache.spark.sql.streaming.StreamingQueryProgress> early =
      new ArrayList<>();
  private UUID id;
  private long lastBatchId = -1;

  /** Hands each batch's progress to {@code forward} too, before a waiter sees the batch. */
  ProgressListener(ViewProgressListener forward) {
    this.forward = requireNonNull(forward, "forward");
  }

  /** Follows the query {@code id} from now on, and any of its batches already reported. */
  void follow(UUID queryId) {
    synchronized (lock) {
      id = queryId;
      for (org.apache.spark.sql.streaming.StreamingQueryProgress p : early) {
        add(p);
      }
      early.clear();
    }
  }

  @Override public void onQueryProgress(QueryProgressEvent event) {
    synchronized (lock) {
      if (id == null) {
        early.add(event.progress());
      } else {
        add(event.progress());
      }
    }
  }

  private void add(org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    // A batch is counted once: Spark reports each that ran once, and a trigger that ran none
    // (which may carry the next batch's id) is not a batch.
    if (!progress.id().equals(id) || !SparkProgress.ranABatch(progress)
        || progress.batchId() <= lastBatchId) {
      return;
    }
    BatchProgress p = SparkProgress.of(progress);
    // Before the batch counts as reported: who waits for it (processAllAvailable) then finds it
    // in the engine's records.
    forward.onBatch(p);
    lastBatchId = p.batchId();
    recent.addLast(p);
    if (recent.size() > RETAINED) {
      recent.removeFirst();
    }
    lock.notifyAll();
  }

  /** The last batches' progress, oldest first. */
  List<BatchProgress> recent() {
    synchronized (lock) {
      return List.copyOf(recent);
    }
  }

  long lastBatchId() {
    synchronized (lock) {
      return lastBatchId;
    }
  }

  /** Waits until batch {@code batchId}'s progress has arrived; false if not by the deadline. */
  boolean awaitBatch(long batchId, long deadlineNanos) throws InterruptedException {
    synchronized (lock) {
      while (lastBatchId < batchId) {
        long leftMs = (deadlineNanos - System.nanoTime()) / 1_000_000;
        if (leftMs <= 0) {
          return false;
        }
        lock.wait(leftMs);
      }
      return true;
    }
  }

  @Override public void onQueryStarted(QueryStartedEvent event) {
  }

  @Override public void onQueryTerminated(QueryTerminatedEvent event) {
  }
}

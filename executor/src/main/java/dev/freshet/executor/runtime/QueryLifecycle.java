package dev.freshet.executor.runtime;

import dev.freshet.executor.limits.QueryCancelledException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state a running query shares between its batch thread and its callers, as the state of
 * Spark's {@code StreamExecution}: the status, the last committed batch and offsets, the stop
 * request and the new-data signal, the restarts. Its monitor is the one the batch thread waits
 * on between batches (for data, for the trigger, for a restart's backoff) and callers wait on
 * for a batch or the end; every change notifies them.
 *
 * <pre>{@code
 * QueryLifecycle state = new QueryLifecycle("q", 1);
 * state.start();
 * state.committed(0, new long[] {10}, watermarkMs);
 * state.processAllAvailable(new long[] {10}, Duration.ofSeconds(5));
 * }</pre>
 */
final class QueryLifecycle {
  /** The query's logger, as before the lifecycle had a class of its own. */
  private static final Logger LOG = LoggerFactory.getLogger(MicroBatchExecution.class);

  /**
   * What the batch thread asks while it waits for work: whether a stream is ahead, whether a
   * batch without data is due, how long until either may change.
   */
  interface WorkCheck {
    /** Whether a stream has offsets beyond {@code committed}. */
    boolean dataAhead(long[] committed);

    /**
     * Whether a batch without data is due now; {@code started} is false before the first batch,
     * when the operators have not read their state.
     */
    boolean noDataBatchDue(boolean started);

    /**
     * Milliseconds until work may be due ({@link Long#MAX_VALUE}: only a signal brings it);
     * {@code started} as in {@link #noDataBatchDue}.
     */
    long millisUntilCheck(long[] committed, boolean started);
  }

  private final String name;
  private boolean newData;
  private boolean stopRequested;
  /** True while the batch thread waits for data: no batch, not even a no-data batch, is due. */
  private boolean idle;
  private QueryStatus status = QueryStatus.INITIALIZING;
  private Throwable error;
  /** Per stream, the end offset of the last committed batch. */
  private long[] committedOffsets;
  private long lastBatchId = -1;
  /** Restarts since the last committed batch; 0 while batches commit. */
  private int restartAttempt;
  /** Restarts since the query started, also those it recovered from. */
  private long restarts;
  /** The most recent failure: the one being restarted from, the final one, or a past one. */
  private Throwable lastFailure;
  /** The watermark of the last committed batch: the late-data watermark of the next. */
  private long committedWatermark;

  QueryLifecycle(String name, int streams) {
    this.name = name;
    this.committedOffsets = new long[streams];
  }

  synchronized QueryStatus status() {
    return status;
  }

  synchronized long lastBatchId() {
    return lastBatchId;
  }

  synchronized Optional<Throwable> exception() {
    return Optional.ofNullable(error);
  }

  synchronized int restartAttempt() {
    return restartAttempt;
  }

  synchronized long restarts() {
    return restarts;
  }

  synchronized Optional<Throwable> lastFailure() {
    return Optional.ofNullable(lastFailure);
  }

  synchronized boolean isStopRequested() {
    return stopRequested;
  }

  /** The watermark of the last committed batch. */
  synchronized long committedWatermark() {
    return committedWatermark;
  }

  /** Per stream, the end offset of the last committed batch (a copy). */
  synchronized long[] committedOffsets() {
    return committedOffsets.clone();
  }

  /** Marks the query started; fails if it was started before. */
  synchronized void start() {
    if (status != QueryStatus.INITIALIZING) {
      throw new IllegalStateException("query " + name + " was already started");
    }
    status = QueryStatus.ACTIVE;
  }

  /**
   * Asks the batch thread to stop and wakes it.
   *
   * @return true if the query had not started: then it is stopped now, without a thread to end
   */
  synchronized boolean requestStop() {
    stopRequested = true;
    notifyAll();
    if (status == QueryStatus.INITIALIZING) {
      status = QueryStatus.STOPPED;
      return true;
    }
    return false;
  }

  /** The batch thread ended, by a stop ({@code failure} null) or a failure. */
  synchronized void terminated(Throwable failure) {
    status = failure == null ? QueryStatus.STOPPED : QueryStatus.FAILED;
    error = failure;
    if (failure != null) {
      lastFailure = failure;
    }
    notifyAll();
  }

  /** A stream has new data: wakes the batch thread. */
  synchronized void signalNewData() {
    newData = true;
    notifyAll();
  }

  /** The query resumes from its logs at batch {@code batchId}, its streams at {@code start}. */
  synchronized void resumedAt(long batchId, long[] start) {
    committedOffsets = start.clone();
    lastBatchId = batchId - 1;
  }

  /** Batch {@code batchId} committed: its offsets and watermark are the next batch's start. */
  synchronized void committed(long batchId, long[] end, long watermark) {
    committedOffsets = end.clone();
    lastBatchId = batchId;
    committedWatermark = watermark;
    // A batch went through: the next failure starts the count and the backoff afresh.
    restartAttempt = 0;
    notifyAll();
  }

  /**
   * Waits until every stream's committed offset reaches {@code target} and the query is idle.
   *
   * @return whether they reached it within {@code timeout} (false also if the query ended)
   */
  synchronized boolean processAllAvailable(long[] target, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while ((!reaches(committedOffsets, target) || !idle) && status.isRunning()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      Duration wait = Duration.ofNanos(left);
      wait(Math.max(1, wait.toMillis()));
    }
    return reaches(committedOffsets, target);
  }

  /** Waits until the query has stopped; whether it did within {@code timeout}. */
  synchronized boolean awaitTermination(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (status.isRunning() || status == QueryStatus.INITIALIZING) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, Duration.ofNanos(left).toMillis()));
    }
    return true;
  }

  /**
   * Waits until {@code clock} reaches {@code nextMs}; false if the query was stopped meanwhile.
   */
  synchronized boolean sleepUntil(long nextMs, LongSupplier clock) throws InterruptedException {
    for (long now = clock.getAsLong(); now < nextMs && !stopRequested; now = clock.getAsLong()) {
      wait(nextMs - now);
    }
    return !stopRequested;
  }

  /**
   * Waits until a stream has data beyond its committed offset or a batch without data is due;
   * false if stop was requested. A stream wakes it by its new-data signal; else the wait ends
   * when {@code work} says work may be due, never sooner than
   * {@link MicroBatchExecution#MIN_POLL_DELAY_MS}.
   */
  synchronized boolean awaitWork(WorkCheck work) throws InterruptedException {
    while (!stopRequested) {
      if (newData || work.dataAhead(committedOffsets)) {
        newData = false;
        idle = false;
        return true;
      }
      if (work.noDataBatchDue(lastBatchId >= 0)) {
        idle = false;
        return true;
      }
      idle = true;
      notifyAll();
      long due = work.millisUntilCheck(committedOffsets, lastBatchId >= 0);
      if (due != Long.MAX_VALUE) {
        wait(Math.max(MicroBatchExecution.MIN_POLL_DELAY_MS, due));
      } else {
        wait();
      }
    }
    return false;
  }

  /**
   * Restarts the query after {@code failure} if the strategy allows: waits the backoff as
   * {@link QueryStatus#RESTARTING}, then restarts the sink; a sink that fails to restart (its
   * target still away) is the next attempt's failure. The batch that failed was aborted.
   *
   * @return null if the batches are to resume, or the query was stopped meanwhile (the caller
   *     checks); else the final failure, the last of the attempts
   */
  Throwable restartAfter(Throwable failure, RestartStrategy strategy, Sink sink)
      throws InterruptedException {
    Throwable current = failure;
    while (true) {
      int attempt;
      synchronized (this) {
        if (stopRequested) {
          return null;
        }
        if (restartAttempt >= strategy.maxAttempts() || !strategy.isRecoverable(current)) {
          return current;
        }
        attempt = ++restartAttempt;
        restarts++;
        lastFailure = current;
        status = QueryStatus.RESTARTING;
        notifyAll();
      }
      Duration backoff = strategy.backoff(attempt);
      LOG.warn("Query {} failed with a recoverable error; restart {} of {} in {} ms: {}", name,
          attempt, strategy.maxAttempts(), backoff.toMillis(), current.toString());
      // Waits on the monitor, so that stop() ends the wait at once.
      long deadline = System.nanoTime() + backoff.toNanos();
      synchronized (this) {
        for (long left = backoff.toNanos(); left > 0 && !stopRequested;
            left = deadline - System.nanoTime()) {
          wait(Math.max(1, left / 1_000_000));
        }
        if (stopRequested) {
          return null;
        }
      }
      try {
        sink.restart();
      } catch (QueryCancelledException stopped) {
        return null;
      } catch (RuntimeException e) {
        current = e;
        continue;
      }
      synchronized (this) {
        if (status == QueryStatus.RESTARTING) {
          status = QueryStatus.ACTIVE;
        }
      }
      return null;
    }
  }

  /** Whether every stream's offset in {@code offsets} is at least its {@code target}. */
  private static boolean reaches(long[] offsets, long[] target) {
    for (int i = 0; i < offsets.length; i++) {
      if (offsets[i] < target[i]) {
        return false;
      }
    }
    return true;
  }
}

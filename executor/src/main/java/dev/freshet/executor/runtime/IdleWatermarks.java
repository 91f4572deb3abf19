package dev.freshet.executor.runtime;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * When the watermark of a query's idle streams follows the clock: each stream's
 * {@code 'watermark.idle-timeout'} ({@link EventTimeWatermarkOperator#idleTimeoutMs}), seen from
 * the batch loop of a {@link MicroBatchExecution}, which runs a batch without data when the
 * watermark that the clock gives would close a window or evict state, and records that watermark
 * in the offset log.
 *
 * <p>Two rules keep an idle query cheap. Once an advance has left the query without state, no
 * further advance has anything to do until rows come ({@link #drained}): the query sleeps. While
 * state remains (a window whose end is still ahead of the clock), advances come at most one
 * {@link #stepMs step} apart (the shortest timeout, at least a trigger interval), rather than a
 * batch per trigger only because the clock moved.
 *
 * <pre>{@code
 * IdleWatermarks idle = new IdleWatermarks(pipeline.watermarks(), trigger);
 * idle.startClocks(now);
 * long w = idle.watermarkAt(now);            // the watermark a batch without data would have
 * if (w > pipeline.watermarkMs() && needsNoDataBatch(w)) {
 *   long recorded = idle.advance(batchStartMs, pipeline::watermarkMs);   // into the offset log
 * }
 * }</pre>
 *
 * <p>Batch thread only.
 */
final class IdleWatermarks {
  private final List<EventTimeWatermarkOperator> watermarks;
  private final Trigger trigger;
  /** Whether any stream has a timeout; else everything here is off. */
  private final boolean enabled;
  /** The state was empty after the last advance: nothing to do until rows come. */
  private boolean drained;
  /** The time of the last advance since rows last came, or {@link Long#MIN_VALUE}. */
  private long lastAdvanceMs = Long.MIN_VALUE;

  IdleWatermarks(List<EventTimeWatermarkOperator> watermarks, Trigger trigger) {
    this.watermarks = List.copyOf(watermarks);
    this.trigger = requireNonNull(trigger, "trigger");
    this.enabled = !trigger.isBounded()
        && this.watermarks.stream().anyMatch(w -> w.idleTimeoutMs() > 0);
  }

  /**
   * Starts each stream's idle clock at a run's start: the time of the rows before it is not
   * known, so the timeout counts from there.
   */
  void startClocks(long nowMs) {
    for (EventTimeWatermarkOperator w : watermarks) {
      w.startIdleClock(nowMs);
    }
  }

  private boolean off() {
    return !enabled || drained;
  }

  /**
   * The query's watermark for a batch without data at {@code nowMs}: the minimum over its
   * streams, each idle one's following the clock; {@code current} when off or within a step of
   * the previous advance.
   */
  long watermarkAt(long nowMs, long current) {
    if (off() || lastAdvanceMs != Long.MIN_VALUE && nowMs - lastAdvanceMs < stepMs()) {
      return current;
    }
    long min = Long.MAX_VALUE;
    for (EventTimeWatermarkOperator w : watermarks) {
      min = Math.min(min, w.watermarkAt(nowMs));
    }
    return Math.max(current, min);
  }

  /** Whether the advance at {@code nowMs} makes a batch due, by {@code needsNoDataBatch}. */
  boolean batchDue(long nowMs, long current, LongPredicate needsNoDataBatch) {
    long idle = watermarkAt(nowMs, current);
    return idle > current && needsNoDataBatch.test(idle);
  }

  /**
   * Advances each idle stream's watermark for a batch starting at {@code nowMs}; the caller
   * reads the query's watermark after it.
   */
  void advance(long nowMs) {
    for (EventTimeWatermarkOperator w : watermarks) {
      w.advanceIdle(nowMs);
    }
    lastAdvanceMs = nowMs;
  }

  /**
   * Notes a committed batch: rows end the idleness; after an advance, {@code stateRows} 0 means
   * nothing is left to close.
   */
  void batchCommitted(boolean hadRows, boolean advanced, long stateRows) {
    if (hadRows) {
      drained = false;
      lastAdvanceMs = Long.MIN_VALUE;
    } else if (advanced) {
      drained = stateRows == 0;
    }
  }

  /**
   * How long the loop may wait for rows before looking again whether an advance is due: until a
   * stream turns idle or the next step; {@link Long#MAX_VALUE} when off.
   */
  long millisUntilCheck(long nowMs) {
    if (off()) {
      return Long.MAX_VALUE;
    }
    long step = stepMs();
    if (lastAdvanceMs != Long.MIN_VALUE) {
      return Math.max(MicroBatchExecution.MIN_POLL_DELAY_MS, lastAdvanceMs + step - nowMs);
    }
    long wait = Long.MAX_VALUE;
    for (EventTimeWatermarkOperator w : watermarks) {
      long untilIdle = w.millisUntilIdle(nowMs);
      wait = Math.min(wait, untilIdle == 0 ? step : untilIdle);
    }
    return Math.max(MicroBatchExecution.MIN_POLL_DELAY_MS, wait);
  }

  /** The shortest idle timeout of the streams, at least a trigger interval. */
  long stepMs() {
    long step = Long.MAX_VALUE;
    for (EventTimeWatermarkOperator w : watermarks) {
      if (w.idleTimeoutMs() > 0) {
        step = Math.min(step, w.idleTimeoutMs());
      }
    }
    long interval = trigger instanceof Trigger.ProcessingTime p ? p.intervalMs() : 0;
    return Math.max(Math.max(step, interval), MicroBatchExecution.MIN_POLL_DELAY_MS);
  }
}

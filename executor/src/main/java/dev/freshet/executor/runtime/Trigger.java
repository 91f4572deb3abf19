package dev.freshet.executor.runtime;

/**
 * When a streaming query starts its next micro-batch, as Spark's {@code Trigger}.
 *
 * <pre>{@code
 * Trigger.processingTime(1000)   // at most one batch per second, on second boundaries
 * Trigger.DEFAULT                // as soon as the previous batch ended and data is there
 * }</pre>
 */
public sealed interface Trigger {
  /** The next batch starts as soon as the previous one ended and new data is there. */
  Trigger DEFAULT = new AsSoonAsPossible();

  /** One batch over the data available at start, then the query stops (Spark's Trigger.Once). */
  Trigger ONCE = new Once();

  /**
   * Batches until the data available at start is processed, including the batches without data
   * that the watermark makes due; then the query stops (Spark's Trigger.AvailableNow).
   */
  Trigger AVAILABLE_NOW = new AvailableNow();

  /** A trigger that starts batches at multiples of {@code intervalMs} (0 means the default). */
  static Trigger processingTime(long intervalMs) {
    if (intervalMs < 0) {
      throw new IllegalArgumentException("trigger interval must not be negative: " + intervalMs);
    }
    return intervalMs == 0 ? DEFAULT : new ProcessingTime(intervalMs);
  }

  /** Batches as soon as possible. */
  record AsSoonAsPossible() implements Trigger {
  }

  /** One batch, then stop. */
  record Once() implements Trigger {
  }

  /** What is available at start, then stop. */
  record AvailableNow() implements Trigger {
  }

  /** Whether the query stops by itself once it has processed the data available at start. */
  default boolean isBounded() {
    return this instanceof Once || this instanceof AvailableNow;
  }

  /**
   * Batches start at multiples of the interval since the epoch; data arriving in between waits
   * and goes into the next batch together.
   *
   * @param intervalMs the interval in milliseconds, positive
   */
  record ProcessingTime(long intervalMs) implements Trigger {
    public ProcessingTime {
      if (intervalMs <= 0) {
        throw new IllegalArgumentException("interval must be positive: " + intervalMs);
      }
    }

    /** The first trigger time after a batch that started at {@code startedMs}. */
    public long nextAfter(long startedMs) {
      return startedMs - Math.floorMod(startedMs, intervalMs) + intervalMs;
    }
  }
}

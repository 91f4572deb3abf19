package dev.freshet.executor.runtime;

import java.util.Arrays;

/**
 * What a query's batches add up to since it started (this run: a query resumed from its
 * checkpoint starts again from zero): batches, input rows, rows dropped as late, and how long the
 * batches took, also counted per duration bucket. Its progress records are only the last
 * {@link MicroBatchExecution#PROGRESS_RETAINED}; these totals count every batch, so that a
 * monitor reading them now and then misses none.
 *
 * <pre>{@code
 * ProgressTotals totals = query.progressTotals();
 * totals.inputRows();                 // rows read by every batch of this run
 * totals.durationCounts()[0];         // batches that took at most 1 ms
 * }</pre>
 *
 * <p>Immutable: each batch makes the next totals ({@link #plus}), once per batch, not per row.
 */
public final class ProgressTotals {
  /**
   * Upper bounds, in seconds, of the duration buckets but the last (unbounded) one:
   * micro-batches take from a millisecond (a few rows) to seconds (a large state, a slow sink).
   */
  private static final double[] DURATION_BOUNDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
      0.25, 0.5, 1, 2.5, 5, 10, 30};

  /** The totals of a query that ran no batch. */
  public static final ProgressTotals NONE = new ProgressTotals(0, 0, 0, 0,
      new long[DURATION_BOUNDS.length + 1]);

  private final long batches;
  private final long inputRows;
  private final long lateRows;
  private final double durationSeconds;
  /** Batches per bucket of {@link #DURATION_BOUNDS}, then beyond the last; not cumulative. */
  private final long[] durationCounts;

  private ProgressTotals(long batches, long inputRows, long lateRows, double durationSeconds,
      long[] durationCounts) {
    this.batches = batches;
    this.inputRows = inputRows;
    this.lateRows = lateRows;
    this.durationSeconds = durationSeconds;
    this.durationCounts = durationCounts;
  }

  /** These totals with batch {@code p} added. */
  public ProgressTotals plus(StreamingQueryProgress p) {
    long late = 0;
    for (StateOperatorProgress operator : p.stateOperators()) {
      late += operator.numRowsDroppedByWatermark();
    }
    double seconds = p.durationMs() / 1000.0;
    long[] counts = durationCounts.clone();
    counts[bucket(seconds)]++;
    return new ProgressTotals(batches + 1, inputRows + p.numInputRows(), lateRows + late,
        durationSeconds + seconds, counts);
  }

  private static int bucket(double seconds) {
    for (int i = 0; i < DURATION_BOUNDS.length; i++) {
      if (seconds <= DURATION_BOUNDS[i]) {
        return i;
      }
    }
    return DURATION_BOUNDS.length;
  }

  /** Batches committed, with and without data. */
  public long batches() {
    return batches;
  }

  /** Rows the batches read from their sources. */
  public long inputRows() {
    return inputRows;
  }

  /** Rows the stateful operators dropped as late ({@code numRowsDroppedByWatermark}). */
  public long lateRows() {
    return lateRows;
  }

  /** The batches' durations added up, in seconds. */
  public double durationSeconds() {
    return durationSeconds;
  }

  /** The upper bounds of the duration buckets, in seconds, but the last, unbounded, one. */
  public static double[] durationBounds() {
    return DURATION_BOUNDS.clone();
  }

  /**
   * Batches per duration bucket (one more than {@link #durationBounds()}: the last counts those
   * longer than every bound); not cumulative.
   */
  public long[] durationCounts() {
    return durationCounts.clone();
  }

  @Override public String toString() {
    return "ProgressTotals{batches=" + batches + ", inputRows=" + inputRows + ", lateRows="
        + lateRows + ", durationSeconds=" + durationSeconds + ", durationCounts="
        + Arrays.toString(durationCounts) + "}";
  }
}

package dev.freshet.server.ui.metrics;

import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.util.List;
import java.util.Optional;

/**
 * The running totals of one continuous query, added up from its progress records as scrapes
 * find them, so that its counters never go backwards although the query keeps only its last 100
 * records ({@link dev.freshet.executor.runtime.MicroBatchExecution#PROGRESS_RETAINED}).
 *
 * <pre>{@code
 * totals.add(query.recentProgress());   // at each scrape: only batches not seen before count
 * totals.inputRows();
 * }</pre>
 *
 * <p>Each record counts once: the totals remember the last batch id added. A batch whose record
 * the query dropped before any scrape saw it is not counted (more than 100 batches of one query
 * between two scrapes). Not thread-safe: the collector adds and reads under its own lock.
 */
final class QueryTotals {
  /**
   * Upper bounds, in seconds, of the batch duration histogram's buckets but +Inf: micro-batches
   * take from a millisecond (a few rows) to seconds (a large state or a slow sink).
   */
  static final double[] DURATION_BOUNDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
      0.5, 1, 2.5, 5, 10, 30};

  /** The last batch added; -1 before the first. */
  private long lastBatchId = -1;
  private long inputRows;
  private long batches;
  private long lateRows;
  /** Batches per duration bucket, not cumulative; the last one is +Inf. */
  private final long[] durationCounts = new long[DURATION_BOUNDS.length + 1];
  private double durationSeconds;
  private StreamingQueryProgress last;

  /** Adds the records of batches after the last one added; {@code recent} is oldest first. */
  void add(List<StreamingQueryProgress> recent) {
    for (StreamingQueryProgress p : recent) {
      if (p.batchId() <= lastBatchId) {
        continue;
      }
      lastBatchId = p.batchId();
      last = p;
      batches++;
      inputRows += p.numInputRows();
      for (StateOperatorProgress operator : p.stateOperators()) {
        lateRows += operator.numRowsDroppedByWatermark();
      }
      double seconds = p.durationMs() / 1000.0;
      durationSeconds += seconds;
      durationCounts[bucket(seconds)]++;
    }
  }

  private static int bucket(double seconds) {
    for (int i = 0; i < DURATION_BOUNDS.length; i++) {
      if (seconds <= DURATION_BOUNDS[i]) {
        return i;
      }
    }
    return DURATION_BOUNDS.length;
  }

  long inputRows() {
    return inputRows;
  }

  long batches() {
    return batches;
  }

  long lateRows() {
    return lateRows;
  }

  /** Batches per bucket of {@link #DURATION_BOUNDS} and +Inf, not cumulative (a copy). */
  long[] durationCounts() {
    return durationCounts.clone();
  }

  double durationSeconds() {
    return durationSeconds;
  }

  /** The record of the last batch added, if any. */
  Optional<StreamingQueryProgress> last() {
    return Optional.ofNullable(last);
  }
}

package dev.freshet.engine.query;

import dev.freshet.executor.runtime.ProgressTotals;
import dev.freshet.executor.runtime.StateOperatorProgress;
import dev.freshet.executor.runtime.StreamingQueryProgress;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a monitor (the web UI, a Prometheus scrape) reads of a continuous query, in the engine's
 * terms: its status, its last batches and its totals since it started. The executor's progress
 * records stay behind this API, so that the server needs no executor runtime class and the
 * executor may change them without the server noticing.
 *
 * <pre>{@code
 * QueryMonitor.Totals totals = QueryMonitor.totals(query);
 * QueryMonitor.lastBatch(query).map(QueryMonitor.Batch::stateRows);
 * }</pre>
 */
public final class QueryMonitor {
  private QueryMonitor() {
  }

  /**
   * One committed batch, as Spark's {@code StreamingQueryProgress} shows it.
   *
   * @param batchId the batch's id
   * @param timestampMs when the batch started
   * @param inputRows rows it read from every source
   * @param inputRowsPerSecond rows read over the time since the previous batch started
   * @param processedRowsPerSecond rows read over the batch's duration
   * @param durationMs from the offset log's write to the commit log's
   * @param stateRows rows (groups) the stateful operators kept after the batch
   * @param watermarkMs the watermark the batch ran with
   * @param watermarkLagMs {@code timestampMs - watermarkMs}; empty for a query without a
   *     watermark, or before its first event time
   * @param lateRows rows the watermark dropped as late in the batch
   */
  public record Batch(long batchId, long timestampMs, long inputRows, double inputRowsPerSecond,
      double processedRowsPerSecond, long durationMs, long stateRows, long watermarkMs,
      OptionalLong watermarkLagMs, long lateRows) {
    static Batch of(StreamingQueryProgress p) {
      long stateRows = 0;
      long lateRows = 0;
      for (StateOperatorProgress operator : p.stateOperators()) {
        stateRows += operator.numRowsTotal();
        lateRows += operator.numRowsDroppedByWatermark();
      }
      return new Batch(p.batchId(), p.timestampMs(), p.numInputRows(), p.inputRowsPerSecond(),
          p.processedRowsPerSecond(), p.durationMs(), stateRows, p.batchWatermarkMs(),
          p.watermarkLagMs(), lateRows);
    }
  }

  /**
   * Every batch of the query's run added up: they only grow, as counters should, while the
   * retained batches roll over.
   *
   * @param batches batches committed, with and without data
   * @param inputRows rows read
   * @param lateRows rows dropped as late
   * @param durationSeconds the batches' durations added up
   * @param durationCounts batches per duration bucket of {@link #durationBounds()}, the last
   *     for longer ones
   */
  public record Totals(long batches, long inputRows, long lateRows, double durationSeconds,
      long[] durationCounts) {
    static Totals of(ProgressTotals t) {
      return new Totals(t.batches(), t.inputRows(), t.lateRows(), t.durationSeconds(),
          t.durationCounts());
    }
  }

  /** The upper bounds, in seconds, of the duration buckets of {@link Totals#durationCounts()}. */
  public static double[] durationBounds() {
    return ProgressTotals.durationBounds();
  }

  /** The query's status by name: {@code ACTIVE}, {@code RESTARTING}, {@code FAILED}, ... */
  public static String status(ContinuousQuery query) {
    return query.status().name();
  }

  /** The query's batches since it started, added up. */
  public static Totals totals(ContinuousQuery query) {
    return Totals.of(query.progressTotals());
  }

  /** The query's last committed batch, if one ran. */
  public static Optional<Batch> lastBatch(ContinuousQuery query) {
    return query.lastProgress().map(Batch::of);
  }

  /** The query's most recent committed batches as retained, in no particular order. */
  public static List<Batch> recentBatches(ContinuousQuery query) {
    return query.recentProgress().stream().map(Batch::of).toList();
  }
}

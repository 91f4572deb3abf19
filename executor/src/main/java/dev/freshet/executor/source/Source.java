package dev.freshet.executor.source;

import java.util.function.Consumer;

/**
 * Replayable input of a streaming query, addressed by offsets.
 *
 * <p>Offsets are non-negative and grow; offset 0 means "nothing yet". A micro-batch reads the rows
 * in {@code (start, end]} and the same range always returns the same rows, which is what makes a
 * re-run batch produce the same result.
 *
 * <pre>{@code
 * long end = source.latestOffset();
 * source.readRange(committed, end, row -> pipeline.push(row));
 * }</pre>
 *
 * <p>Optional abilities are interfaces of their own: {@link SupportsAdmissionControl} (a limit on
 * one batch) and {@link SupportsTimedAvailability} (data that appears with time, not by writes).
 */
public interface Source {
  /**
   * A short description for progress and plans, e.g. {@code MemoryStream[clicks]} or
   * {@code SequenceSource[NUMS]}.
   */
  String description();

  /** The offset of the newest data available now. */
  long latestOffset();

  /**
   * Hands every row in offsets {@code (start, end]} to {@code rows}, in offset order. The arrays
   * are the consumer's to keep: a source never reuses or changes a row it handed out (the
   * consumer must not change it either).
   */
  void readRange(long start, long end, Consumer<Object[]> rows);

  /**
   * Registers a callback run whenever new data becomes available (from the writing thread; it must
   * be cheap and must not block).
   *
   * @return a handle that unregisters the callback
   */
  AutoCloseable onNewData(Runnable listener);
}

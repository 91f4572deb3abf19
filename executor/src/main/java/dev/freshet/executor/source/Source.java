package dev.freshet.executor.source;

import java.util.function.Consumer;

/**
 * Replayable input of a streaming query, addressed by offsets.
 *
 * <p>Offsets are non-negative and grow; offset 0 means "nothing yet". A micro-batch reads the rows
 * in {@code (start, end]} and the same range always returns the same rows, which is what makes a
 * re-run batch produce the same result.
 */
public interface Source {
  /** A short description for progress and plans, e.g. {@code MemoryStream[clicks]}. */
  String description();

  /** The offset of the newest data available now. */
  long latestOffset();

  /** Hands every row in offsets {@code (start, end]} to {@code rows}, in offset order. */
  void readRange(long start, long end, Consumer<Object[]> rows);

  /**
   * Registers a callback run whenever new data becomes available (from the writing thread; it must
   * be cheap and must not block).
   *
   * @return a handle that unregisters the callback
   */
  AutoCloseable onNewData(Runnable listener);
}

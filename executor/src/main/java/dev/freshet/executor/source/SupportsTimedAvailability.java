package dev.freshet.executor.source;

import java.util.OptionalLong;

/**
 * Source whose data becomes available as time passes rather than when something is written, so
 * that no one calls the {@linkplain Source#onNewData new-data listeners}: a paced generator.
 *
 * <pre>{@code
 * OptionalLong due = paced.millisUntilAvailable(committed + 1);
 * if (due.isPresent()) {
 *   monitor.wait(Math.max(MIN_POLL_MS, due.getAsLong()));   // wake when the next row is due
 * } else {
 *   monitor.wait();                                        // only a signal or stop wakes it
 * }
 * }</pre>
 *
 * <p>The runtime asks when it has caught up and would otherwise wait for a signal. Telling the
 * runtime when to look again needs no timer thread per source, nothing to stop when a stream is
 * dropped, and lets each query wait exactly for the offset it needs next.
 */
public interface SupportsTimedAvailability extends Source {
  /**
   * How many milliseconds, from now, until offset {@code offset} is available: 0 if it is
   * already, and empty if the source will never have it by the passing of time alone (a bounded
   * source that ends before it).
   */
  OptionalLong millisUntilAvailable(long offset);
}

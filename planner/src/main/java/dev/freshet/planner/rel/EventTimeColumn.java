package dev.freshet.planner.rel;

import static java.util.Objects.requireNonNull;

/**
 * A column whose values carry event time, and the watermark behind it.
 *
 * <p>The event time of a value is the value plus {@code offsetMs}: 0 for the watermark column
 * itself or a {@code window_end}, the window size for a {@code window_start} (a window is done
 * when its end passes the watermark).
 *
 * @param index the column
 * @param offsetMs added to a value to get its event time
 * @param watermarkColumn the stream column the watermark is declared on
 * @param delayMs the watermark's delay
 */
public record EventTimeColumn(int index, long offsetMs, String watermarkColumn, long delayMs) {
  public EventTimeColumn {
    requireNonNull(watermarkColumn, "watermarkColumn");
  }

  /** The same event time at another position. */
  public EventTimeColumn at(int newIndex) {
    return new EventTimeColumn(newIndex, offsetMs, watermarkColumn, delayMs);
  }

  /** How EXPLAIN shows the column: {@code $1 + 10000 ms}. */
  public String describe() {
    return "$" + index + (offsetMs == 0 ? "" : " + " + offsetMs + " ms");
  }
}

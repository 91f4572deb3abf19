package dev.freshet.executor.operators;

/**
 * The grouping column of a stateful aggregation that carries event time, which lets the watermark
 * drop late rows and finalize groups.
 *
 * <p>A group's event time is the key column's value plus {@code offsetMs}: 0 for the event-time
 * column itself or a window end, the window size for a window start (a window is final when its
 * end is at or before the watermark).
 *
 * @param keyIndex position of the column among the grouping columns
 * @param offsetMs added to the column's value to get the group's event time
 */
public record EventTimeKey(int keyIndex, long offsetMs) {
  public EventTimeKey {
    if (keyIndex < 0) {
      throw new IllegalArgumentException("keyIndex must not be negative: " + keyIndex);
    }
  }
}

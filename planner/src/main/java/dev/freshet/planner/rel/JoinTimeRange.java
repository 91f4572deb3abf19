package dev.freshet.planner.rel;

import java.util.List;

/**
 * The event-time range of a stream-stream join: the left row's event time {@code l} must lie
 * within {@code [r + lowerMs, r + upperMs]} of the right row's {@code r} (each bound inclusive or
 * not, either absent). It is what lets the join forget rows: once the watermark passes the
 * latest event time a row could still match, no later row can join it (Spark's
 * {@code StreamingJoinHelper.getStateValueWatermark}).
 *
 * <pre>{@code
 * // l.ts BETWEEN r.ts - INTERVAL '10' SECOND AND r.ts + INTERVAL '10' SECOND
 * new JoinTimeRange(2, 1, -10_000, true, 10_000, true);
 * }</pre>
 *
 * @param leftTime the left input's event-time column
 * @param rightTime the right input's event-time column
 * @param lowerMs the lower bound of {@code l - r}, {@link Long#MIN_VALUE} if none
 * @param lowerInclusive whether {@code l - r} may equal {@code lowerMs}
 * @param upperMs the upper bound of {@code l - r}, {@link Long#MAX_VALUE} if none
 * @param upperInclusive whether {@code l - r} may equal {@code upperMs}
 */
public record JoinTimeRange(int leftTime, int rightTime, long lowerMs, boolean lowerInclusive,
    long upperMs, boolean upperInclusive) {
  /** No bound: any difference of event times. */
  public static final long NO_LOWER = Long.MIN_VALUE;
  public static final long NO_UPPER = Long.MAX_VALUE;

  /** Whether the left row's event time is bounded below by the right's. */
  public boolean hasLower() {
    return lowerMs != NO_LOWER;
  }

  /** Whether the left row's event time is bounded above by the right's. */
  public boolean hasUpper() {
    return upperMs != NO_UPPER;
  }

  /** This range narrowed by the bound {@code l - r > ms} (or {@code >=}). */
  public JoinTimeRange withLowerBound(long ms, boolean inclusive) {
    if (ms > lowerMs || ms == lowerMs && !inclusive) {
      return new JoinTimeRange(leftTime, rightTime, ms, inclusive, upperMs, upperInclusive);
    }
    return this;
  }

  /** This range narrowed by the bound {@code l - r < ms} (or {@code <=}). */
  public JoinTimeRange withUpperBound(long ms, boolean inclusive) {
    if (ms < upperMs || ms == upperMs && !inclusive) {
      return new JoinTimeRange(leftTime, rightTime, lowerMs, lowerInclusive, ms, inclusive);
    }
    return this;
  }

  /** The range as EXPLAIN shows it, e.g. {@code L.TS BETWEEN R.TS - 10000 ms AND ...}. */
  public String describe(List<String> leftNames, List<String> rightNames) {
    String l = leftNames.get(leftTime);
    String r = rightNames.get(rightTime);
    StringBuilder text = new StringBuilder();
    if (hasLower()) {
      text.append(l).append(lowerInclusive ? " >= " : " > ").append(r).append(offset(lowerMs));
    }
    if (hasUpper()) {
      text.append(hasLower() ? " AND " : "").append(l).append(upperInclusive ? " <= " : " < ")
          .append(r).append(offset(upperMs));
    }
    return text.toString();
  }

  private static String offset(long ms) {
    return ms == 0 ? "" : ms > 0 ? " + " + ms + " ms" : " - " + -ms + " ms";
  }
}

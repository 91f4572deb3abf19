package dev.freshet.executor.operators.join;

/**
 * The event-time range of a stream-stream join, relative to the right row's event time:
 * {@code l.ts BETWEEN r.ts + lowerMs AND r.ts + upperMs}, each bound inclusive or strict.
 *
 * <pre>{@code
 * // l.ts BETWEEN r.ts - INTERVAL '10' SECOND AND r.ts + INTERVAL '10' SECOND
 * new TimeRange(-10_000, true, 10_000, true);
 * // l.ts > r.ts (no upper bound)
 * new TimeRange(0, false, TimeRange.NO_UPPER, true);
 * }</pre>
 *
 * <p>The lower bound lets the left side's state be evicted (no later right row can reach a left
 * row below the watermark plus {@code lowerMs}), the upper bound the right side's.
 *
 * @param lowerMs the least {@code l.ts - r.ts}, or {@link #NO_LOWER}
 * @param lowerInclusive whether {@code l.ts - r.ts == lowerMs} matches
 * @param upperMs the greatest {@code l.ts - r.ts}, or {@link #NO_UPPER}
 * @param upperInclusive whether {@code l.ts - r.ts == upperMs} matches
 */
public record TimeRange(long lowerMs, boolean lowerInclusive, long upperMs,
    boolean upperInclusive) {
  /** An absent lower bound. */
  public static final long NO_LOWER = Long.MIN_VALUE;
  /** An absent upper bound. */
  public static final long NO_UPPER = Long.MAX_VALUE;
  /** No bound at all: every pair of event times matches. */
  public static final TimeRange UNBOUNDED = new TimeRange(NO_LOWER, true, NO_UPPER, true);

  /** Whether the range has a lower bound. */
  public boolean hasLower() {
    return lowerMs != NO_LOWER;
  }

  /** Whether the range has an upper bound. */
  public boolean hasUpper() {
    return upperMs != NO_UPPER;
  }

  /**
   * Whether a left row at {@code leftMs} and a right row at {@code rightMs} are in range. The
   * bounds are compared as {@code l.ts - r.ts}, which cannot overflow for event times of this
   * era.
   */
  public boolean contains(long leftMs, long rightMs) {
    long d = leftMs - rightMs;
    return (!hasLower() || (lowerInclusive ? d >= lowerMs : d > lowerMs))
        && (!hasUpper() || (upperInclusive ? d <= upperMs : d < upperMs));
  }

  /**
   * The range that both this one and {@code other} allow: the larger lower bound and the smaller
   * upper bound (the stricter one when two bounds are equal).
   */
  public TimeRange intersect(TimeRange other) {
    long lower;
    boolean lowerIncl;
    if (lowerMs != other.lowerMs) {
      lower = Math.max(lowerMs, other.lowerMs);
      lowerIncl = lower == lowerMs ? lowerInclusive : other.lowerInclusive;
    } else {
      lower = lowerMs;
      lowerIncl = lowerInclusive && other.lowerInclusive;
    }
    long upper;
    boolean upperIncl;
    if (upperMs != other.upperMs) {
      upper = Math.min(upperMs, other.upperMs);
      upperIncl = upper == upperMs ? upperInclusive : other.upperInclusive;
    } else {
      upper = upperMs;
      upperIncl = upperInclusive && other.upperInclusive;
    }
    return new TimeRange(lower, lowerIncl, upper, upperIncl);
  }

  /**
   * The left side's state watermark for eviction watermark {@code watermarkMs}: every later right
   * row has {@code r.ts > watermarkMs} (earlier ones are dropped as late), so a left row at or
   * before {@code watermarkMs + lowerMs} (plus one for a strict bound, in whole milliseconds) can
   * match none of them. {@link Long#MIN_VALUE} when nothing can be evicted.
   */
  public long leftStateWatermark(long watermarkMs) {
    if (!hasLower() || watermarkMs == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    return saturatedAdd(saturatedAdd(watermarkMs, lowerMs), lowerInclusive ? 0 : 1);
  }

  /**
   * The right side's state watermark: every later left row has {@code l.ts > watermarkMs}, so a
   * right row at or before {@code watermarkMs - upperMs} (plus one for a strict bound) can match
   * none. {@link Long#MIN_VALUE} when nothing can be evicted.
   */
  public long rightStateWatermark(long watermarkMs) {
    if (!hasUpper() || watermarkMs == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    return saturatedAdd(saturatedAdd(watermarkMs, -upperMs), upperInclusive ? 0 : 1);
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    // Overflow when both operands have the sign the sum lacks.
    if (((a ^ sum) & (b ^ sum)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return sum;
  }
}

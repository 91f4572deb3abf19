package dev.freshet.executor.operators.join;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a stream-stream join computes: {@code left JOIN right ON l.k = r.k [AND l.ts BETWEEN
 * r.ts + lower AND r.ts + upper] [AND residual]}.
 *
 * <pre>{@code
 * // l(k BIGINT, ts TIMESTAMP) JOIN r(k BIGINT, ts TIMESTAMP, v VARCHAR)
 * //   ON l.k = r.k AND l.ts BETWEEN r.ts - INTERVAL '10' SECOND AND r.ts + INTERVAL '10' SECOND
 * new StreamStreamJoinSpec(3, JoinKind.INNER, new int[] {0}, new int[] {0}, 2, 3, 1, 1,
 *     new TimeRange(-10_000, true, 10_000, true), null);
 * }</pre>
 *
 * <p>A key pair made of the two event-time columns ({@code l.window_start = r.window_start})
 * carries event time in the key, as Spark's watermarked join keys do: it acts as the range
 * {@code [0, 0]}, so both sides' state is evicted by the watermark even without {@code range}.
 *
 * @param operatorId the operator's id in the plan, which names its state
 * @param kind inner or outer
 * @param leftKeys the left columns of the equi-keys (possibly none)
 * @param rightKeys the right columns, pairwise with {@code leftKeys}
 * @param leftWidth number of left columns
 * @param rightWidth number of right columns
 * @param leftEventTime the left column (a {@code Long} of milliseconds) that the watermark is on,
 *     -1 if none: its rows at or before the batch's late-events watermark are dropped
 * @param rightEventTime the same on the right
 * @param range {@code l.ts} relative to {@code r.ts} over the two event-time columns, or null;
 *     needs both event-time columns
 * @param residual the rest of the condition over the joined row, or null
 */
public record StreamStreamJoinSpec(int operatorId, JoinKind kind, int[] leftKeys,
    int[] rightKeys, int leftWidth, int rightWidth, int leftEventTime, int rightEventTime,
    TimeRange range, JoinCondition residual) {
  public StreamStreamJoinSpec {
    requireNonNull(kind, "kind");
    leftKeys = requireNonNull(leftKeys, "leftKeys").clone();
    rightKeys = requireNonNull(rightKeys, "rightKeys").clone();
    if (leftKeys.length != rightKeys.length) {
      throw new IllegalArgumentException(leftKeys.length + " left keys but " + rightKeys.length
          + " right keys");
    }
    if (leftWidth < 1 || rightWidth < 1) {
      throw new IllegalArgumentException("both sides need columns: " + leftWidth + ", "
          + rightWidth);
    }
    checkColumns("left key", leftKeys, leftWidth);
    checkColumns("right key", rightKeys, rightWidth);
    if (leftEventTime < -1 || leftEventTime >= leftWidth || rightEventTime < -1
        || rightEventTime >= rightWidth) {
      throw new IllegalArgumentException("event-time column out of range: " + leftEventTime
          + ", " + rightEventTime);
    }
    if (range != null && (leftEventTime < 0 || rightEventTime < 0)) {
      throw new IllegalArgumentException("a time range needs an event-time column on both sides");
    }
  }

  private static void checkColumns(String what, int[] columns, int width) {
    for (int c : columns) {
      if (c < 0 || c >= width) {
        throw new IllegalArgumentException(what + " column " + c + " out of 0.." + (width - 1));
      }
    }
  }

  @Override public int[] leftKeys() {
    return leftKeys.clone();
  }

  @Override public int[] rightKeys() {
    return rightKeys.clone();
  }

  /** Number of output columns: the left ones, then the right ones. */
  public int outputWidth() {
    return leftWidth + rightWidth;
  }

  /**
   * The range that decides matches and eviction: {@link #range()}, narrowed to {@code [0, 0]} when
   * a key pair is the two event-time columns; {@link TimeRange#UNBOUNDED} for neither.
   */
  public TimeRange effectiveRange() {
    TimeRange r = range == null ? TimeRange.UNBOUNDED : range;
    for (int i = 0; i < leftKeys.length; i++) {
      if (leftEventTime >= 0 && leftKeys[i] == leftEventTime
          && rightEventTime >= 0 && rightKeys[i] == rightEventTime) {
        r = r.intersect(new TimeRange(0, true, 0, true));
      }
    }
    return r;
  }

  @Override public boolean equals(Object o) {
    return o instanceof StreamStreamJoinSpec s && operatorId == s.operatorId && kind == s.kind
        && Arrays.equals(leftKeys, s.leftKeys) && Arrays.equals(rightKeys, s.rightKeys)
        && leftWidth == s.leftWidth && rightWidth == s.rightWidth
        && leftEventTime == s.leftEventTime && rightEventTime == s.rightEventTime
        && Objects.equals(range, s.range) && Objects.equals(residual, s.residual);
  }

  @Override public int hashCode() {
    return Objects.hash(operatorId, kind, Arrays.hashCode(leftKeys), Arrays.hashCode(rightKeys),
        leftWidth, rightWidth, leftEventTime, rightEventTime, range, residual);
  }

  @Override public String toString() {
    return "StreamStreamJoinSpec[operatorId=" + operatorId + ", kind=" + kind + ", leftKeys="
        + Arrays.toString(leftKeys) + ", rightKeys=" + Arrays.toString(rightKeys)
        + ", leftWidth=" + leftWidth + ", rightWidth=" + rightWidth + ", leftEventTime="
        + leftEventTime + ", rightEventTime=" + rightEventTime + ", range=" + range
        + ", residual=" + residual + "]";
  }
}

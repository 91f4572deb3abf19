package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

/**
 * What a {@link SessionWindowOperator} computes: an aggregation grouped by some columns and by a
 * session window, sessions of one key being rows whose times are within {@code gapMs} of each
 * other.
 *
 * <p>Each input row brings its own session {@code [t, t + gap)}, where {@code t} is the value of
 * the session-start grouping column (or of the session-end column minus the gap, if only the end
 * is grouped); sessions of a key that overlap or touch merge, as in Spark's
 * {@code MergingSessionsExec}. The output row is the grouping columns in {@code groupSet} order,
 * the session's bounds at the positions {@code startKey} and {@code endKey}, then one value per
 * aggregate.
 *
 * <pre>{@code
 * // GROUP BY k, SESSION(ts, INTERVAL '5' SECOND): input (k, ts, window_start, window_end)
 * new SessionWindowSpec(0, new int[] {0, 2, 3}, 1, 2, 5_000, partials, merges,
 *     OutputMode.APPEND, 1);   // rows (k, session_start, session_end, COUNT(*))
 * }</pre>
 *
 * @param operatorId the stateful operator id: the state directory {@code state/<id>/}
 * @param groupSet the grouping columns of the input, ascending, the session's bounds among them
 * @param startKey position in {@code groupSet} of the session's start, or -1
 * @param endKey position in {@code groupSet} of the session's end, or -1 (not both -1)
 * @param gapMs the session gap, positive
 * @param partialCalls the aggregates over one input row
 * @param mergeCalls the aggregates that merge a partial value into a session's value, the
 *     {@code i}th reading column {@code groupSet.length + i}
 * @param outputMode APPEND (a session once the watermark passes its end) or COMPLETE (every
 *     session every batch)
 * @param numPartitions the number of state partitions
 */
public record SessionWindowSpec(int operatorId, int[] groupSet, int startKey, int endKey,
    long gapMs, List<AggregateCall> partialCalls, List<AggregateCall> mergeCalls,
    OutputMode outputMode, int numPartitions) {
  public SessionWindowSpec {
    groupSet = groupSet.clone();
    partialCalls = List.copyOf(partialCalls);
    mergeCalls = List.copyOf(mergeCalls);
    requireNonNull(outputMode, "outputMode");
    if (gapMs <= 0) {
      throw new IllegalArgumentException("the session gap must be positive: " + gapMs + " ms");
    }
    if (startKey < 0 && endKey < 0 || startKey >= groupSet.length || endKey >= groupSet.length
        || startKey >= 0 && startKey == endKey) {
      throw new IllegalArgumentException("session bounds at " + startKey + " and " + endKey
          + " of " + groupSet.length + " grouping columns");
    }
    if (outputMode == OutputMode.UPDATE) {
      throw new IllegalArgumentException("UPDATE mode cannot replace merged sessions");
    }
    if (partialCalls.size() != mergeCalls.size()) {
      throw new IllegalArgumentException(partialCalls.size() + " partial calls but "
          + mergeCalls.size() + " merge calls");
    }
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions must be positive: " + numPartitions);
    }
  }

  /** The input columns grouped besides the session: the key a session belongs to. */
  public int[] keyIndexes() {
    int[] keys = new int[groupSet.length - (startKey >= 0 ? 1 : 0) - (endKey >= 0 ? 1 : 0)];
    int k = 0;
    for (int i = 0; i < groupSet.length; i++) {
      if (i != startKey && i != endKey) {
        keys[k++] = groupSet[i];
      }
    }
    return keys;
  }

  /** The input column a row's time is read from: the start column, else the end column. */
  public int timeIndex() {
    return groupSet[startKey >= 0 ? startKey : endKey];
  }

  /** What to subtract from {@link #timeIndex()}'s value for the row's session start. */
  public long timeOffsetMs() {
    return startKey >= 0 ? 0 : gapMs;
  }

  /** Columns of an output row: the grouping columns, then one per aggregate. */
  public int outputFieldCount() {
    return groupSet.length + mergeCalls.size();
  }

  @Override public int[] groupSet() {
    return groupSet.clone();
  }

  @Override public boolean equals(Object o) {
    return o instanceof SessionWindowSpec s && operatorId == s.operatorId
        && Arrays.equals(groupSet, s.groupSet) && startKey == s.startKey && endKey == s.endKey
        && gapMs == s.gapMs && partialCalls.equals(s.partialCalls)
        && mergeCalls.equals(s.mergeCalls) && outputMode == s.outputMode
        && numPartitions == s.numPartitions;
  }

  @Override public int hashCode() {
    return 31 * Arrays.hashCode(groupSet) + java.util.Objects.hash(operatorId, startKey, endKey,
        gapMs, partialCalls, mergeCalls, outputMode, numPartitions);
  }

  @Override public String toString() {
    return "SessionWindowSpec[operatorId=" + operatorId + ", groupSet="
        + Arrays.toString(groupSet) + ", startKey=" + startKey + ", endKey=" + endKey
        + ", gapMs=" + gapMs + ", partialCalls=" + partialCalls + ", mergeCalls=" + mergeCalls
        + ", outputMode=" + outputMode + ", numPartitions=" + numPartitions + "]";
  }
}

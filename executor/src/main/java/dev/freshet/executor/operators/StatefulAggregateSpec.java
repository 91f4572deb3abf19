package dev.freshet.executor.operators;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

/**
 * Physical description of a streaming aggregation: partial aggregate, state restore, merge and
 * state save, as the planner's {@code StateStoreRestore}/{@code StateStoreSave} chain describes it.
 *
 * <p>The partial aggregate groups the batch's input rows by {@code keyIndexes} and applies
 * {@code partialCalls}; its output row is the key columns followed by one column per partial call.
 * The merge calls read that row (their argument indexes refer to it) and fold it into the state
 * restored for the key. The operator's output row is the key columns followed by the merged values.
 *
 * <p>Partial call {@code i} goes with merge call {@code i}. Only partial calls have filters. A
 * distinct partial call (whose value is a set of values) goes with a distinct merge call of the same
 * function, which folds sets.
 *
 * @param operatorId the stateful operator id (state directory {@code state/<operatorId>})
 * @param keyIndexes grouping columns of the input row
 * @param partialCalls aggregates over input rows
 * @param mergeCalls aggregates folding a partial row into the saved state
 * @param outputMode what to emit after each batch
 * @param numPartitions number of state partitions
 * @param eventTimeKey the grouping column that carries event time, or null: without one the
 *     watermark neither drops late rows nor evicts state here, and APPEND mode is impossible
 * @param emitNewKeyFlag in UPDATE mode only: whether each output row ends with one more column, a
 *     {@code Boolean} that is true when the key had no state before the batch; a push query turns
 *     it into the row kind ({@code INSERT} or {@code UPDATE}) without remembering keys itself;
 *     the flag is null for a group that a retracting input emptied (a {@code DELETE})
 * @param retracting whether the input takes rows back ({@link Operator#retract}): the state then
 *     keeps what inverting each aggregate needs ({@link RetractingAccumulators}) and a group
 *     whose rows are all retracted is deleted; no DISTINCT and no event-time key
 */
public record StatefulAggregateSpec(
    int operatorId,
    int[] keyIndexes,
    List<AggregateCall> partialCalls,
    List<AggregateCall> mergeCalls,
    OutputMode outputMode,
    int numPartitions,
    EventTimeKey eventTimeKey,
    boolean emitNewKeyFlag,
    boolean retracting) {
  public StatefulAggregateSpec {
    keyIndexes = keyIndexes.clone();
    partialCalls = List.copyOf(partialCalls);
    mergeCalls = List.copyOf(mergeCalls);
    requireNonNull(outputMode, "outputMode");
    if (partialCalls.size() != mergeCalls.size()) {
      throw new IllegalArgumentException("every partial call needs one merge call");
    }
    for (int i = 0; i < partialCalls.size(); i++) {
      AggregateCall partial = partialCalls.get(i);
      AggregateCall merge = mergeCalls.get(i);
      if (merge.hasFilter()) {
        throw new IllegalArgumentException("merge call " + merge + " cannot have a filter: only"
            + " input rows are filtered");
      }
      if (partial.distinct() != merge.distinct()
          || partial.distinct() && partial.function() != merge.function()) {
        throw new IllegalArgumentException("partial call " + partial + " and merge call " + merge
            + " do not fit: a distinct call merges with the same distinct function");
      }
    }
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions must be positive: " + numPartitions);
    }
    if (eventTimeKey != null && eventTimeKey.keyIndex() >= keyIndexes.length) {
      throw new IllegalArgumentException("event-time key " + eventTimeKey.keyIndex()
          + " is not one of the " + keyIndexes.length + " grouping columns");
    }
    if (outputMode == OutputMode.APPEND && eventTimeKey == null) {
      throw new IllegalArgumentException(
          "Append output mode needs a watermark on a grouping column; this aggregation has none");
    }
    if (emitNewKeyFlag && outputMode != OutputMode.UPDATE) {
      throw new IllegalArgumentException("only UPDATE mode emits a new-key flag, not " + outputMode);
    }
    if (retracting && (eventTimeKey != null || outputMode == OutputMode.APPEND
        || partialCalls.stream().anyMatch(AggregateCall::distinct))) {
      throw new IllegalArgumentException("an aggregation over a retracting input has no"
          + " event-time key, no DISTINCT and no APPEND mode");
    }
  }

  /** A spec over an input that retracts nothing. */
  public StatefulAggregateSpec(int operatorId, int[] keyIndexes, List<AggregateCall> partialCalls,
      List<AggregateCall> mergeCalls, OutputMode outputMode, int numPartitions,
      EventTimeKey eventTimeKey, boolean emitNewKeyFlag) {
    this(operatorId, keyIndexes, partialCalls, mergeCalls, outputMode, numPartitions, eventTimeKey,
        emitNewKeyFlag, false);
  }

  /** This spec over an input that retracts rows (see {@code retracting}). */
  public StatefulAggregateSpec withRetractingInput() {
    return new StatefulAggregateSpec(operatorId, keyIndexes, partialCalls, mergeCalls, outputMode,
        numPartitions, eventTimeKey, emitNewKeyFlag, true);
  }

  /** A spec whose output rows have no new-key flag. */
  public StatefulAggregateSpec(int operatorId, int[] keyIndexes, List<AggregateCall> partialCalls,
      List<AggregateCall> mergeCalls, OutputMode outputMode, int numPartitions,
      EventTimeKey eventTimeKey) {
    this(operatorId, keyIndexes, partialCalls, mergeCalls, outputMode, numPartitions, eventTimeKey,
        false);
  }

  /** A spec without event-time key. */
  public StatefulAggregateSpec(int operatorId, int[] keyIndexes, List<AggregateCall> partialCalls,
      List<AggregateCall> mergeCalls, OutputMode outputMode, int numPartitions) {
    this(operatorId, keyIndexes, partialCalls, mergeCalls, outputMode, numPartitions, null);
  }

  /** Number of columns of the output row: keys, then one per aggregate, then the new-key flag. */
  public int outputFieldCount() {
    return keyIndexes.length + mergeCalls.size() + (emitNewKeyFlag ? 1 : 0);
  }

  @Override public int[] keyIndexes() {
    return keyIndexes.clone();
  }

  @Override public boolean equals(Object o) {
    return o instanceof StatefulAggregateSpec s && operatorId == s.operatorId
        && Arrays.equals(keyIndexes, s.keyIndexes) && partialCalls.equals(s.partialCalls)
        && mergeCalls.equals(s.mergeCalls) && outputMode == s.outputMode
        && numPartitions == s.numPartitions
        && java.util.Objects.equals(eventTimeKey, s.eventTimeKey)
        && emitNewKeyFlag == s.emitNewKeyFlag && retracting == s.retracting;
  }

  @Override public int hashCode() {
    return Arrays.hashCode(keyIndexes) * 31 + partialCalls.hashCode();
  }

  @Override public String toString() {
    return "StatefulAggregateSpec[operatorId=" + operatorId + ", keys=" + Arrays.toString(keyIndexes)
        + ", partial=" + partialCalls + ", merge=" + mergeCalls + ", outputMode=" + outputMode
        + ", numPartitions=" + numPartitions + ", eventTimeKey=" + eventTimeKey + (emitNewKeyFlag ? ", emitNewKeyFlag" : "")
        + (retracting ? ", retracting" : "") + "]";
  }
}

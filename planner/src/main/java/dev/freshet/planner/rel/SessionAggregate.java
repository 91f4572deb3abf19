package dev.freshet.planner.rel;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Relational expression that aggregates by session window, keeping each key's open sessions in
 * the state store of operator {@code operatorId}: the streaming form of an aggregate over a
 * {@link SessionWindow}, as Spark's {@code MergingSessionsExec} between its session state
 * restore and save.
 *
 * <p>Its input carries each row's own session ({@code window_start}, {@code window_end}); its
 * grouping columns are the key, the session's start at position {@code startKey} and its end at
 * {@code endKey} (-1 if not grouped), and its rows are the grouping columns then the merge calls'
 * values, the sessions merged. In APPEND mode a session is emitted once the watermark passes its
 * end; in COMPLETE mode every session every batch.
 *
 * <pre>{@code
 * SessionAggregate(operatorId=[0], group=[{0, 3, 4}], gapMs=[5000], keys=[{0}], ...)
 * }</pre>
 */
public abstract class SessionAggregate extends SingleRel {
  protected final int operatorId;
  protected final ImmutableBitSet groupSet;
  protected final int startKey;
  protected final int endKey;
  protected final long gapMs;
  protected final List<AggregateCall> partialCalls;
  protected final List<AggregateCall> mergeCalls;
  protected final OutputMode outputMode;
  protected final int numPartitions;
  protected final @Nullable EventTimeColumn eventTime;

  protected SessionAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int operatorId, ImmutableBitSet groupSet, int startKey, int endKey, long gapMs,
      List<AggregateCall> partialCalls, List<AggregateCall> mergeCalls, OutputMode outputMode,
      int numPartitions, @Nullable EventTimeColumn eventTime) {
    super(cluster, traits, input);
    if (startKey < 0 && endKey < 0) {
      throw new IllegalArgumentException("a session aggregate groups by a session's bounds");
    }
    if (outputMode == OutputMode.APPEND && eventTime == null) {
      throw new IllegalArgumentException("APPEND mode needs a watermark on the session's time");
    }
    this.operatorId = operatorId;
    this.groupSet = requireNonNull(groupSet, "groupSet");
    this.startKey = startKey;
    this.endKey = endKey;
    this.gapMs = gapMs;
    this.partialCalls = List.copyOf(partialCalls);
    this.mergeCalls = List.copyOf(mergeCalls);
    this.outputMode = requireNonNull(outputMode, "outputMode");
    this.numPartitions = numPartitions;
    this.eventTime = eventTime;
  }

  /** The stateful operator id. */
  public int operatorId() {
    return operatorId;
  }

  /** The grouping columns of the input, the session's bounds among them. */
  public ImmutableBitSet groupSet() {
    return groupSet;
  }

  /** Position in {@link #groupSet()} of the session's start, or -1. */
  public int startKey() {
    return startKey;
  }

  /** Position in {@link #groupSet()} of the session's end, or -1. */
  public int endKey() {
    return endKey;
  }

  /** The session gap in milliseconds. */
  public long gapMs() {
    return gapMs;
  }

  /** The aggregates over one input row. */
  public List<AggregateCall> partialCalls() {
    return partialCalls;
  }

  /** The aggregates that merge partial values, reading the columns after the grouping ones. */
  public List<AggregateCall> mergeCalls() {
    return mergeCalls;
  }

  /** What each batch emits. */
  public OutputMode outputMode() {
    return outputMode;
  }

  /** The number of state partitions. */
  public int numPartitions() {
    return numPartitions;
  }

  /** The input columns that are the key of a session (the grouping columns but its bounds). */
  public ImmutableBitSet sessionKeys() {
    ImmutableBitSet.Builder keys = ImmutableBitSet.builder();
    List<Integer> columns = groupSet.asList();
    for (int i = 0; i < columns.size(); i++) {
      if (i != startKey && i != endKey) {
        keys.set(columns.get(i));
      }
    }
    return keys.build();
  }

  /** Returns a copy with a new input and operator id. */
  public abstract SessionAggregate copy(RelTraitSet traitSet, RelNode input, int operatorId);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs), operatorId);
  }

  @Override protected RelDataType deriveRowType() {
    return Aggregate.deriveRowType(getCluster().getTypeFactory(), getInput().getRowType(), false,
        groupSet, null, mergeCalls);
  }

  /** Shows the watermark in APPEND mode only: COMPLETE mode ignores it. */
  @Override public RelWriter explainTerms(RelWriter pw) {
    List<String> names = getInput().getRowType().getFieldNames();
    return super.explainTerms(pw)
        .item("operatorId", operatorId)
        .item("group", groupSet)
        .item("sessionKeys", sessionKeys())
        .itemIf("sessionStart", startKey < 0 ? "" : names.get(groupSet.nth(startKey)),
            startKey >= 0)
        .itemIf("sessionEnd", endKey < 0 ? "" : names.get(groupSet.nth(endKey)), endKey >= 0)
        .item("gapMs", gapMs)
        .item("partial", partialCalls)
        .item("merge", mergeCalls)
        .item("outputMode", outputMode.displayName())
        .item("statePartitions", numPartitions)
        .itemIf("watermark", eventTime == null ? ""
            : eventTime.watermarkColumn() + " - " + eventTime.delayMs() + " ms",
            eventTime != null && outputMode == OutputMode.APPEND);
  }
}

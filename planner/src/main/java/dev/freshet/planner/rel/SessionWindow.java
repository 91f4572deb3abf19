package dev.freshet.planner.rel;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Relational expression that puts each row in its own session window {@code [ts, ts + gap)} and
 * appends it as {@code window_start} and {@code window_end}: the table function
 * {@code SESSION(TABLE s, DESCRIPTOR(ts), DESCRIPTOR(k), gap)} and the group function
 * {@code SESSION(ts, gap)}. Sessions are merged by the aggregation above it, a
 * {@link SessionAggregate}, which is the only operator that may read it (as in Spark, whose
 * {@code session_window} is only computed by merging the sessions of an aggregation's groups).
 *
 * <pre>{@code
 * LogicalSessionWindow.create(scan, 2, 5_000, ImmutableBitSet.of(0))  // per K, gap 5 s
 * }</pre>
 */
public abstract class SessionWindow extends SingleRel {
  protected final int eventTimeIndex;
  protected final long gapMs;
  protected final @Nullable ImmutableBitSet keys;

  protected SessionWindow(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int eventTimeIndex, long gapMs, @Nullable ImmutableBitSet keys) {
    super(cluster, traits, input);
    if (gapMs <= 0) {
      throw new IllegalArgumentException("session gap " + gapMs + " ms: it must be positive");
    }
    this.eventTimeIndex = eventTimeIndex;
    this.gapMs = gapMs;
    this.keys = keys;
  }

  /** The TIMESTAMP column the sessions are computed from. */
  public int eventTimeIndex() {
    return eventTimeIndex;
  }

  /** The session gap in milliseconds. */
  public long gapMs() {
    return gapMs;
  }

  /**
   * The input columns sessions are kept per (the table function's {@code DESCRIPTOR(k)}, empty
   * without one), or null for the group function, whose sessions are per the other grouping
   * columns.
   */
  public @Nullable ImmutableBitSet keys() {
    return keys;
  }

  /** Index of the {@code window_start} column; {@code window_end} follows it. */
  public int windowStartIndex() {
    return getInput().getRowType().getFieldCount();
  }

  @Override protected RelDataType deriveRowType() {
    return TimeWindow.withWindowColumns(getInput(), eventTimeIndex);
  }

  /** Returns a copy with a new input. */
  public abstract SessionWindow copy(RelTraitSet traitSet, RelNode input);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("eventTime", getInput().getRowType().getFieldNames().get(eventTimeIndex))
        .item("gapMs", gapMs)
        .itemIf("keys", keys, keys != null);
  }
}

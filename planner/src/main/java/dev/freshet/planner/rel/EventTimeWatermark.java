package dev.freshet.planner.rel;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

/**
 * Relational expression that observes the event time of the rows of a stream that declares
 * {@code WATERMARK FOR ts AS ts - INTERVAL ...}, and from it computes the watermark: Spark's
 * {@code EventTimeWatermark}. Rows pass unchanged.
 */
public abstract class EventTimeWatermark extends SingleRel {
  protected final int eventTimeIndex;
  protected final long delayMs;
  protected final long idleTimeoutMs;

  protected EventTimeWatermark(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int eventTimeIndex, long delayMs, long idleTimeoutMs) {
    super(cluster, traits, input);
    if (idleTimeoutMs < 0) {
      throw new IllegalArgumentException("idle timeout must not be negative: " + idleTimeoutMs);
    }
    this.idleTimeoutMs = idleTimeoutMs;
    if (eventTimeIndex < 0 || eventTimeIndex >= input.getRowType().getFieldCount()) {
      throw new IllegalArgumentException("no event-time column " + eventTimeIndex);
    }
    if (delayMs < 0) {
      throw new IllegalArgumentException("delay must not be negative: " + delayMs);
    }
    this.eventTimeIndex = eventTimeIndex;
    this.delayMs = delayMs;
  }

  /** The TIMESTAMP column carrying event time. */
  public int eventTimeIndex() {
    return eventTimeIndex;
  }

  /** How late, in milliseconds, rows may arrive. */
  public long delayMs() {
    return delayMs;
  }

  /**
   * How long, in milliseconds, without rows before the watermark follows the clock (the
   * stream's {@code 'watermark.idle-timeout'}); 0: never.
   */
  public long idleTimeoutMs() {
    return idleTimeoutMs;
  }

  /** Name of the event-time column. */
  public String eventTimeColumn() {
    return getRowType().getFieldNames().get(eventTimeIndex);
  }

  /** Returns a copy with a new input. */
  public abstract EventTimeWatermark copy(RelTraitSet traitSet, RelNode input);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("eventTime", eventTimeColumn())
        .item("delayMs", delayMs)
        .itemIf("idleTimeoutMs", idleTimeoutMs, idleTimeoutMs > 0);
  }
}

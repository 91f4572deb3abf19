package dev.freshet.planner.rel;

import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Relational expression that assigns each row to its event-time windows and appends
 * {@code window_start} and {@code window_end}: the table functions
 * {@code TUMBLE(TABLE s, DESCRIPTOR(ts), size)} and {@code HOP(..., slide, size)}, and the
 * group functions {@code TUMBLE(ts, size)} and {@code HOP(ts, slide, size)}.
 *
 * <p>Windows are aligned to the epoch and end-exclusive. With a slide smaller than the size a row
 * belongs to several windows and is emitted once per window.
 */
public abstract class TimeWindow extends SingleRel {
  protected final int eventTimeIndex;
  protected final long sizeMs;
  protected final long slideMs;

  protected TimeWindow(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int eventTimeIndex, long sizeMs, long slideMs) {
    super(cluster, traits, input);
    if (sizeMs <= 0 || slideMs <= 0 || slideMs > sizeMs) {
      throw new IllegalArgumentException("window size " + sizeMs + " ms, slide " + slideMs
          + " ms: both must be positive, the slide at most the size");
    }
    this.eventTimeIndex = eventTimeIndex;
    this.sizeMs = sizeMs;
    this.slideMs = slideMs;
  }

  /** The TIMESTAMP column the windows are computed from. */
  public int eventTimeIndex() {
    return eventTimeIndex;
  }

  /** Window size in milliseconds. */
  public long sizeMs() {
    return sizeMs;
  }

  /** Distance between window starts in milliseconds; the size for tumbling windows. */
  public long slideMs() {
    return slideMs;
  }

  /** Index of the {@code window_start} column; {@code window_end} follows it. */
  public int windowStartIndex() {
    return getInput().getRowType().getFieldCount();
  }

  @Override protected RelDataType deriveRowType() {
    return withWindowColumns(getInput(), eventTimeIndex);
  }

  /**
   * The row type of a window over {@code input}: its columns, then {@code window_start} and
   * {@code window_end} of the event time column's precision, as Calcite's window table functions
   * add them; a time window's and a session window's.
   */
  static RelDataType withWindowColumns(RelNode input, int eventTimeIndex) {
    RelDataType timestamp = input.getCluster().getTypeFactory().createSqlType(
        SqlTypeName.TIMESTAMP,
        input.getRowType().getFieldList().get(eventTimeIndex).getType().getPrecision());
    return input.getCluster().getTypeFactory().builder()
        .addAll(input.getRowType().getFieldList())
        .add("window_start", timestamp)
        .add("window_end", timestamp)
        .uniquify()
        .build();
  }

  /** Returns a copy with a new input. */
  public abstract TimeWindow copy(RelTraitSet traitSet, RelNode input);

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return copy(traitSet, sole(inputs));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("eventTime", getInput().getRowType().getFieldNames().get(eventTimeIndex))
        .item("sizeMs", sizeMs)
        .itemIf("slideMs", slideMs, slideMs != sizeMs);
  }
}

package dev.freshet.planner.rel;

import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Finds which columns of a plan carry event time, following Spark's rule that watermark metadata
 * passes through column references and time windows only: the watermark column itself, and the
 * start and end of a window computed from it. Any other expression of the column loses it.
 */
public final class EventTimeLineage {
  private EventTimeLineage() {
  }

  /** The event time carried by column {@code column} of {@code rel}, if any. */
  public static Optional<EventTimeColumn> of(RelNode rel, int column) {
    RelNode r = rel.stripped();
    if (r instanceof EventTimeWatermark) {
      EventTimeWatermark w = (EventTimeWatermark) r;
      return column == w.eventTimeIndex()
          ? Optional.of(new EventTimeColumn(column, 0, w.eventTimeColumn(), w.delayMs()))
          : Optional.empty();
    }
    if (r instanceof TimeWindow) {
      TimeWindow w = (TimeWindow) r;
      int start = w.windowStartIndex();
      if (column == start || column == start + 1) {
        long offset = column == start ? w.sizeMs() : 0;
        return of(w.getInput(), w.eventTimeIndex()).map(e ->
            new EventTimeColumn(column, offset, e.watermarkColumn(), e.delayMs()));
      }
      return of(w.getInput(), column);
    }
    if (r instanceof Project) {
      return through(((Project) r).getProjects().get(column), ((Project) r).getInput(), column);
    }
    if (r instanceof Calc) {
      Calc calc = (Calc) r;
      RexNode e = calc.getProgram().expandLocalRef(calc.getProgram().getProjectList().get(column));
      return through(e, calc.getInput(), column);
    }
    if (r instanceof Filter) {
      return of(((Filter) r).getInput(), column);
    }
    if (r instanceof Aggregate) {
      Aggregate a = (Aggregate) r;
      if (column < a.getGroupCount()) {
        return of(a.getInput(), a.getGroupSet().nth(column)).map(e -> e.at(column));
      }
      return Optional.empty();
    }
    if (r instanceof StateStoreRestore || r instanceof StateStoreSave
        || r instanceof StreamDeduplicate
        || r instanceof StreamTopN && column < r.getInput(0).getRowType().getFieldCount()) {
      return of(r.getInput(0), column);
    }
    if (r instanceof Union union) {
      // Event time only if every input's column carries it, alike.
      Optional<EventTimeColumn> first = of(union.getInput(0), column);
      for (RelNode input : union.getInputs()) {
        Optional<EventTimeColumn> other = of(input, column);
        if (first.isEmpty() || other.isEmpty()
            || other.get().offsetMs() != first.get().offsetMs()) {
          return Optional.empty();
        }
      }
      return first;
    }
    if (r instanceof Join join) {
      int leftColumns = join.getLeft().getRowType().getFieldCount();
      return column < leftColumns ? of(join.getLeft(), column)
          : of(join.getRight(), column - leftColumns).map(e -> e.at(column));
    }
    return Optional.empty();
  }

  private static Optional<EventTimeColumn> through(RexNode e, RelNode input, int column) {
    // A cast that only changes nullability keeps the value, and so its event time.
    while (e.getKind() == SqlKind.CAST && SqlTypeUtil.equalSansNullability(
        input.getCluster().getTypeFactory(), e.getType(), ((RexCall) e).getOperands().get(0)
            .getType())) {
      e = ((RexCall) e).getOperands().get(0);
    }
    if (e instanceof RexInputRef ref) {
      return of(input, ref.getIndex()).map(t -> t.at(column));
    }
    return windowEnd(e, input, column);
  }

  /**
   * The event time of {@code start + INTERVAL size}, a window's end computed from its start (how
   * {@code TUMBLE_END} and {@code HOP_END} are planned): the end is its own event time. Any other
   * sum loses it, as in Spark.
   */
  private static Optional<EventTimeColumn> windowEnd(RexNode e, RelNode input, int column) {
    if (e.getKind() != SqlKind.PLUS || !(e instanceof RexCall call)
        || !(call.getOperands().get(0) instanceof RexInputRef start)
        || !(call.getOperands().get(1) instanceof RexLiteral size)
        || !SqlTypeUtil.isInterval(size.getType())) {
      return Optional.empty();
    }
    Long sizeMs = size.getValueAs(Long.class);
    return of(input, start.getIndex())
        .filter(t -> sizeMs != null && t.offsetMs() == sizeMs)
        .map(t -> new EventTimeColumn(column, 0, t.watermarkColumn(), t.delayMs()));
  }
}

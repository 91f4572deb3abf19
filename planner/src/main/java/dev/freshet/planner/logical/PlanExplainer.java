package dev.freshet.planner.logical;

import java.util.stream.Collectors;

/** {@link LogicalPlan#explain()}: one node a line, inputs indented under it. */
final class PlanExplainer {
  private PlanExplainer() {
  }

  static String explain(LogicalPlan plan) {
    StringBuilder out = new StringBuilder();
    explain(plan, 0, out);
    return out.toString();
  }

  private static void explain(LogicalPlan plan, int depth, StringBuilder out) {
    out.append("  ".repeat(depth)).append(line(plan)).append('\n');
    for (LogicalPlan input : plan.inputs()) {
      explain(input, depth + 1, out);
    }
  }

  private static String line(LogicalPlan plan) {
    if (plan instanceof LogicalPlan.StreamScan s) {
      return "StreamScan[" + s.stream() + ", " + s.columns() + "]";
    }
    if (plan instanceof LogicalPlan.TableScan t) {
      return "TableScan[" + t.table() + ", " + t.columns() + "]";
    }
    if (plan instanceof LogicalPlan.EventTimeWatermark w) {
      return "EventTimeWatermark[eventTime=$" + w.eventTimeIndex() + ", delay=" + w.delayMs()
          + " ms" + (w.idleTimeoutMs() > 0 ? ", idleTimeout=" + w.idleTimeoutMs() + " ms" : "")
          + "]";
    }
    if (plan instanceof LogicalPlan.Filter f) {
      return "Filter[" + f.condition() + "]";
    }
    if (plan instanceof LogicalPlan.Project p) {
      return "Project" + p.projections();
    }
    if (plan instanceof LogicalPlan.TimeWindow w) {
      return (w.tumbling() ? "TimeWindow[TUMBLE" : "TimeWindow[HOP") + ", eventTime=$"
          + w.eventTimeIndex() + ", size=" + w.sizeMs() + " ms, slide=" + w.slideMs() + " ms]";
    }
    if (plan instanceof LogicalPlan.Aggregate a) {
      return "Aggregate[groupKeys=" + a.groupKeys()
          + (a.grouping() == LogicalPlan.Grouping.SIMPLE ? "" : ", " + a.grouping())
          + ", calls=" + a.calls().stream().map(PlanExplainer::call)
              .collect(Collectors.joining(", ", "[", "]")) + "]";
    }
    if (plan instanceof LogicalPlan.Deduplicate d) {
      return "Deduplicate[keys=" + d.keys() + ", order=" + d.orderIndex() + ", expiry="
          + d.expiryIndex() + "]";
    }
    if (plan instanceof LogicalPlan.StreamStreamJoin j) {
      return "StreamStreamJoin[" + j.joinType() + ", keys=" + j.leftKeys() + "="
          + j.rightKeys() + ", " + j.condition() + "]";
    }
    if (plan instanceof LogicalPlan.StreamTableJoin j) {
      return "StreamTableJoin[" + j.joinType()
          + (j.streamOnLeft() ? ", stream left, " : ", stream right, ") + j.condition() + "]";
    }
    return "Unsupported[" + ((LogicalPlan.Unsupported) plan).description() + "]";
  }

  private static String call(LogicalPlan.AggregateCall call) {
    return call.kind() + "(" + (call.distinct() ? "DISTINCT " : "")
        + call.args().stream().map(i -> "$" + i).collect(Collectors.joining(", ")) + ")"
        + (call.filterArg() >= 0 ? " FILTER $" + call.filterArg() : "") + ":" + call.type();
  }
}

package dev.freshet.planner.logical;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import java.util.List;

/**
 * A continuous query as another engine runs it: the plan up to its windows, before Freshet's own
 * stateful operators, in Freshet's terms (no Calcite), so that the engine plans its own state.
 *
 * <pre>{@code
 * LogicalQuery q = LogicalPlanConverter.convert(planner.planWindowed(sql, EmitMode.UPDATE, n));
 * q.plan();      // Aggregate(TimeWindow(EventTimeWatermark(StreamScan CLICKS)))
 * q.columns();   // [W TIMESTAMP(3), N BIGINT]
 * }</pre>
 *
 * @param plan the plan's root
 * @param columns the result's columns, named as the query names them, in the plan's order
 * @param outputMode what each batch emits
 * @param sources the streams the query reads, each once, in the order of their first scan
 * @param aggregating whether the query has a stateful aggregation
 */
public record LogicalQuery(LogicalPlan plan, List<LogicalField> columns, OutputMode outputMode,
    List<LogicalStream> sources, boolean aggregating) {
  public LogicalQuery {
    requireNonNull(plan, "plan");
    columns = List.copyOf(columns);
    requireNonNull(outputMode, "outputMode");
    sources = List.copyOf(sources);
  }
}

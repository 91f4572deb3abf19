package dev.freshet.planner;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.catalog.StreamTable;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A query planned up to its windows: the logical plan with watermarks above the scans and time
 * windows computed, before Freshet's stateful rules, so that another engine (Spark) can plan the
 * state itself. {@link FreshetPlanner#planWindowed} makes it.
 *
 * @param rel the logical plan
 * @param rowType the result columns, named as the query names them
 * @param outputMode what each batch emits
 * @param sources the streams the query reads, each once, in the order of their first scan
 * @param aggregating whether the query has a stateful aggregation
 */
public record WindowedQuery(RelNode rel, RelDataType rowType, OutputMode outputMode,
    List<StreamTable> sources, boolean aggregating) {
  public WindowedQuery {
    requireNonNull(rel, "rel");
    requireNonNull(rowType, "rowType");
    requireNonNull(outputMode, "outputMode");
    sources = List.copyOf(sources);
  }
}

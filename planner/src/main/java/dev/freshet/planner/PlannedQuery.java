package dev.freshet.planner;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.catalog.StreamTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A query planned for streaming execution.
 *
 * @param logical plan after the streaming rules, as {@code EXPLAIN} shows it
 * @param physical the same plan with filters and projections merged into calcs, ready to run
 * @param rowType the result columns
 * @param outputMode what each batch emits
 * @param source the stream the query reads
 * @param aggregating whether the query has a stateful aggregation
 */
public record PlannedQuery(RelNode logical, RelNode physical, RelDataType rowType,
    OutputMode outputMode, StreamTable source, boolean aggregating) {
  public PlannedQuery {
    requireNonNull(logical, "logical");
    requireNonNull(physical, "physical");
    requireNonNull(rowType, "rowType");
    requireNonNull(outputMode, "outputMode");
    requireNonNull(source, "source");
  }

  /** The same query with another physical plan, e.g. one that also outputs hidden columns. */
  public PlannedQuery withPhysical(RelNode physical) {
    return new PlannedQuery(logical, physical, rowType, outputMode, source, aggregating);
  }
}

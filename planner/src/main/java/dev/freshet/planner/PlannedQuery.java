package dev.freshet.planner;

import static java.util.Objects.requireNonNull;

import dev.freshet.executor.operators.OutputMode;
import dev.freshet.planner.catalog.StreamTable;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A query planned for streaming execution.
 *
 * @param logical plan after the streaming rules, as {@code EXPLAIN} shows it
 * @param physical the same plan with filters and projections merged into calcs, ready to run
 * @param rowType the result columns
 * @param outputMode what each batch emits
 * @param sources the streams the query reads, each once, in the order of their first scan
 * @param aggregating whether the query has a stateful aggregation
 */
public record PlannedQuery(RelNode logical, RelNode physical, RelDataType rowType,
    OutputMode outputMode, List<StreamTable> sources, boolean aggregating) {
  public PlannedQuery {
    requireNonNull(logical, "logical");
    requireNonNull(physical, "physical");
    requireNonNull(rowType, "rowType");
    requireNonNull(outputMode, "outputMode");
    sources = List.copyOf(sources);
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("a continuous query reads a stream");
    }
  }

  /** The same query with another physical plan, e.g. one that also outputs hidden columns. */
  public PlannedQuery withPhysical(RelNode physical) {
    return new PlannedQuery(logical, physical, rowType, outputMode, sources, aggregating);
  }

  /**
   * Whether the query scans streams more than once: it joins or unions them (or one stream with
   * itself), and each batch reads several ranges of offsets.
   */
  public boolean scansSeveralStreams() {
    int[] scans = new int[1];
    new org.apache.calcite.rel.RelVisitor() {
      @Override public void visit(RelNode node, int ordinal, RelNode parent) {
        if (node instanceof org.apache.calcite.rel.core.TableScan scan
            && scan.getTable().unwrap(StreamTable.class) != null) {
          scans[0]++;
        }
        super.visit(node, ordinal, parent);
      }
    }.go(physical);
    return scans[0] > 1;
  }

  /** The names of the streams the query reads. */
  public List<String> sourceNames() {
    return sources.stream().map(StreamTable::name).toList();
  }
}

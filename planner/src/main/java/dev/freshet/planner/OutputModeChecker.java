package dev.freshet.planner;

import dev.freshet.executor.runtime.OutputMode;
import dev.freshet.planner.rel.StreamingRels;
import dev.freshet.planner.rules.StreamingAggregateRule;
import dev.freshet.sql.parser.EmitMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Sort;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Decides a continuous query's output mode and rejects queries that cannot run in it, following
 * Spark's {@code UnsupportedOperationChecker}.
 *
 * <p>Every rejection is a {@link SQLException} whose message names the rule that failed and how to
 * change the query.
 */
final class OutputModeChecker {
  private OutputModeChecker() {
  }

  /**
   * Returns the output mode of {@code rel} given its {@code EMIT} clause (null if none), or throws
   * if the query cannot run in that mode.
   */
  static OutputMode check(RelNode rel, @Nullable EmitMode emit) throws SQLException {
    List<Aggregate> aggregates = new ArrayList<>();
    List<Sort> sorts = new ArrayList<>();
    collect(rel, aggregates, sorts);
    boolean aggregating = !aggregates.isEmpty();
    OutputMode mode = emit == null
        ? (aggregating ? OutputMode.UPDATE : OutputMode.APPEND)
        : OutputMode.valueOf(emit.name());

    if (aggregates.size() > 1) {
      throw PlannerErrors.notSupported("Multiple streaming aggregations are not supported: a query"
          + " may aggregate a stream once. Aggregate once, or create a materialized view for the"
          + " inner aggregation and query it");
    }
    if (aggregating) {
      Aggregate aggregate = aggregates.get(0);
      if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
        throw PlannerErrors.outputModeNotSupported(
            "Grouping sets (CUBE, ROLLUP, GROUPING SETS) are not supported on streams",
            "Group by plain columns, or run one query per grouping");
      }
      for (AggregateCall call : aggregate.getAggCallList()) {
        checkCall(call);
      }
      if (mode == OutputMode.APPEND) {
        boolean watermarked = false;
        for (int key : aggregate.getGroupSet()) {
          watermarked |= FreshetPlanner.isWatermarkKey(aggregate, key);
        }
        if (!watermarked) {
          throw PlannerErrors.outputModeNotSupported(
              "EMIT APPEND is not supported for a streaming aggregation without a watermark on a"
                  + " grouping column, because no group could ever be final",
              "Add WATERMARK FOR ts AS ts - INTERVAL '5' SECOND to the stream and group by a"
                  + " window of ts, e.g. GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE); or use EMIT"
                  + " UPDATE or EMIT COMPLETE");
        }
        throw PlannerErrors.notSupported("EMIT APPEND for aggregations with a watermark is not"
            + " supported yet. Use EMIT UPDATE or EMIT COMPLETE");
      }
    } else if (mode == OutputMode.COMPLETE) {
      throw PlannerErrors.outputModeNotSupported(
          "EMIT COMPLETE is not supported for a query without a streaming aggregation, because"
              + " its complete result would be the whole stream",
          "Add a GROUP BY, or use EMIT APPEND");
    }
    if (!sorts.isEmpty()) {
      if (mode != OutputMode.COMPLETE || !aggregating) {
        throw PlannerErrors.outputModeNotSupported(
            "ORDER BY, LIMIT and OFFSET are not supported on a stream, unless on an aggregation"
                + " in EMIT COMPLETE mode",
            "Remove them, or aggregate and use EMIT COMPLETE");
      }
      throw PlannerErrors.notSupported("ORDER BY and LIMIT in EMIT COMPLETE mode are not"
          + " supported yet. Sort the rows in the client");
    }
    return mode;
  }

  private static void checkCall(AggregateCall call) throws SQLException {
    if (!StreamingAggregateRule.isSupported(call)) {
      throw PlannerErrors.notSupported("Aggregate " + call + " is not supported on streams. Use"
          + " COUNT(*) or COUNT, SUM, MIN, MAX or AVG of one column, with DISTINCT or FILTER"
          + " (WHERE ...) if needed");
    }
  }

  private static void collect(RelNode rel, List<Aggregate> aggregates, List<Sort> sorts) {
    if (rel instanceof Aggregate && StreamingRels.isStreaming(((Aggregate) rel).getInput())) {
      aggregates.add((Aggregate) rel);
    }
    if (rel instanceof Sort && StreamingRels.isStreaming(rel)) {
      sorts.add((Sort) rel);
    }
    for (RelNode input : rel.getInputs()) {
      collect(input, aggregates, sorts);
    }
  }
}

package dev.freshet.engine.spi;

import static java.util.Objects.requireNonNull;

import dev.freshet.planner.logical.LogicalQuery;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a {@link ViewRunner} needs to run one materialized view's query.
 *
 * <pre>{@code
 * LogicalQuery query = LogicalPlanConverter.convert(planner.planWindowed(sql, null, 10_000));
 * ViewJob job = new ViewJob("PER_USER", queryId, query, true,
 *     Optional.of(dataDir.resolve("queries/PER_USER")), result::addBatch, execution);
 * }</pre>
 *
 * @param view the view's name (upper case as the catalog has it)
 * @param queryId the view's query id: the same across restarts, new when the view is created again
 * @param query the view's query, planned up to its windows, in Freshet's terms (no Calcite)
 * @param keyed whether the sink takes keyed rows ({@link ViewBatchSink}): an aggregation in
 *     UPDATE or COMPLETE mode; otherwise every row is appended as it is
 * @param localDir the view's own directory in Freshet's data directory (empty without one), where
 *     a runner without a configured checkpoint location keeps its checkpoint
 * @param sink where the batches go
 * @param progress where each batch's progress goes
 */
public record ViewJob(String view, String queryId, LogicalQuery query, boolean keyed,
    Optional<Path> localDir, ViewBatchSink sink, ViewProgressListener progress) {
  public ViewJob {
    requireNonNull(view, "view");
    requireNonNull(queryId, "queryId");
    requireNonNull(query, "query");
    requireNonNull(localDir, "localDir");
    requireNonNull(sink, "sink");
    requireNonNull(progress, "progress");
  }
}

/**
 * How another engine runs materialized views' queries for Freshet: a
 * {@link dev.freshet.engine.spi.ViewRunnerProvider} found by {@link java.util.ServiceLoader}
 * (Spark's is in {@code engine-spark}), which Freshet hands each view's planned query and a sink
 * into the view's result.
 *
 * <h2>What crosses the SPI</h2>
 *
 * <p>The SPI is narrow on purpose, so that a runner depends on Freshet's terms and not on how
 * Freshet's own executor runs a query:
 *
 * <ul>
 *   <li><b>Engine to runner</b>: a {@link dev.freshet.engine.spi.ViewJob}: the view's name and
 *       query id, its query planned up to its windows as a
 *       {@link dev.freshet.planner.logical.LogicalQuery}, whether its rows are keyed, its
 *       directory, the {@link dev.freshet.engine.spi.ViewBatchSink} that takes each batch's rows
 *       and the {@link dev.freshet.engine.spi.ViewProgressListener} that takes each batch's
 *       progress.
 *   <li><b>Runner to engine</b>: a {@link dev.freshet.engine.spi.RunningView}: start, stop,
 *       wait, its status ({@link dev.freshet.engine.spi.ViewStatus}), its failure as an
 *       {@code SQLException}, its own plan for EXPLAIN; and per batch a
 *       {@link dev.freshet.engine.spi.BatchProgress} (Spark's names, offsets as JSON text). The
 *       engine, not the runner, turns these into what {@code SHOW QUERIES},
 *       {@code sys.query_progress}, {@code sys.state_operators}, the web UI and {@code /metrics}
 *       show: it wraps the running view in its own query execution, which keeps the last batches'
 *       progress and the totals over every batch, as for a query Freshet runs.
 * </ul>
 *
 * <p>A runner knows nothing of the executor's runtime ({@code StreamExecution},
 * {@code StreamingQuery}, {@code StreamingQueryProgress}): {@code engine-spark}'s
 * {@code ArchitectureTest} holds that.
 *
 * <p>Shared on purpose: the stream log. A stream's rows reach another engine through the one
 * reader of its log files ({@code dev.freshet.executor.source.StreamLogReader}, with its offset
 * index), so that the log format has one implementation; and the SQL types'
 * descriptors ({@code dev.freshet.common.types.SqlType}), so that values mean the same on both
 * engines.
 *
 * <p>The job's query is Freshet's own description of the plan, not Calcite's
 * ({@code dev.freshet.planner.logical}: scans, watermark, filter, project, TUMBLE and HOP
 * windows, aggregate, deduplication, stream-stream and stream-table joins, their expressions and
 * types over the {@code SqlType} descriptors), which the planner's {@code LogicalPlanConverter}
 * makes of the windowed plan. What it does not express (a SESSION window, a top-N, ORDER BY, a
 * set operation, ...) is an {@code Unsupported} node or expression naming what the query wrote,
 * which a runner refuses (0A000) where it meets it. {@code engine-spark}'s
 * {@code ArchitectureTest} forbids Calcite and the planner's rels there.
 */
package dev.freshet.engine.spi;

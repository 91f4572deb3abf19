package dev.freshet.server.ui.metrics;

import static java.util.Objects.requireNonNull;

import dev.freshet.engine.Engine;
import dev.freshet.engine.push.PushQuery;
import dev.freshet.engine.query.ContinuousQuery;
import dev.freshet.engine.security.CurrentPrincipal;
import dev.freshet.engine.security.Principal;
import dev.freshet.engine.query.QueryMonitor;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Prometheus collector of an engine's continuous queries, read at each scrape from their
 * progress ({@link ContinuousQuery#progressTotals()} and the last progress record) and push
 * results: nothing runs on the batches' path but the totals each batch adds up, and a scrape
 * costs a few operations per query.
 *
 * <pre>{@code
 * PrometheusRegistry registry = new PrometheusRegistry();
 * registry.register(new QueryMetricsCollector(engine));
 * }</pre>
 *
 * <p>Every series of a query is labelled {@code query} (its name) and {@code kind}
 * ({@link QueryKind}); they exist while the engine lists the query (a push query until it
 * stops, a view's or sink's query until the view or sink is dropped), so a query that goes away
 * takes its series with it. The counters are the query's totals since it started
 * ({@link QueryMonitor.Totals}): they count every batch, never go
 * backwards while it runs, and start at 0 when it starts again (a restarted server: a counter
 * reset to Prometheus' {@code rate}). docs/operations.md lists the metrics.
 *
 * <p>A scrape shows a user only the series of the queries it may see ({@link #collect(Principal)}).
 */
public final class QueryMetricsCollector implements MultiCollector {
  static final String INPUT_ROWS = "freshet_query_input_rows";
  static final String BATCHES = "freshet_query_batches";
  static final String BATCH_DURATION = "freshet_query_batch_duration_seconds";
  static final String STATE_ROWS = "freshet_query_state_rows";
  static final String WATERMARK_LAG = "freshet_query_watermark_lag_seconds";
  static final String LATE_ROWS = "freshet_query_late_rows";
  static final String PUSH_QUERIES = "freshet_push_queries";
  static final String PUSH_BUFFERED_ROWS = "freshet_push_query_buffered_rows";

  private static final double[] BUCKET_BOUNDS = withInfinity(QueryMonitor.durationBounds());

  private final Engine engine;

  /** Collects the metrics of {@code engine}'s queries. */
  public QueryMetricsCollector(Engine engine) {
    this.engine = requireNonNull(engine, "engine");
  }

  @Override public List<String> getPrometheusNames() {
    return List.of(INPUT_ROWS, BATCHES, BATCH_DURATION, STATE_ROWS, WATERMARK_LAG, LATE_ROWS,
        PUSH_QUERIES, PUSH_BUFFERED_ROWS);
  }

  /**
   * The series of the queries the user of the statement this thread runs may see
   * ({@link CurrentPrincipal}; every query outside a statement).
   */
  @Override public MetricSnapshots collect() {
    return collect(CurrentPrincipal.get());
  }

  /**
   * The series of the queries {@code viewer} may see ({@link Engine#visibleQueries}): its own
   * and those it was granted, every query for an administrator. {@link #PUSH_QUERIES} counts
   * those push queries too.
   */
  public MetricSnapshots collect(Principal viewer) {
    // Filtered once per scrape; an administrator's needs no look-up of owners at all.
    List<ContinuousQuery> queries = viewer.admin() ? engine.continuousQueries()
        : engine.visibleQueries(viewer);
    CounterSnapshot.Builder inputRows = CounterSnapshot.builder().name(INPUT_ROWS)
        .help("Rows the query read from its sources since it started");
    CounterSnapshot.Builder batches = CounterSnapshot.builder().name(BATCHES)
        .help("Micro-batches the query committed, with and without data");
    HistogramSnapshot.Builder durations = HistogramSnapshot.builder().name(BATCH_DURATION)
        .help("Duration of the query's micro-batches, from its offsets' write to its commit");
    GaugeSnapshot.Builder stateRows = GaugeSnapshot.builder().name(STATE_ROWS)
        .help("Rows (groups) the query's stateful operators kept after its last batch");
    GaugeSnapshot.Builder watermarkLag = GaugeSnapshot.builder().name(WATERMARK_LAG)
        .help("The last batch's time minus its watermark; only for a query with a watermark");
    CounterSnapshot.Builder lateRows = CounterSnapshot.builder().name(LATE_ROWS)
        .help("Rows dropped as late by the watermark (partial groups: one per key and batch)");
    GaugeSnapshot.Builder pushBuffered = GaugeSnapshot.builder().name(PUSH_BUFFERED_ROWS)
        .help("Rows a push query holds that its reader has not read yet");
    int pushQueries = 0;
    for (ContinuousQuery query : queries) {
      QueryKind kind = QueryKind.of(engine, query);
      Labels labels = Labels.of("kind", kind.label(), "query", query.name());
      QueryMonitor.Totals sums = QueryMonitor.totals(query);
      inputRows.dataPoint(counter(sums.inputRows(), labels));
      batches.dataPoint(counter(sums.batches(), labels));
      lateRows.dataPoint(counter(sums.lateRows(), labels));
      durations.dataPoint(HistogramDataPointSnapshot.builder().labels(labels)
          .classicHistogramBuckets(ClassicHistogramBuckets.of(BUCKET_BOUNDS,
              sums.durationCounts()))
          .sum(sums.durationSeconds()).build());
      Optional<QueryMonitor.Batch> last = QueryMonitor.lastBatch(query);
      if (last.isPresent()) {
        stateRows.dataPoint(gauge(last.get().stateRows(), labels));
        watermarkLagSeconds(last.get())
            .ifPresent(lag -> watermarkLag.dataPoint(gauge(lag, labels)));
      }
      Optional<PushQuery> push = query.pushResult();
      if (push.isPresent()) {
        pushQueries++;
        pushBuffered.dataPoint(gauge(push.get().bufferedRows(), labels));
      }
    }
    GaugeSnapshot.Builder running = GaugeSnapshot.builder().name(PUSH_QUERIES)
        .help("Push queries running on the engine")
        .dataPoint(GaugeDataPointSnapshot.builder().value(pushQueries).build());
    return MetricSnapshots.of(inputRows.build(), batches.build(), durations.build(),
        stateRows.build(), watermarkLag.build(), lateRows.build(), running.build(),
        pushBuffered.build());
  }

  /**
   * The batch's time minus the watermark it ran with, in seconds; empty for a query without a
   * watermark, or before its first event time ({@link QueryMonitor.Batch#watermarkLagMs}).
   */
  private static Optional<Double> watermarkLagSeconds(QueryMonitor.Batch p) {
    OptionalLong lag = p.watermarkLagMs();
    return lag.isPresent() ? Optional.of(lag.getAsLong() / 1000.0) : Optional.empty();
  }

  private static CounterDataPointSnapshot counter(long value, Labels labels) {
    return CounterDataPointSnapshot.builder().value(value).labels(labels).build();
  }

  private static GaugeDataPointSnapshot gauge(double value, Labels labels) {
    return GaugeDataPointSnapshot.builder().value(value).labels(labels).build();
  }

  private static double[] withInfinity(double[] bounds) {
    double[] all = Arrays.copyOf(bounds, bounds.length + 1);
    all[bounds.length] = Double.POSITIVE_INFINITY;
    return all;
  }
}

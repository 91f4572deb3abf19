package dev.freshet.server.ui;

import dev.freshet.engine.Engine;
import dev.freshet.engine.security.Principal;
import dev.freshet.server.ui.metrics.QueryMetricsCollector;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /metrics}: the engine's metrics and the JVM's in the format Prometheus asks for
 * (its {@code Accept} header; the Prometheus text format by default), written by the Prometheus
 * Java client.
 *
 * <pre>{@code
 * curl http://127.0.0.1:8766/metrics   # freshet_query_input_rows_total{kind="view",query="V"} 8
 * }</pre>
 *
 * <p>Each endpoint has a registry of its own, never the client's global one: several engines,
 * each with its web UI, can live in one JVM. The metrics are read at scrape time
 * ({@link QueryMetricsCollector}); docs/operations.md lists them.
 *
 * <p>A scrape shows the series of the queries its user may see (all, to an administrator), as
 * {@code sys.queries} would list them to that user; the JVM's metrics are everyone's.
 */
final class MetricsEndpoint implements AutoCloseable {
  /** The JVM's metrics; the queries' are collected per scrape, for its user. */
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final QueryMetricsCollector queries;
  private final ExpositionFormats formats = ExpositionFormats.init();

  MetricsEndpoint(Engine engine) {
    JvmMetrics.builder().register(registry);
    this.queries = new QueryMetricsCollector(engine);
  }

  /** Answers GET and HEAD with the metrics {@code user} may see, other methods with 405. */
  void handle(HttpServletRequest request, HttpServletResponse response, Principal user)
      throws IOException {
    String method = request.getMethod();
    boolean head = "HEAD".equals(method);
    if (!head && !"GET".equals(method)) {
      response.setHeader("Allow", "GET, HEAD");
      response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED,
          "/metrics answers GET (and HEAD) only, not " + method);
      return;
    }
    ExpositionFormatWriter writer = formats.findWriter(request.getHeader("Accept"));
    if (!writer.isAvailable()) {
      // Protobuf, first in the Accept header of a Prometheus that scrapes native histograms,
      // needs a module Freshet does not ship; such a Prometheus accepts the text format too.
      writer = formats.getPrometheusTextFormatWriter();
    }
    // Written whole before the status, so that a failing collector gives a 500, not half a body.
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    writer.write(body, scrape(user));
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(writer.getContentType());
    response.setContentLength(body.size());
    if (!head) {
      body.writeTo(response.getOutputStream());
    }
  }

  private MetricSnapshots scrape(Principal user) {
    MetricSnapshots.Builder all = MetricSnapshots.builder();
    for (MetricSnapshot snapshot : registry.scrape()) {
      all.metricSnapshot(snapshot);
    }
    for (MetricSnapshot snapshot : queries.collect(user)) {
      all.metricSnapshot(snapshot);
    }
    return all.build();
  }

  /**
   * Empties the registry: the JVM metrics' builder remembers every registry it registered with
   * (in a static set, to register once), which must not keep the engine reachable.
   */
  @Override public void close() {
    registry.clear();
  }
}

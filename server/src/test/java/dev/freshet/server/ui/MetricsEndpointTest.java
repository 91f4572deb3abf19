package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.server.FreshetServer;
import dev.freshet.server.H2TcpServer;
import dev.freshet.testkit.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} on a server's web UI port, scraped over HTTP after known batches made over
 * JDBC, parsed strictly ({@link PrometheusText}) and checked value by value.
 */
class MetricsEndpointTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** Generous: batches take milliseconds, but CI machines are loaded. */
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0;"
      + "q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,"
      + "*/*;q=0.2";

  private FreshetServer server;
  private Connection connection;
  private Statement statement;
  /** The database of a test's sink, if it has one. */
  private H2TcpServer sinkDatabase;

  @BeforeEach void start() throws SQLException {
    server = FreshetServer.builder().port(0).uiPort(0).start();
    connection = DriverManager.getConnection("jdbc:freshet:remote:url=" + server.url());
    statement = connection.createStatement();
    statement.execute("CREATE STREAM events (k VARCHAR, ts TIMESTAMP(3),"
        + " WATERMARK FOR ts AS ts - INTERVAL '10' SECOND)");
  }

  @AfterEach void stop() throws SQLException {
    connection.close();
    server.close();
    if (sinkDatabase != null) {
      sinkDatabase.close();
    }
  }

  /**
   * The timeline of jdbc-driver's SystemTablesTest: a windowed APPEND view, 5 s windows, a 10 s
   * watermark delay; batches 1 and 3 have no data (the watermark moved), batch 4's row is late.
   */
  @Test void shouldCountTheBatchesRowsStateAndLateRowsOfAViewWithAWatermark() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW windows AS SELECT"
        + " TUMBLE_START(ts, INTERVAL '5' SECOND) AS w, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '5' SECOND) EMIT APPEND");
    insertSeconds(1, 10, 11, 12, 13, 14, 15);
    insertSeconds(3, 25);
    insertSeconds(4, 12);

    PrometheusText.Scrape scrape = scrape(null);
    String[] view = {"kind", "view", "query", "WINDOWS"};
    assertEquals(OptionalDouble.of(8), scrape.value("freshet_query_input_rows_total", view));
    assertEquals(OptionalDouble.of(5), scrape.value("freshet_query_batches_total", view));
    assertEquals(OptionalDouble.of(5), scrape.value("freshet_query_batch_duration_seconds_count",
        view));
    assertEquals(OptionalDouble.of(5), scrape.value("freshet_query_batch_duration_seconds_bucket",
        "kind", "view", "query", "WINDOWS", "le", "+Inf"));
    assertEquals(OptionalDouble.of(2), scrape.value("freshet_query_state_rows", view));
    assertEquals(OptionalDouble.of(1), scrape.value("freshet_query_late_rows_total", view));
    assertEquals(OptionalDouble.of(0), scrape.value("freshet_push_queries"));
    assertEquals("counter", scrape.types().get("freshet_query_input_rows_total"));
    assertEquals("histogram", scrape.types().get("freshet_query_batch_duration_seconds"));
    assertEquals("gauge", scrape.types().get("freshet_query_watermark_lag_seconds"));

    // The lag and the durations of the batches as the query's progress records have them.
    List<JsonNode> progress = progressJson("WINDOWS");
    assertEquals(5, progress.size());
    JsonNode last = progress.get(4);
    double lag = (Instant.parse(last.get("timestamp").asText()).toEpochMilli()
        - Instant.parse(last.at("/eventTime/watermark").asText()).toEpochMilli()) / 1000.0;
    assertEquals("1970-01-01T00:00:15.000Z", last.at("/eventTime/watermark").asText());
    assertEquals(OptionalDouble.of(lag), scrape.value("freshet_query_watermark_lag_seconds",
        view));
    // The UI's charts plot the same lag; batch 0 ran with the watermark still at the epoch,
    // where it starts, so it has none (a lag from 1970 would dwarf every other point).
    JsonNode batches = new ApiClient(server.uiUrl().orElseThrow(), null)
        .getJson("/api/queries/WINDOWS/progress").get("batches");
    assertTrue(batches.get(0).get("watermarkLagMs").isNull(), batches.toString());
    assertEquals(Math.round(lag * 1000), batches.get(4).get("watermarkLagMs").asLong());
    long durationMs = 0;
    long withinTenMs = 0;
    for (JsonNode batch : progress) {
      long ms = batch.at("/durationMs/triggerExecution").asLong();
      durationMs += ms;
      withinTenMs += ms <= 10 ? 1 : 0;
    }
    assertEquals(durationMs / 1000.0, scrape.value("freshet_query_batch_duration_seconds_sum",
        view).orElseThrow(), 1e-9);
    assertEquals(OptionalDouble.of(withinTenMs), scrape.value(
        "freshet_query_batch_duration_seconds_bucket", "kind", "view", "query", "WINDOWS",
        "le", "0.01"));

    // Nothing new ran: a second scrape says the same; then the dropped view's series go.
    assertEquals(OptionalDouble.of(8), scrape(null).value("freshet_query_input_rows_total",
        view));
    statement.execute("DROP MATERIALIZED VIEW windows");
    assertEquals(List.of(), scrape(null).withLabel("query", "WINDOWS"));
  }

  /**
   * The counters count every batch, also those whose progress records the query no longer keeps
   * (it keeps 100): 120 batches of one row, and the first scrape only after the last of them.
   */
  @Test void shouldCountBatchesWhoseProgressTheQueryNoLongerKeeps() throws Exception {
    statement.execute("CREATE STREAM clicks (k VARCHAR)");
    statement.execute("CREATE MATERIALIZED VIEW seen AS SELECT k FROM clicks");
    String[] view = {"kind", "view", "query", "SEEN"};
    for (int batch = 0; batch < 120; batch++) {
      statement.executeUpdate("INSERT INTO clicks VALUES ('k" + batch + "')");
      awaitLastBatch("SEEN", batch);
    }
    assertEquals(100, progressJson("SEEN").size(), "the records the query keeps");
    PrometheusText.Scrape scrape = scrape(null);
    assertEquals(OptionalDouble.of(120), scrape.value("freshet_query_input_rows_total", view));
    assertEquals(OptionalDouble.of(120), scrape.value("freshet_query_batches_total", view));
    assertEquals(OptionalDouble.of(120), scrape.value(
        "freshet_query_batch_duration_seconds_count", view));
    assertEquals(OptionalDouble.of(0), scrape.value("freshet_query_state_rows", view),
        "a query without state");
  }

  /** A query without a watermark has no lag series, and a sink's query is of kind sink. */
  @Test void shouldLabelASinksQueryAndGiveNoLagWithoutWatermark() throws Exception {
    statement.execute("CREATE STREAM orders (item VARCHAR, qty INTEGER)");
    // A server refuses jdbc:h2:mem:, which would run inside it: the sink writes to an H2 server.
    sinkDatabase = H2TcpServer.start();
    statement.execute("CREATE SINK totals_out AS SELECT item, SUM(qty) AS q FROM orders"
        + " GROUP BY item WITH (connector = 'jdbc', 'url' = '" + sinkDatabase.url("metrics_sink")
        + "', 'table-name' = 'totals')");
    statement.executeUpdate("INSERT INTO orders VALUES ('tea', 1), ('tea', 2), ('cake', 5)");
    awaitLastBatch("TOTALS_OUT", 0);

    PrometheusText.Scrape scrape = scrape(null);
    String[] sink = {"kind", "sink", "query", "TOTALS_OUT"};
    assertEquals(OptionalDouble.of(3), scrape.value("freshet_query_input_rows_total", sink));
    assertEquals(OptionalDouble.of(1), scrape.value("freshet_query_batches_total", sink));
    assertEquals(OptionalDouble.of(2), scrape.value("freshet_query_state_rows", sink));
    assertEquals(OptionalDouble.of(0), scrape.value("freshet_query_late_rows_total", sink));
    assertEquals(OptionalDouble.empty(), scrape.value("freshet_query_watermark_lag_seconds",
        sink));
    statement.execute("DROP SINK totals_out");
    assertEquals(List.of(), scrape(null).withLabel("query", "TOTALS_OUT"));
  }

  /**
   * An open push query counts, with the rows its reader has not fetched; reading them empties
   * the buffer, and closing the statement takes its series away.
   */
  @Test void shouldCountPushQueriesAndTheRowsTheirReadersHaveNotRead() throws Exception {
    try (Statement push = connection.createStatement();
        ResultSet rs = push.executeQuery("SELECT STREAM k FROM events")) {
      String name = server.engine().continuousQueries().get(0).name();
      String[] labels = {"kind", "push", "query", name};
      assertEquals(OptionalDouble.of(1), scrape(null).value("freshet_push_queries"));
      try (Statement insert = connection.createStatement()) {
        insert.executeUpdate("INSERT INTO events VALUES ('a', TIMESTAMP '1970-01-01 00:00:01'),"
            + " ('b', TIMESTAMP '1970-01-01 00:00:02'), ('c', TIMESTAMP '1970-01-01 00:00:03')");
      }
      PrometheusText.Scrape scrape = awaitScrape("the push query's batch",
          s -> s.value("freshet_query_batches_total", labels).orElse(0) >= 1);
      assertEquals(OptionalDouble.of(3), scrape.value("freshet_query_input_rows_total", labels));
      assertEquals(OptionalDouble.of(3), scrape.value("freshet_push_query_buffered_rows",
          labels));
      for (String k : List.of("a", "b", "c")) {
        assertTrue(rs.next());
        assertEquals(k, rs.getString(1));
      }
      assertEquals(OptionalDouble.of(0), scrape(null).value("freshet_push_query_buffered_rows",
          labels));
      push.close();
      PrometheusText.Scrape closed = awaitScrape("the push query's end",
          s -> s.value("freshet_push_queries").orElse(-1) == 0);
      assertEquals(List.of(), closed.withLabel("query", name));
    }
  }

  @Test void shouldAnswerInTheFormatAskedForWithTheJvmsMetrics() throws Exception {
    HttpResponse<String> text = get(null, "GET");
    assertEquals(200, text.statusCode());
    assertEquals("text/plain; version=0.0.4; charset=utf-8",
        text.headers().firstValue("Content-Type").orElseThrow());
    PrometheusText.Scrape scrape = PrometheusText.parse(text.body());
    assertTrue(scrape.types().containsKey("jvm_memory_used_bytes"), scrape.types().toString());
    assertEquals("counter", scrape.types().get("process_cpu_seconds_total"));

    HttpResponse<String> openMetrics = get(PROMETHEUS_ACCEPT, "GET");
    assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8",
        openMetrics.headers().firstValue("Content-Type").orElseThrow());
    assertTrue(openMetrics.body().endsWith("# EOF\n"), openMetrics.body());

    // A Prometheus that scrapes native histograms asks for protobuf first: it gets text.
    HttpResponse<String> protobufFirst = get("application/vnd.google.protobuf;"
        + "proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,"
        + "text/plain;version=0.0.4;q=0.3", "GET");
    assertEquals(200, protobufFirst.statusCode());
    assertEquals("text/plain; version=0.0.4; charset=utf-8",
        protobufFirst.headers().firstValue("Content-Type").orElseThrow());
    PrometheusText.parse(protobufFirst.body());

    HttpResponse<String> head = get(null, "HEAD");
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
    for (String method : List.of("POST", "PUT", "DELETE")) {
      HttpResponse<String> refused = get(null, method);
      assertEquals(405, refused.statusCode(), method);
      assertEquals("GET, HEAD", refused.headers().firstValue("Allow").orElseThrow(), method);
    }
  }

  /**
   * Two engines in one JVM, a server's and an embedded one with its own web UI: each endpoint
   * has its registry, with the JVM's metrics and its own engine's queries only.
   */
  @Test void shouldKeepTheMetricsOfTwoEnginesInOneJvmApart() throws Exception {
    statement.execute("CREATE MATERIALIZED VIEW on_server AS SELECT k FROM events");
    int port = FreePorts.loopback();
    String engine = "metrics-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    try (Connection embedded = DriverManager.getConnection("jdbc:freshet:engine=" + engine
        + ";uiPort=" + port); Statement s = embedded.createStatement()) {
      s.execute("CREATE STREAM local_events (k VARCHAR)");
      s.execute("CREATE MATERIALIZED VIEW embedded_only AS SELECT k FROM local_events");
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/metrics")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, response.statusCode());
      PrometheusText.Scrape local = PrometheusText.parse(response.body());
      assertTrue(local.types().containsKey("jvm_threads_current"));
      assertEquals(OptionalDouble.of(0), local.value("freshet_query_batches_total",
          "kind", "view", "query", "EMBEDDED_ONLY"));
      assertEquals(List.of(), local.withLabel("query", "ON_SERVER"));

      PrometheusText.Scrape remote = scrape(null);
      assertTrue(remote.types().containsKey("jvm_threads_current"));
      assertEquals(OptionalDouble.of(0), remote.value("freshet_query_batches_total",
          "kind", "view", "query", "ON_SERVER"));
      assertEquals(List.of(), remote.withLabel("query", "EMBEDDED_ONLY"));
      s.execute("DROP MATERIALIZED VIEW embedded_only");
      s.execute("DROP STREAM local_events");
    }
  }

  /** Inserts one row per second given in one INSERT, then waits for batch {@code lastBatch}. */
  private void insertSeconds(long lastBatch, int... seconds) throws Exception {
    StringBuilder values = new StringBuilder();
    for (int s : seconds) {
      values.append(values.length() == 0 ? "" : ", ")
          .append("('a', TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '").append(s)
          .append("' SECOND)");
    }
    statement.executeUpdate("INSERT INTO events VALUES " + values);
    awaitLastBatch("WINDOWS", lastBatch);
  }

  /** Waits until query {@code name} has committed batch {@code batchId}, read in sys.queries. */
  private void awaitLastBatch(String name, long batchId) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    long last = -1;
    while (last < batchId) {
      try (ResultSet rs = statement.executeQuery("SELECT last_batch_id FROM sys.queries"
          + " WHERE name = '" + name + "'")) {
        last = rs.next() ? rs.getLong(1) : -1;
      }
      if (last > batchId) {
        fail(name + " ran batch " + last + ", more than the " + batchId + " expected");
      }
      if (last < batchId && System.nanoTime() > deadline) {
        fail(name + " did not commit batch " + batchId + " within " + DEADLINE + ": " + last);
      }
      // Polls the server, which commits the batch on its own thread; not a timed wait.
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
    }
  }

  /** Scrapes until {@code condition} holds, failing with {@code what} at the deadline. */
  private PrometheusText.Scrape awaitScrape(String what,
      Predicate<PrometheusText.Scrape> condition) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      PrometheusText.Scrape scrape = scrape(null);
      if (condition.test(scrape)) {
        return scrape;
      }
      if (System.nanoTime() > deadline) {
        fail("not within " + DEADLINE + ": " + what + "; last scrape: " + scrape.samples());
      }
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
    }
  }

  private List<JsonNode> progressJson(String name) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> records = new java.util.ArrayList<>();
    try (ResultSet rs = statement.executeQuery("SELECT json FROM sys.query_progress"
        + " WHERE name = '" + name + "' ORDER BY batch_id")) {
      while (rs.next()) {
        records.add(json.readTree(rs.getString(1)));
      }
    }
    return records;
  }

  private PrometheusText.Scrape scrape(String accept) throws Exception {
    HttpResponse<String> response = get(accept, "GET");
    assertEquals(200, response.statusCode(), response.body());
    return PrometheusText.parse(response.body());
  }

  private HttpResponse<String> get(String accept, String method) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(metricsUri())
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (accept != null) {
      request.header("Accept", accept);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI metricsUri() {
    return server.uiUrl().orElseThrow().resolve("/metrics");
  }
}

package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.freshet.server.FreshetServer;
import dev.freshet.server.FreshetServer.Authentication;
import dev.freshet.testkit.ExternalTest;
import dev.freshet.testkit.FreePorts;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus server (Debian's {@code prometheus}, which {@code .ci/run} installs when it
 * is missing) scrapes {@code /metrics} behind Basic authentication and parses it with its own
 * parser: the values its query API then answers are the ones known inserts make. A second job
 * with a wrong password is refused ({@code up == 0}).
 */
@ExternalTest
class PrometheusScrapeTest {
  private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test void shouldGiveARealPrometheusTheViewsMetricsWithTheirValues() throws Exception {
    assertTrue(Files.isExecutable(PROMETHEUS), "This test runs Debian's Prometheus server, and "
        + PROMETHEUS + " is missing: install it with apt-get install -y prometheus (.ci/run"
        + " does)");
    Path users = Files.writeString(dir.resolve("users.properties"), "scraper: s3cret\n");
    try (FreshetServer server = FreshetServer.builder().port(0).uiPort(0)
        .authentication(Authentication.BASIC, users).start();
         Connection connection = DriverManager.getConnection("jdbc:freshet:remote:url="
             + server.url(), "scraper", "s3cret");
         Statement sql = connection.createStatement()) {
      sql.execute("CREATE STREAM orders (item VARCHAR, qty INTEGER)");
      sql.execute("CREATE MATERIALIZED VIEW per_item AS SELECT item, SUM(qty) AS q FROM orders"
          + " GROUP BY item");
      // Two batches: the second INSERT comes once the first is committed.
      sql.executeUpdate("INSERT INTO orders VALUES ('apple', 1), ('pear', 2), ('apple', 3)");
      awaitBatch(sql, 0);
      sql.executeUpdate("INSERT INTO orders VALUES ('plum', 4)");
      awaitBatch(sql, 1);

      int uiPort = server.uiUrl().orElseThrow().getPort();
      int webPort = FreePorts.loopback();
      Path config = Files.writeString(dir.resolve("prometheus.yml"), String.join("\n",
          "global: {scrape_interval: 1s, scrape_timeout: 1s}",
          "scrape_configs:",
          "  - job_name: freshet",
          "    static_configs: [{targets: ['127.0.0.1:" + uiPort + "']}]",
          "    basic_auth: {username: scraper, password: s3cret}",
          "  - job_name: intruder",
          "    static_configs: [{targets: ['127.0.0.1:" + uiPort + "']}]",
          "    basic_auth: {username: scraper, password: wrong}",
          ""));
      Process prometheus = new ProcessBuilder(PROMETHEUS.toString(),
          "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
          "--web.listen-address=127.0.0.1:" + webPort)
          .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile())
          .start();
      try {
        URI api = URI.create("http://127.0.0.1:" + webPort + "/api/v1/query");
        String view = "{job=\"freshet\",query=\"PER_ITEM\",kind=\"view\"}";
        awaitValue("4", api, "freshet_query_input_rows_total" + view, prometheus);
        awaitValue("2", api, "freshet_query_batches_total" + view, prometheus);
        awaitValue("2", api, "freshet_query_batch_duration_seconds_count" + view,
            prometheus);
        awaitValue("3", api, "freshet_query_state_rows" + view, prometheus);
        awaitValue("0", api, "freshet_query_late_rows_total" + view, prometheus);
        awaitValue("0", api, "freshet_push_queries{job=\"freshet\"}", prometheus);
        awaitValue("1", api, "count(jvm_memory_used_bytes{job=\"freshet\",area=\"heap\"})",
            prometheus);
        awaitValue("1", api, "up{job=\"freshet\"}", prometheus);
        awaitValue("0", api, "up{job=\"intruder\"}", prometheus);
      } finally {
        prometheus.destroy();
        if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
          prometheus.destroyForcibly();
        }
      }
    }
  }

  /** Waits until the view has committed batch {@code batchId}, read in sys.queries. */
  private static void awaitBatch(Statement sql, long batchId) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      try (java.sql.ResultSet rs = sql.executeQuery(
          "SELECT last_batch_id FROM sys.queries WHERE name = 'PER_ITEM'")) {
        if (rs.next() && rs.getLong(1) >= batchId) {
          assertEquals(batchId, rs.getLong(1), "one batch per INSERT");
          return;
        }
      }
      if (System.nanoTime() > deadline) {
        fail("The view did not commit batch " + batchId + " within " + DEADLINE);
      }
      // Polls the server, which commits on its own thread; not a timed wait.
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
    }
  }

  /**
   * Waits until Prometheus answers {@code expected} for the instant query {@code promql} (it
   * scrapes every second, and the view may still be catching up), failing at the deadline with
   * the last answer.
   */
  private void awaitValue(String expected, URI api, String promql, Process prometheus)
      throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    String last = "(no answer)";
    while (System.nanoTime() < deadline) {
      if (!prometheus.isAlive()) {
        fail("Prometheus exited with " + prometheus.exitValue() + ": "
            + Files.readString(dir.resolve("prometheus.log")));
      }
      Optional<String> value = query(api, promql);
      if (value.isPresent() && value.get().equals(expected)) {
        return;
      }
      last = value.orElse("(no value)");
      // Polls Prometheus, which scrapes on its own schedule; not a timed wait.
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
    }
    fail("Prometheus did not answer " + expected + " for " + promql + " within " + DEADLINE
        + " but " + last + "; its log: " + Files.readString(dir.resolve("prometheus.log")));
  }

  /** The single value of an instant query, or empty if it has none yet (or is not up yet). */
  private static Optional<String> query(URI api, String promql) throws Exception {
    HttpResponse<String> response;
    try {
      response = HTTP.send(HttpRequest.newBuilder(URI.create(api + "?query="
          + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (java.net.ConnectException e) {
      return Optional.empty();   // still starting
    }
    if (response.statusCode() != 200) {
      return Optional.empty();
    }
    JsonNode result = JSON.readTree(response.body()).at("/data/result");
    if (result.size() != 1) {
      return Optional.empty();
    }
    return Optional.of(result.get(0).get("value").get(1).asText());
  }
}

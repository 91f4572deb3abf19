package dev.freshet.spark.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * What a standalone master reports about its workers, read from its web UI's JSON page
 * ({@code /json/}, the page {@code spark-class ... Master} serves next to its HTML).
 *
 * <pre>{@code
 * int alive = new MasterStatus(8080).aliveWorkers();
 * }</pre>
 */
final class MasterStatus {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final URI page;

  MasterStatus(int webUiPort) {
    this.page = URI.create("http://127.0.0.1:" + webUiPort + "/json/");
  }

  /** The workers in state ALIVE; UncheckedIOException while the web UI is not up. */
  int aliveWorkers() {
    int alive = 0;
    for (JsonNode worker : read().path("workers")) {
      if ("ALIVE".equals(worker.path("state").asText())) {
        alive++;
      }
    }
    return alive;
  }

  private JsonNode read() {
    HttpRequest request = HttpRequest.newBuilder(page).timeout(Duration.ofSeconds(5)).build();
    try {
      return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    } catch (IOException e) {
      throw new UncheckedIOException(page + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

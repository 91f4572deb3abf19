package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/** What the API tests send: GETs and JSON POSTs to a UI port, and reading server-sent events. */
final class ApiClient {
  static final Duration DEADLINE = Duration.ofSeconds(60);
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();

  private final URI ui;
  private final String credentials;

  /** A client of the UI at {@code ui}, sending {@code credentials} ("user:password") or none. */
  ApiClient(URI ui, String credentials) {
    this.ui = ui;
    this.credentials = credentials;
  }

  /** The UI's own origin, as a browser showing its pages sends it. */
  String ownOrigin() {
    return "http://" + ui.getHost() + ":" + ui.getPort();
  }

  HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** GETs {@code path} expecting 200 and JSON. */
  JsonNode getJson(String path) throws Exception {
    HttpResponse<String> response = get(path);
    if (response.statusCode() != 200) {
      throw new AssertionError(path + " answered " + response.statusCode() + ": "
          + response.body());
    }
    return JSON.readTree(response.body());
  }

  /** POSTs {@code {"sql": sql}} as JSON from the UI's own origin. */
  HttpResponse<String> sql(String sql) throws Exception {
    return post(sql, "application/json", ownOrigin());
  }

  /** POSTs {@code {"sql": sql}} with the given Content-Type and Origin (null: none). */
  HttpResponse<String> post(String sql, String contentType, String origin) throws Exception {
    return HTTP.send(postRequest(sql, contentType, origin), HttpResponse.BodyHandlers.ofString());
  }

  /** POSTs {@code body} as it is, as JSON from the UI's own origin. */
  HttpResponse<String> postBody(String body) throws Exception {
    return HTTP.send(request("/api/sql").POST(HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/json").header("Origin", ownOrigin()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Sends a push query and returns the open stream of events. */
  Events stream(String sql) throws Exception {
    HttpResponse<InputStream> response = HTTP.send(
        postRequest(sql, "application/json", ownOrigin()),
        HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
      throw new AssertionError("the push query answered " + response.statusCode() + ": " + body);
    }
    return new Events(response);
  }

  private HttpRequest postRequest(String sql, String contentType, String origin)
      throws Exception {
    String body = JSON.writeValueAsString(JSON.createObjectNode().put("sql", sql));
    HttpRequest.Builder request = request("/api/sql")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (origin != null) {
      request.header("Origin", origin);
    }
    return request.build();
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder request = HttpRequest.newBuilder(ui.resolve(path));
    if (credentials != null) {
      request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          credentials.getBytes(StandardCharsets.UTF_8)));
    }
    return request;
  }

  /** Waits until {@code condition} holds, failing after {@link #DEADLINE}. */
  static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + DEADLINE + ": " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
  }

  /** One server-sent event: its name ({@code "comment"} for a comment) and data. */
  record Event(String name, String data) {
  }

  /** The events of an open response, read as they come. */
  static final class Events implements AutoCloseable {
    private final HttpResponse<InputStream> response;
    private final BufferedReader lines;

    Events(HttpResponse<InputStream> response) {
      this.response = response;
      this.lines = new BufferedReader(new InputStreamReader(response.body(),
          StandardCharsets.UTF_8));
    }

    HttpResponse<InputStream> response() {
      return response;
    }

    /** The next event other than a keepalive comment, within the deadline. */
    Event next() {
      return assertTimeoutPreemptively(DEADLINE, () -> {
        while (true) {
          Event event = read();
          if (event == null) {
            throw new AssertionError("the stream ended");
          }
          if (!event.name().equals("comment")) {
            return event;
          }
        }
      }, () -> "no event within " + DEADLINE);
    }

    /** The next event or comment, or null at the end of the stream. */
    Event read() throws IOException {
      String name = null;
      StringBuilder data = new StringBuilder();
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isEmpty()) {
          if (name != null) {
            return new Event(name, data.toString());
          }
        } else if (line.startsWith(":")) {
          name = name == null ? "comment" : name;
          data.append(line.substring(1).trim());
        } else if (line.startsWith("event: ")) {
          name = line.substring("event: ".length());
        } else if (line.startsWith("data: ")) {
          data.append(line.substring("data: ".length()));
        }
      }
      return null;
    }

    /** Closes the client's end, as a browser leaving the page does. */
    @Override public void close() throws IOException {
      response.body().close();
    }
  }
}

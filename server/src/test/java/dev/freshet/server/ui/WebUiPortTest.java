package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer;
import dev.freshet.server.FreshetServer.Authentication;
import dev.freshet.testkit.FreePorts;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI's port: behind the JDBC port's authentication, apart from the JDBC endpoint, and
 * served by an embedded engine when asked.
 */
class WebUiPortTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test void shouldRefuseEveryPathOfTheUiWithoutCredentialsWhenTheServerHasAuthentication()
      throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "ann: secret\n");
    try (FreshetServer server = FreshetServer.builder().port(0).uiPort(0)
        .authentication(Authentication.BASIC, users).start()) {
      URI ui = server.uiUrl().orElseThrow();
      for (String path : new String[] {"/ui/", "/metrics", "/api/objects", "/api/sql"}) {
        assertEquals(401, get(ui.resolve(path), null).statusCode(), path);
        assertEquals(401, get(ui.resolve(path), "ann:wrong").statusCode(), path);
      }
      HttpResponse<String> root = get(ui.resolve("/"), "ann:secret");
      assertEquals(302, root.statusCode());
      assertEquals("/ui/", URI.create(root.headers().firstValue("Location").orElseThrow())
          .getPath());
      // The UI's port is not the JDBC endpoint, and the JDBC port serves no pages.
      assertEquals(400, get(URI.create(server.url() + "/ui/"), "ann:secret").statusCode());
    }
  }

  /**
   * With DIGEST authentication, /metrics answers 401 with a challenge to no or wrong credentials
   * and the metrics to the right ones (RFC 7616's MD5 with qop=auth, computed here).
   */
  @Test void shouldServeMetricsOnlyToTheRightDigestCredentials() throws Exception {
    Path users = Files.writeString(dir.resolve("users.properties"), "ann: secret\n");
    try (FreshetServer server = FreshetServer.builder().port(0).uiPort(0)
        .authentication(Authentication.DIGEST, users).start()) {
      URI metrics = server.uiUrl().orElseThrow().resolve("/metrics");
      HttpResponse<String> challenge = get(metrics, null);
      assertEquals(401, challenge.statusCode());
      String header = challenge.headers().firstValue("WWW-Authenticate").orElseThrow();
      assertTrue(header.startsWith("Digest "), header);
      String wrong = digest(header, "ann", "wrong", metrics.getPath());
      assertEquals(401, send(metrics, wrong).statusCode());
      // A fresh challenge: Jetty refuses a nonce's request count used once already.
      String fresh = get(metrics, null).headers().firstValue("WWW-Authenticate").orElseThrow();
      String right = digest(fresh, "ann", "secret", metrics.getPath());
      HttpResponse<String> answer = send(metrics, right);
      assertEquals(200, answer.statusCode());
      assertTrue(answer.body().contains("# TYPE freshet_push_queries gauge"), answer.body());
    }
  }

  /** The Authorization header answering {@code challenge} for a GET of {@code path}. */
  private static String digest(String challenge, String user, String password, String path)
      throws Exception {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\w+)=\"([^\"]*)\"")
        .matcher(challenge);
    java.util.Map<String, String> params = new java.util.HashMap<>();
    while (m.find()) {
      params.put(m.group(1), m.group(2));
    }
    String realm = params.get("realm");
    String nonce = params.get("nonce");
    String nc = "00000001";
    String cnonce = "0a4f113b";
    String ha1 = md5(user + ":" + realm + ":" + password);
    String ha2 = md5("GET:" + path);
    String response = md5(ha1 + ":" + nonce + ":" + nc + ":" + cnonce + ":auth:" + ha2);
    return "Digest username=\"" + user + "\", realm=\"" + realm + "\", nonce=\"" + nonce
        + "\", uri=\"" + path + "\", qop=auth, nc=" + nc + ", cnonce=\"" + cnonce
        + "\", response=\"" + response + "\"";
  }

  private static String md5(String text) throws Exception {
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
        .digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static HttpResponse<String> send(URI uri, String authorization) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(uri).GET().header("Authorization", authorization)
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test void shouldServeTheUiOfAnEmbeddedEngineWhenTheConnectionAsksForIt() throws Exception {
    int port = FreePorts.loopback();
    // The engine lives as long as the JVM, as embedded engines do, and its UI with it.
    String url = "jdbc:freshet:engine=web-ui-port-test;uiPort=" + port;
    try (Connection connection = DriverManager.getConnection(url)) {
      HttpResponse<String> root = get(URI.create("http://127.0.0.1:" + port + "/"), null);
      assertEquals(302, root.statusCode());
    }
  }


  private static HttpResponse<String> get(URI uri, String credentials) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
    if (credentials != null) {
      request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          credentials.getBytes(StandardCharsets.UTF_8)));
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test void shouldAnswerAUiWithoutAuthenticationOnlyWhenTheRequestNamesALoopbackHost()
      throws Exception {
    // DNS rebinding: a page of evil.example, its name pointed at 127.0.0.1, is of the same
    // origin as what it reaches; only its Host header gives it away.
    try (FreshetServer server = FreshetServer.builder().port(0).uiPort(0).start()) {
      int port = server.uiUrl().orElseThrow().getPort();
      assertEquals("HTTP/1.1 421 Misdirected Request",
          statusLine(port, "GET /api/overview", "evil.example:" + port));
      assertEquals("HTTP/1.1 421 Misdirected Request",
          statusLine(port, "POST /api/sql", "127.0.0.1.evil.example:" + port));
      assertEquals("HTTP/1.1 200 OK", statusLine(port, "GET /api/overview", "localhost:" + port));
      assertEquals("HTTP/1.1 200 OK", statusLine(port, "GET /api/overview", "127.0.0.1:" + port));
      assertEquals("HTTP/1.1 200 OK", statusLine(port, "GET /api/overview", "[::1]:" + port));
    }
  }

  /** The status line of a request sent as raw HTTP/1.1 with {@code host} as its Host header. */
  private static String statusLine(int port, String requestLine, String host) throws Exception {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.getOutputStream().write((requestLine + " HTTP/1.1\r\nHost: " + host
          + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
          StandardCharsets.US_ASCII)).readLine();
    }
  }
}

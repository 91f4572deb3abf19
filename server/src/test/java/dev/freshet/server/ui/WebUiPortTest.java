package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.server.FreshetServer;
import dev.freshet.server.FreshetServer.Authentication;
import java.net.InetAddress;
import java.net.ServerSocket;
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

  @Test void shouldServeTheUiOfAnEmbeddedEngineWhenTheConnectionAsksForIt() throws Exception {
    int port = freePort();
    // The engine lives as long as the JVM, as embedded engines do, and its UI with it.
    String url = "jdbc:freshet:engine=web-ui-port-test;uiPort=" + port;
    try (Connection connection = DriverManager.getConnection(url)) {
      HttpResponse<String> root = get(URI.create("http://127.0.0.1:" + port + "/"), null);
      assertEquals(302, root.statusCode());
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
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
}

package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.server.FreshetServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Over HTTP: the pages and the chart library with their content types, caching and security
 * headers, and nothing else of the class path.
 */
class StaticFilesTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String UPLOT = "/webjars/uplot/1.6.30/dist/";
  private static FreshetServer server;
  private static URI ui;

  @BeforeAll static void startServer() {
    server = FreshetServer.builder().port(0).uiPort(0).start();
    ui = server.uiUrl().orElseThrow();
  }

  @AfterAll static void stopServer() {
    server.close();
  }

  @Test void shouldServeThePageWithItsSecurityHeadersAndNoCaching() throws Exception {
    HttpResponse<String> page = send("GET", "/ui/");
    assertEquals(200, page.statusCode());
    assertEquals("text/html;charset=utf-8", header(page, "Content-Type"));
    assertEquals("no-cache", header(page, "Cache-Control"));
    assertSecurityHeaders(page);
    assertTrue(page.body().contains("<textarea id=\"sql-input\""), page.body());
    assertEquals(page.body(), send("GET", "/ui/index.html").body());
  }

  /** What the page loads, and what its modules import, is there with the right type. */
  @Test void shouldServeEveryFileThePageLoadsWithItsContentType() throws Exception {
    String page = send("GET", "/ui/").body();
    Map<String, String> expected = Map.of(
        "/ui/app.js", "text/javascript;charset=utf-8",
        "/ui/style.css", "text/css;charset=utf-8",
        "/ui/favicon.svg", "image/svg+xml",
        UPLOT + "uPlot.iife.min.js", "text/javascript;charset=utf-8",
        UPLOT + "uPlot.min.css", "text/css;charset=utf-8");
    for (Map.Entry<String, String> file : expected.entrySet()) {
      String name = file.getKey().startsWith("/ui/") ? file.getKey().substring(4) : file.getKey();
      assertTrue(page.contains("\"" + name + "\""), "index.html loads " + name);
      HttpResponse<String> response = send("GET", file.getKey());
      assertEquals(200, response.statusCode(), file.getKey());
      assertEquals(file.getValue(), header(response, "Content-Type"), file.getKey());
      assertSecurityHeaders(response);
    }
    // The modules app.js imports, and those they import, all served as scripts.
    Set<String> modules = new TreeSet<>();
    Deque<String> toRead = new ArrayDeque<>(List.of("app.js"));
    while (!toRead.isEmpty()) {
      String module = toRead.pop();
      HttpResponse<String> response = send("GET", "/ui/" + module);
      assertEquals(200, response.statusCode(), module);
      assertEquals("text/javascript;charset=utf-8", header(response, "Content-Type"), module);
      if (modules.add(module)) {
        toRead.addAll(imports(response.body()));
      }
    }
    assertEquals(Set.of("app.js", "api.js", "charts.js", "detail.js", "objects.js", "sqlbox.js"),
        modules);
  }

  @Test void shouldLetTheBrowserKeepTheVersionedChartLibrary() throws Exception {
    HttpResponse<String> library = send("GET", UPLOT + "uPlot.iife.min.js");
    assertEquals("private, max-age=31536000, immutable", header(library, "Cache-Control"));
    assertTrue(library.body().contains("uPlot"));
    assertEquals(String.valueOf(library.body().getBytes(StandardCharsets.UTF_8).length),
        header(library, "Content-Length"));
  }

  @Test void shouldAnswerHeadWithoutABody() throws Exception {
    HttpResponse<String> head = send("HEAD", "/ui/style.css");
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
    assertEquals(String.valueOf(send("GET", "/ui/style.css").body()
        .getBytes(StandardCharsets.UTF_8).length), header(head, "Content-Length"));
  }

  @Test void shouldRefuseToWriteAFile() throws Exception {
    HttpResponse<String> post = send("POST", "/ui/index.html");
    assertEquals(405, post.statusCode());
    assertEquals("GET, HEAD", header(post, "Allow"));
    assertEquals("POST is not allowed on /ui/index.html: the pages are read with GET\n",
        post.body());
    assertSecurityHeaders(post);
  }

  /**
   * Directories (also in a jar), files of other types, other WebJar resources and paths that
   * climb out are not found, and say where the UI is.
   */
  @Test void shouldFindNothingButTheServedFiles() throws Exception {
    for (String path : List.of("/ui/nothing.js", "/webjars/", "/webjars/uplot/1.6.30/dist",
        "/webjars/uplot/1.6.30/dist/", "/webjars/uplot/1.6.30/package.json",
        "/webjars/uplot/1.6.30/dist/uPlot.d.ts", "/ui//app.js")) {
      HttpResponse<String> response = send("GET", path);
      assertEquals(404, response.statusCode(), path);
      assertEquals("No file " + path + ". The web UI is at /ui/\n", response.body(), path);
      assertEquals("text/plain;charset=utf-8", header(response, "Content-Type"), path);
      assertSecurityHeaders(response);
    }
    // Jetty resolves or refuses these before the UI sees them; none may reach a file.
    for (String path : List.of("/webjars/../dev/freshet/server/ui/static/index.html",
        "/webjars/%2e%2e/dev/freshet/server/ui/static/index.html",
        "/ui/..%2fWebUiRoutes.class", "/webjars/..%5cdev/freshet/server/ui/static/app.js")) {
      HttpResponse<String> response = send("GET", path);
      assertNotEquals(200, response.statusCode(), path);
      assertFalse(response.body().contains("sql-input"), path);
    }
  }

  @Test void shouldNameOnlyResourcesUnderTheirOwnDirectory() {
    assertEquals(Optional.of("dev/freshet/server/ui/static/index.html"),
        StaticFiles.resourceName("/ui/"));
    assertEquals(Optional.of("META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.min.css"),
        StaticFiles.resourceName(UPLOT + "uPlot.min.css"));
    for (String target : List.of("/ui/../StaticFiles.class", "/webjars/a/../../../x.js",
        "/ui/a\\..\\b.js", "/webjars//etc/x.css", "/ui/.", "/webjars/", "/ui/a/", "/other/x.js")) {
      assertEquals(Optional.empty(), StaticFiles.resourceName(target), target);
    }
  }

  private static void assertSecurityHeaders(HttpResponse<?> response) {
    assertEquals("default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self';"
        + " img-src 'self' data:", header(response, "Content-Security-Policy"));
    assertEquals("nosniff", header(response, "X-Content-Type-Options"));
    assertEquals("DENY", header(response, "X-Frame-Options"));
    assertEquals("no-referrer", header(response, "Referrer-Policy"));
  }

  /** The files a module imports ({@code from './x.js'}). */
  private static List<String> imports(String module) {
    Matcher matcher = Pattern.compile("from '\\./([a-z]+\\.js)'").matcher(module);
    return matcher.results().map(result -> result.group(1)).toList();
  }

  private static String header(HttpResponse<?> response, String name) {
    return response.headers().firstValue(name).orElse(null);
  }

  private static HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(ui.toString().replaceAll("/$", "")
        + path)).method(method, HttpRequest.BodyPublishers.noBody()).build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }
}

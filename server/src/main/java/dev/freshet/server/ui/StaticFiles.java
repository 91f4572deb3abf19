package dev.freshet.server.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The pages under {@code /ui/} (from this package's {@code static/} resources; {@code /ui/} is
 * {@code index.html}) and the chart library under {@code /webjars/} (from the class path's
 * {@code META-INF/resources/webjars/}, where WebJars put their files). Every answer carries the
 * pages' security headers; a path with {@code ..}, a directory or a file of an unknown type is
 * not found.
 *
 * <pre>{@code
 * GET /ui/                                            -> index.html
 * GET /webjars/uplot/1.6.30/dist/uPlot.iife.min.js    -> the chart library
 * }</pre>
 */
final class StaticFiles {
  private static final String PAGES = "dev/freshet/server/ui/static/";
  private static final String WEBJARS = "META-INF/resources/webjars/";
  /**
   * Scripts, styles, fetches and images from this origin only: the pages have no inline script
   * or style, and a SQL result shown in them cannot run anything.
   */
  static final String CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self';"
      + " script-src 'self'; connect-src 'self'; img-src 'self' data:";

  private final ClassLoader loader = StaticFiles.class.getClassLoader();
  /**
   * Files already read, by resource name. Only names of files found are kept, so the cache is
   * bounded by what the class path holds, whatever clients ask for.
   */
  private final Map<String, ClasspathFile> cache = new ConcurrentHashMap<>();

  /** Answers {@code target}, a path under {@code /ui/} or {@code /webjars/}. */
  void handle(String target, HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    addSecurityHeaders(response);
    if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
      response.setHeader("Allow", "GET, HEAD");
      plain(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, request.getMethod()
          + " is not allowed on " + target + ": the pages are read with GET");
      return;
    }
    Optional<ClasspathFile> file = resourceName(target).isEmpty() ? Optional.empty()
        : find(resourceName(target).get());
    if (file.isEmpty()) {
      plain(response, HttpServletResponse.SC_NOT_FOUND, "No file " + target
          + ". The web UI is at /ui/");
      return;
    }
    // The chart library's path names its version, so it never changes; the pages change with
    // the server, so the browser checks them again each time.
    response.setHeader("Cache-Control", target.startsWith("/webjars/")
        ? "private, max-age=31536000, immutable" : "no-cache");
    response.setContentType(file.get().contentType());
    response.setContentLength(file.get().bytes().length);
    if (request.getMethod().equals("GET")) {
      response.getOutputStream().write(file.get().bytes());
    }
  }

  /**
   * The class path resource {@code target} names, or empty if it tries to leave its directory
   * ({@code ..}, {@code .}, an empty segment, a backslash).
   */
  static Optional<String> resourceName(String target) {
    String root;
    String path;
    if (target.startsWith("/ui/")) {
      root = PAGES;
      path = target.equals("/ui/") ? "index.html" : target.substring("/ui/".length());
    } else if (target.startsWith("/webjars/")) {
      root = WEBJARS;
      path = target.substring("/webjars/".length());
    } else {
      return Optional.empty();
    }
    if (path.isEmpty() || path.contains("\\") || path.contains("\0")) {
      return Optional.empty();
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return Optional.empty();
      }
    }
    return Optional.of(root + path);
  }

  private Optional<ClasspathFile> find(String name) throws IOException {
    ClasspathFile cached = cache.get(name);
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<ClasspathFile> file = ClasspathFile.find(loader, name);
    file.ifPresent(found -> cache.put(name, found));
    return file;
  }

  private static void addSecurityHeaders(HttpServletResponse response) {
    response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Referrer-Policy", "no-referrer");
  }

  private static void plain(HttpServletResponse response, int status, String message)
      throws IOException {
    response.setStatus(status);
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("text/plain;charset=utf-8");
    response.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
  }
}

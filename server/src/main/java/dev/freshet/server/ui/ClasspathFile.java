package dev.freshet.server.ui;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A file the web UI serves from the class path: its bytes and its content type. Only regular
 * files of the known types are found, never a directory (whose class path URL would list its
 * entries), so a request cannot browse the class path.
 *
 * <pre>{@code
 * ClasspathFile.find(loader, "META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.min.css")
 *     .map(ClasspathFile::contentType);   // Optional[text/css;charset=utf-8]
 * }</pre>
 */
record ClasspathFile(byte[] bytes, String contentType) {
  /** The types served, by file extension: what the pages and the chart library need. */
  private static final Map<String, String> TYPES = Map.of(
      "html", "text/html;charset=utf-8",
      "js", "text/javascript;charset=utf-8",
      "css", "text/css;charset=utf-8",
      "svg", "image/svg+xml",
      "png", "image/png",
      "ico", "image/x-icon");

  /**
   * The regular file at {@code name} on {@code loader}'s class path, if there is one of a served
   * type; {@code name} must already be checked to stay under the directory it is meant for.
   */
  static Optional<ClasspathFile> find(ClassLoader loader, String name) throws IOException {
    String type = TYPES.get(extension(name));
    URL url = type == null ? null : loader.getResource(name);
    if (url == null || !isRegularFile(url)) {
      return Optional.empty();
    }
    try (InputStream in = url.openStream()) {
      return Optional.of(new ClasspathFile(in.readAllBytes(), type));
    }
  }

  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 || dot < name.lastIndexOf('/') ? ""
        : name.substring(dot + 1).toLowerCase(Locale.ROOT);
  }

  /**
   * Whether {@code url} is a file in a jar or in a directory of classes; any other kind of
   * resource (a directory, a URL of an unknown protocol) is not served.
   */
  private static boolean isRegularFile(URL url) throws IOException {
    switch (url.getProtocol()) {
      case "jar" -> {
        URLConnection connection = url.openConnection();
        return connection instanceof JarURLConnection jar && jar.getJarEntry() != null
            && !jar.getJarEntry().isDirectory();
      }
      case "file" -> {
        try {
          return Files.isRegularFile(Path.of(url.toURI()));
        } catch (URISyntaxException | IllegalArgumentException e) {
          return false;
        }
      }
      default -> {
        return false;
      }
    }
  }
}

package dev.freshet.server.ui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The executable jar ({@code target/freshet.jar}, which {@code package} shades) holds the web
 * UI's pages and its chart library, found as {@link StaticFiles} finds them. Failsafe runs it
 * after {@code package}, in the server module's directory.
 */
class ShadedJarWebUiIT {
  @Test void shouldServeThePagesAndTheChartLibraryFromTheExecutableJar() throws Exception {
    Path jar = Path.of("target", "freshet.jar");
    assertTrue(Files.isRegularFile(jar), jar.toAbsolutePath() + " is missing: package builds it");
    // The jar alone over the JDK's classes: nothing of this test's class path.
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
        ClassLoader.getPlatformClassLoader())) {
      for (String target : List.of("/ui/", "/ui/app.js", "/ui/api.js", "/ui/charts.js",
          "/ui/detail.js", "/ui/objects.js", "/ui/sqlbox.js", "/ui/style.css", "/ui/favicon.svg",
          "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js",
          "/webjars/uplot/1.6.30/dist/uPlot.min.css")) {
        String name = StaticFiles.resourceName(target).orElseThrow();
        assertTrue(ClasspathFile.find(loader, name).isPresent(), target + " is not in " + jar);
      }
    }
  }
}

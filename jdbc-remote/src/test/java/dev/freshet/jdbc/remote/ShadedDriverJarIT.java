package dev.freshet.jdbc.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jar a BI tool loads (target/freshet-jdbc-remote.jar, built at {@code package}): small, the
 * driver and Avatica's client only, its other libraries moved under the driver's package.
 * Failsafe runs it after {@code package}, which shades the jar; the server's
 * ShadedRemoteDriverIT connects through it alone.
 */
class ShadedDriverJarIT {
  private static final long MAX_BYTES = 10L * 1024 * 1024;
  private static final String SHADED = "dev/freshet/jdbc/remote/shaded/";

  private static Path jar;
  private static List<String> classes;

  @BeforeAll static void listClasses() throws IOException {
    String property = System.getProperty("freshet.remoteDriverJar");
    assertNotNull(property, "freshet.remoteDriverJar is not set: run through Maven (verify)");
    jar = Path.of(property);
    assertTrue(Files.isRegularFile(jar), jar + " is missing: the shade plugin builds it (package)");
    List<String> found = new ArrayList<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (ZipEntry entry : Collections.list(file.entries())) {
        if (entry.getName().endsWith(".class")) {
          found.add(entry.getName());
        }
      }
    }
    classes = List.copyOf(found);
  }

  @Test void shouldBeOneFileOfAtMostTenMegabytes() throws IOException {
    long size = Files.size(jar);
    assertTrue(size <= MAX_BYTES, jar + " has " + size + " bytes, more than " + MAX_BYTES);
  }

  @Test void shouldHoldNoCalciteOutsideAvaticaNoJaninoAndNoH2() {
    List<String> forbidden = new ArrayList<>();
    for (String name : classes) {
      boolean calcite = name.startsWith("org/apache/calcite/")
          && !name.startsWith("org/apache/calcite/avatica/");
      if (calcite || name.startsWith("org/codehaus/janino/") || name.startsWith("org/h2/")) {
        forbidden.add(name);
      }
    }
    assertNone(forbidden);
  }

  @Test void shouldKeepEveryOtherLibraryUnderTheDriversPackage() {
    // A protobuf, Jackson, HttpClient or slf4j class under its own name would clash with the
    // host application's copy of that library.
    List<String> outside = new ArrayList<>();
    for (String name : classes) {
      if (!name.startsWith("dev/freshet/jdbc/remote/")
          && !name.startsWith("org/apache/calcite/avatica/")) {
        outside.add(name);
      }
    }
    assertNone(outside);
    for (String library : List.of("com/google/protobuf/Message.class",
        "com/fasterxml/jackson/databind/ObjectMapper.class",
        "org/apache/hc/client5/http/impl/classic/CloseableHttpClient.class",
        "org/slf4j/LoggerFactory.class")) {
      assertTrue(classes.contains(SHADED + library), "missing " + SHADED + library);
    }
  }

  @Test void shouldRegisterFreshetsDriverAndAvaticasAsServices() throws IOException {
    try (JarFile file = new JarFile(jar.toFile());
         InputStream in = file.getInputStream(file.getEntry("META-INF/services/java.sql.Driver"))) {
      String services = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(Set.of(FreshetRemoteDriver.class.getName(),
          "org.apache.calcite.avatica.remote.Driver"), Set.copyOf(services.lines().toList()));
    }
  }

  /** Fails naming the first few of {@code classes}: a wrong dependency brings thousands. */
  private static void assertNone(List<String> classes) {
    assertTrue(classes.isEmpty(), classes.size() + " classes, e.g. "
        + classes.subList(0, Math.min(10, classes.size())));
  }
}

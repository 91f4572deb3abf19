package dev.freshet.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Checks the module boundaries of STYLE.md §1 on the executor's sources: only
 * {@code dev.freshet.executor.state.internals} may use H2's MVStore, so that the state store API
 * does not leak the storage engine.
 */
class ImportBoundaryTest {
  private static final Path MAIN = Path.of("src/main/java");
  private static final Path INTERNALS = MAIN.resolve("dev/freshet/executor/state/internals");

  @Test void shouldImportMVStoreOnlyWhenInStateInternals() throws IOException {
    assertTrue(Files.isDirectory(MAIN), "run from the executor module: " + MAIN.toAbsolutePath());
    List<String> offenders;
    try (Stream<Path> files = Files.walk(MAIN)) {
      offenders = files
          .filter(f -> f.toString().endsWith(".java") && !f.startsWith(INTERNALS))
          .filter(f -> read(f).contains("org.h2.mvstore"))
          .map(Path::toString)
          .sorted()
          .collect(Collectors.toList());
    }
    assertEquals(List.of(), offenders, "classes outside state.internals that use org.h2.mvstore");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot read " + file, e);
    }
  }
}

package dev.freshet.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A fresh PostgreSQL data directory for tests that stop and start their own server on it
 * (SinkRestartTest, SinkRestoreRetryTest): made by {@code initdb} once per test JVM and copied
 * for each test. Each test's own {@code initdb} took 3 to 5 s and most of a CPU second of its
 * work; a copy of the directory takes a small part of that. zonky's server skips {@code initdb}
 * for a directory that already holds a {@code postgresql.conf}.
 *
 * <pre>{@code
 * PostgresDataDirectory.copyTo(pgData);
 * EmbeddedPostgres.builder().setDataDirectory(pgData).setCleanDataDirectory(false).start();
 * }</pre>
 */
final class PostgresDataDirectory {
  /** What a server that ran leaves behind and a copy must not have. */
  private static final Set<String> LEFT_BY_A_SERVER = Set.of("epg-lock", "postmaster.pid");
  private static Path template;

  private PostgresDataDirectory() {
  }

  /** Fills the empty directory {@code target} with a new cluster's files. */
  static void copyTo(Path target) throws Exception {
    Path from = template();
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path relative = from.relativize(file);
        if (relative.toString().isEmpty()
            || LEFT_BY_A_SERVER.contains(relative.getFileName().toString())) {
          continue;
        }
        // With their permissions: PostgreSQL refuses a data directory others may read.
        Files.copy(file, target.resolve(relative.toString()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }

  private static synchronized Path template() throws Exception {
    if (template == null) {
      Path dir = Files.createTempDirectory("freshet-pg-template");
      // initdb, then a clean shutdown: the directory holds a cluster no server uses.
      EmbeddedPostgres.builder().setDataDirectory(dir).setCleanDataDirectory(false).start()
          .close();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
      template = dir;
    }
    return template;
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

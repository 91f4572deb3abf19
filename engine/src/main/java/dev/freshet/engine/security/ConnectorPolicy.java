package dev.freshet.engine.security;

import java.nio.file.Path;
import java.util.List;

/**
 * Where the engine's connectors may reach outside the engine: which directories the
 * {@code filesystem} connector reads, which JDBC URLs tables and sinks open, which Kafka client
 * properties pass on. The operator sets it; no SQL statement can widen it.
 *
 * <pre>{@code
 * ConnectorPolicy.unrestricted();                              // the embedded driver: its process's own
 * ConnectorPolicy.restricted(List.of(Path.of("/srv/data")));   // freshet serve --allow-file-root /srv/data
 * }</pre>
 *
 * @param trusted whether every statement is the process's own (an embedded engine), so nothing is
 *     restricted beyond what the process may do anyway
 * @param fileRoots the directories below which the {@code filesystem} connector may read, when
 *     not trusted; none by default
 */
public record ConnectorPolicy(boolean trusted, List<Path> fileRoots) {
  public ConnectorPolicy {
    fileRoots = fileRoots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
  }

  /** An embedded engine's: everything its process may do. */
  public static ConnectorPolicy unrestricted() {
    return new ConnectorPolicy(true, List.of());
  }

  /** A server's: files only below {@code fileRoots}, JDBC and Kafka only in the safe forms. */
  public static ConnectorPolicy restricted(List<Path> fileRoots) {
    return new ConnectorPolicy(false, fileRoots);
  }
}

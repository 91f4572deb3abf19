package dev.freshet.jdbc;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.Engine;
import dev.freshet.engine.ViewEngines;
import dev.freshet.engine.errors.Errors;
import dev.freshet.engine.options.SessionOption;
import dev.freshet.executor.limits.HeapBudgets;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engines running in this JVM, keyed by data directory or engine name, so that every
 * connection to the same data directory shares one engine.
 *
 * <pre>{@code
 * Engine engine = EngineRegistry.INSTANCE.resolve(Map.of("dataDir", "/var/lib/freshet"));
 * }</pre>
 *
 * <p>An engine of a data directory keeps its streams' rows there ({@link Engine}); one without
 * keeps everything in memory.
 *
 * <p>Engines live as long as the JVM: continuous queries and streams outlive the connection that
 * created them, as they would on a server. An engine closed by its application ({@link
 * Engine#close}) is replaced by a new one at the next connection, as a restart in the same JVM:
 * on a data directory, the new engine finds the streams' rows and the views' checkpoints.
 */
final class EngineRegistry {
  /** Connection property: the engine's data directory; it also identifies the engine. */
  static final String DATA_DIR = "dataDir";
  /** Connection property: name of an engine without data directory; default {@code default}. */
  static final String ENGINE = "engine";
  /**
   * Connection property: the memory budget of all continuous queries of the engine together,
   * e.g. {@code 512 MB}; default {@code unlimited}. Read when the engine starts, that is, by the
   * first connection to it.
   */
  static final String ENGINE_MEMORY_BUDGET = "engineMemoryBudget";
  /**
   * Connection property: serve the engine's web UI on this port of the loopback address (0 picks
   * one; see {@link Engine#serveWebUi}); default off. Read when the engine starts.
   */
  static final String UI_PORT = "uiPort";
  // Where views run (viewEngine, spark.*): ViewEngineProperties.
  /** Properties that Avatica, DriverManager or pools pass and that Freshet ignores. */
  private static final Set<String> PASSED_THROUGH = Set.of("user", "password", "timeZone",
      "fetch_size", "transparent_reconnection");

  static final EngineRegistry INSTANCE = new EngineRegistry();

  private final ConcurrentHashMap<String, Engine> engines = new ConcurrentHashMap<>();

  private EngineRegistry() {
  }

  /** Returns the engine that the connection properties {@code info} name, starting it if needed. */
  Engine resolve(Map<String, String> info) throws SQLException {
    for (String key : info.keySet()) {
      if (!key.equals(DATA_DIR) && !key.equals(ENGINE) && !key.equals(ENGINE_MEMORY_BUDGET)
          && !key.equals(UI_PORT) && !ViewEngineProperties.isOne(key)
          && !PASSED_THROUGH.contains(key)) {
        throw Errors.of(SqlState.UNABLE_TO_CONNECT, "Unknown connection property '" + key + "'."
            + " Freshet's embedded driver knows " + DATA_DIR + " (the data directory), "
            + ENGINE + " (the name of an in-memory engine), " + ENGINE_MEMORY_BUDGET
            + " (the memory of all its queries), " + UI_PORT + " (the port of its web UI), "
            + ViewEngineProperties.VIEW_ENGINE + " (where views run: freshet or spark) and"
            + " spark.* (Spark's settings), e.g. jdbc:freshet:dataDir=/tmp/freshet");
      }
    }
    long budget;
    try {
      // 60% of the heap unless the connection says otherwise ('unlimited' for none).
      String given = info.get(ENGINE_MEMORY_BUDGET);
      budget = given == null ? HeapBudgets.engineDefault()
          : SessionOption.bytes(ENGINE_MEMORY_BUDGET, given);
    } catch (SQLException e) {
      throw Errors.of(SqlState.UNABLE_TO_CONNECT, e.getMessage(), e);
    }
    int uiPort = uiPort(info.get(UI_PORT));
    ViewEngineProperties views = ViewEngineProperties.of(info);
    String dataDir = info.get(DATA_DIR);
    Optional<Path> path = dataDir == null || dataDir.isBlank() ? Optional.empty()
        : Optional.of(Path.of(dataDir).toAbsolutePath().normalize());
    String name = path.map(p -> "dir:" + p)
        .orElseGet(() -> "mem:" + info.getOrDefault(ENGINE, "default"));
    Engine resolved;
    try {
      resolved = engines.compute(name, (key, engine) -> engine == null || engine.isClosed()
          ? start(key, path, budget, uiPort, views.viewEngines()) : engine);
    } catch (UncheckedIOException e) {
      // The engine's message names the directory and what to do (e.g. another engine uses it).
      throw Errors.of(SqlState.UNABLE_TO_CONNECT, e.getMessage(), e.getCause());
    } catch (IllegalStateException e) {
      // The web UI could not start: no provider, or its port is taken.
      throw Errors.of(SqlState.UNABLE_TO_CONNECT, e.getMessage(), e);
    }
    // Another connection may have started the engine with other view engines: views would not
    // run where this one expects.
    views.check(resolved.viewEngines(), path.map(p -> "of data directory " + p)
        .orElseGet(() -> "'" + info.getOrDefault(ENGINE, "default") + "'"));
    return resolved;
  }

  private static Engine start(String key, Optional<Path> dataDir, long budget, int uiPort,
      ViewEngines viewEngines) {
    Engine engine = new Engine(key, dataDir, budget, viewEngines);
    if (uiPort >= 0) {
      try {
        engine.serveWebUi(uiPort);
      } catch (RuntimeException e) {
        engine.close();
        throw e;
      }
    }
    return engine;
  }

  /** The {@link #UI_PORT} property's port, or -1 if it is absent. */
  private static int uiPort(String value) throws SQLException {
    if (value == null || value.isBlank()) {
      return -1;
    }
    try {
      int port = Integer.parseInt(value.trim());
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // Answered below.
    }
    throw Errors.of(SqlState.UNABLE_TO_CONNECT, "Connection property " + UI_PORT + " must be a"
        + " port between 0 and 65535 (0 picks a free one), not '" + value + "'");
  }
}

package dev.freshet.engine.spi;

import java.sql.SQLException;
import java.util.Map;

/**
 * Another engine that can run materialized views' queries, e.g. Apache Spark Structured
 * Streaming ({@code engine-spark}); found with {@link java.util.ServiceLoader} by its
 * {@link #name()} when a view says {@code WITH ('engine' = 'spark')} or a server runs views there
 * by default ({@code freshet serve --engine spark}).
 *
 * <pre>{@code
 * // META-INF/services/dev.freshet.engine.spi.ViewRunnerProvider names the implementation
 * ViewRunner spark = provider.open(Map.of("spark.master", "local[2]"));
 * }</pre>
 */
public interface ViewRunnerProvider {
  /** The provider named {@code name} on the class path, if there is one. */
  static java.util.Optional<ViewRunnerProvider> named(String name) {
    return java.util.ServiceLoader.load(ViewRunnerProvider.class,
            ViewRunnerProvider.class.getClassLoader()).stream()
        .map(java.util.ServiceLoader.Provider::get).filter(p -> p.name().equals(name))
        .findFirst();
  }

  /** The name views give in {@code WITH ('engine' = name)}, lower case. */
  String name();

  /**
   * Opens a runner with {@code settings} (the engine's {@link dev.freshet.engine.ViewEngines}
   * settings; the runner reads the keys it knows). Called once per Freshet engine, at its first
   * view on this runner; closed with the engine.
   *
   * @throws SQLException if the settings are wrong or the engine cannot be reached
   */
  ViewRunner open(Map<String, String> settings) throws SQLException;
}

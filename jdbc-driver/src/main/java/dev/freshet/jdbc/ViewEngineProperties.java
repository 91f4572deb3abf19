package dev.freshet.jdbc;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.ViewEngines;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The connection properties that say where an embedded engine's views run: {@code viewEngine}
 * ({@code freshet} or {@code spark}) and every property beginning with {@code spark.}, which the
 * Spark runner reads ({@code spark.master}, {@code spark.checkpoint.dir}, or any Spark conf).
 *
 * <pre>{@code
 * // jdbc:freshet:dataDir=/var/lib/freshet;viewEngine=spark;spark.master=local[2]
 * ViewEngineProperties p = ViewEngineProperties.of(info);
 * Engine engine = new Engine(key, dataDir, budget, p.viewEngines());
 * }</pre>
 *
 * <p>Engines are shared per data directory, and the settings are read by the connection that
 * starts the engine. A later connection that names settings must name the engine's own
 * ({@link #check}); one that names none joins the engine as it is.
 */
record ViewEngineProperties(ViewEngines viewEngines, boolean namesEngine, boolean namesSettings) {
  /** Connection property: where views run unless they say otherwise; default {@code freshet}. */
  static final String VIEW_ENGINE = "viewEngine";
  /** The prefix of the Spark runner's properties. */
  static final String SPARK_PREFIX = "spark.";

  /** Whether {@code key} is one of these properties. */
  static boolean isOne(String key) {
    return key.equals(VIEW_ENGINE) || key.startsWith(SPARK_PREFIX);
  }

  /**
   * The view engines the connection properties {@code info} name.
   *
   * @throws SQLException (08001) if {@code viewEngine} names no engine views can run on
   */
  static ViewEngineProperties of(Map<String, String> info) throws SQLException {
    String engine = info.getOrDefault(VIEW_ENGINE, ViewEngines.FRESHET).trim()
        .toLowerCase(Locale.ROOT);
    if (!ViewEngines.NAMES.contains(engine)) {
      throw Errors.of(SqlState.UNABLE_TO_CONNECT, "Connection property " + VIEW_ENGINE + " must"
          + " be freshet (Freshet's own executor, the default) or spark (Apache Spark; needs"
          + " dev.freshet:freshet-engine-spark on the class path), not '"
          + info.get(VIEW_ENGINE) + "'");
    }
    Map<String, String> settings = new TreeMap<>();
    info.forEach((key, value) -> {
      if (key.startsWith(SPARK_PREFIX)) {
        settings.put(key, value);
      }
    });
    return new ViewEngineProperties(new ViewEngines(engine, settings),
        info.containsKey(VIEW_ENGINE), !settings.isEmpty());
  }

  /**
   * Checks that the engine {@code running} was started with what these properties name.
   *
   * @throws SQLException (08001) naming both, if this connection asks for other view engines
   */
  void check(ViewEngines running, String engine) throws SQLException {
    // engine: e.g. "of data directory /var/lib/freshet"
    boolean sameEngine = !namesEngine
        || running.defaultEngine().equals(viewEngines.defaultEngine());
    boolean sameSettings = !namesSettings || running.settings().equals(viewEngines.settings());
    if (!sameEngine || !sameSettings) {
      throw Errors.of(SqlState.UNABLE_TO_CONNECT, "The engine " + engine + " already runs with "
          + VIEW_ENGINE + "=" + running.defaultEngine() + " and " + running.shownSettings()
          + "; this connection asks for " + VIEW_ENGINE + "=" + viewEngines.defaultEngine()
          + " and " + viewEngines.shownSettings() + ". Connections share an engine, and the"
          + " first one's properties started it: give the same " + VIEW_ENGINE + " and spark.*"
          + " properties, or none; restart the application to change them");
    }
  }
}

package dev.freshet.server;

import dev.freshet.engine.ViewEngines;
import dev.freshet.engine.spi.ViewRunnerProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code freshet serve} options that say where views run: {@code --engine},
 * {@code --spark-master}, {@code --spark-checkpoint-dir} and {@code --spark-conf}, checked and
 * turned into the engine's {@link ViewEngines}.
 *
 * <pre>{@code
 * ViewEngines engines = ViewEngineOptions.viewEngines("spark", "spark://10.0.0.5:7077",
 *     "hdfs://nn:8020/freshet/checkpoints", List.of("spark.executor.memory=4g"));
 * }</pre>
 */
final class ViewEngineOptions {

  private ViewEngineOptions() {
  }

  /**
   * The view engines of {@code --engine engine} and the Spark options; null options were not
   * given.
   *
   * @throws IllegalArgumentException naming the wrong option and what to give instead
   */
  static ViewEngines viewEngines(String engine, String sparkMaster, String sparkCheckpointDir,
      List<String> sparkConf) {
    String name = engine.trim().toLowerCase(Locale.ROOT);
    if (!ViewEngines.NAMES.contains(name)) {
      throw new IllegalArgumentException("--engine must be freshet (Freshet's own executor, the"
          + " default) or spark (Apache Spark, see --spark-master), not '" + engine + "'");
    }
    // Insertion order, so that a key given twice is reported against the option that repeats it.
    Map<String, String> settings = new LinkedHashMap<>();
    for (String entry : sparkConf) {
      int equals = entry.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("--spark-conf takes key=value, e.g. --spark-conf"
            + " spark.executor.memory=4g, not '" + entry + "'");
      }
      String key = entry.substring(0, equals).trim();
      if (!key.startsWith("spark.")) {
        throw new IllegalArgumentException("--spark-conf takes Spark's own keys, which begin with"
            + " 'spark.' (e.g. spark.executor.memory=4g), not '" + key + "'");
      }
      put(settings, key, entry.substring(equals + 1), "--spark-conf " + key);
    }
    if (sparkMaster != null) {
      put(settings, ViewEngines.SPARK_MASTER, sparkMaster, "--spark-master");
    }
    if (sparkCheckpointDir != null) {
      put(settings, ViewEngines.SPARK_CHECKPOINT_DIR, sparkCheckpointDir, "--spark-checkpoint-dir");
    }
    return new ViewEngines(name, settings);
  }

  /**
   * Checks, before the server starts, that views can run on {@code engine}: its runner (a
   * {@link ViewRunnerProvider}) is on the class path. Without it the server would start and every
   * view would fail.
   *
   * @throws IllegalArgumentException saying how to add the runner
   */
  static void requireRunner(String engine) {
    String name = engine.trim().toLowerCase(Locale.ROOT);
    if (name.equals(ViewEngines.FRESHET)) {
      return;
    }
    if (ViewRunnerProvider.named(name).isEmpty()) {
      throw new IllegalArgumentException("--engine " + name + " needs Freshet's " + name
          + " module (dev.freshet:freshet-engine-" + name + ") and its dependencies on the class"
          + " path; the launcher adds them: ./freshet serve --engine " + name);
    }
  }

  private static void put(Map<String, String> settings, String key, String value,
      String option) {
    if (settings.putIfAbsent(key, value) != null) {
      throw new IllegalArgumentException(option + " sets " + key + ", which another option"
          + " already set to '" + settings.get(key) + "'; give it once");
    }
  }
}

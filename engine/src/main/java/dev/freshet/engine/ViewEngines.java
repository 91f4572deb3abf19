package dev.freshet.engine;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import dev.freshet.common.security.SensitiveOptions;

/**
 * Where an engine's materialized views run unless their {@code WITH ('engine' = ...)} says
 * otherwise, and the settings of the other engines that can run them (found by
 * {@link dev.freshet.engine.spi.ViewRunnerProvider}). {@code freshet} is Freshet's own executor.
 *
 * <pre>{@code
 * ViewEngines spark = new ViewEngines("spark", Map.of("spark.master", "spark://10.0.0.5:7077"));
 * Engine engine = new Engine("server", dataDir, MemoryPool.UNLIMITED, spark);
 * }</pre>
 *
 * @param defaultEngine the name of the engine a view without {@code 'engine'} runs on, lower case
 * @param settings each runner's settings, by key; a runner reads those it knows (Spark's begin
 *     with {@code spark.})
 */
public record ViewEngines(String defaultEngine, Map<String, String> settings) {
  /** The name of Freshet's own executor. */
  public static final String FRESHET = "freshet";
  /** The name of Apache Spark Structured Streaming's runner ({@code engine-spark}). */
  public static final String SPARK = "spark";
  /** The engines views can be given: Freshet's own executor and Spark. */
  public static final Set<String> NAMES = Set.of(FRESHET, SPARK);
  /** The setting of the Spark master that views on Spark run on. */
  public static final String SPARK_MASTER = "spark.master";
  /** The setting of the root of views' Spark checkpoints, which the whole cluster shares. */
  public static final String SPARK_CHECKPOINT_DIR = "spark.checkpoint.dir";
  /** Every view on Freshet's own executor, no other engine's settings. */
  public static final ViewEngines DEFAULT = new ViewEngines(FRESHET, Map.of());

  public ViewEngines {
    defaultEngine = requireNonNull(defaultEngine, "defaultEngine").toLowerCase(Locale.ROOT);
    settings = java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
  }

  /**
   * The settings as {@code {spark.master=local[2]}}, for logs and messages, with the values of
   * secrets (passwords, tokens, keys: {@link SensitiveOptions}) hidden.
   */
  public String shownSettings() {
    Map<String, String> shown = new TreeMap<>();
    settings.forEach((key, value) ->
        shown.put(key, SensitiveOptions.isSensitive(key) ? "(hidden)" : value));
    return shown.toString();
  }
}

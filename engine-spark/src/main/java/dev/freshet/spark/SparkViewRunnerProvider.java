package dev.freshet.spark;

import dev.freshet.engine.ViewEngines;
import dev.freshet.engine.spi.ViewRunner;
import dev.freshet.engine.spi.ViewRunnerProvider;
import java.sql.SQLException;
import java.util.Map;

/**
 * Runs views {@code WITH ('engine' = 'spark')} (or all views of a server started with
 * {@code --engine spark}) on Spark Structured Streaming; found by the engine with
 * {@link java.util.ServiceLoader}.
 *
 * <pre>{@code
 * // settings from ViewEngines: spark.master (default local[2]), spark.checkpoint.dir, spark.*
 * ViewRunner spark = new SparkViewRunnerProvider().open(Map.of("spark.master", "local[2]"));
 * }</pre>
 */
public final class SparkViewRunnerProvider implements ViewRunnerProvider {
  /** The name views give: {@code WITH ('engine' = 'spark')}. */
  public static final String NAME = ViewEngines.SPARK;

  @Override public String name() {
    return NAME;
  }

  @Override public ViewRunner open(Map<String, String> settings) throws SQLException {
    return new SparkViewRunner(SparkViewSettings.of(settings));
  }
}

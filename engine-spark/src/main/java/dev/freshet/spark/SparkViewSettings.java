package dev.freshet.spark;

import dev.freshet.common.errors.SqlState;
import dev.freshet.engine.ViewEngines;
import dev.freshet.engine.errors.Errors;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a Freshet engine's settings say about Spark: the master its views run on, where their
 * checkpoints go, and any other Spark configuration for the session.
 *
 * <pre>{@code
 * SparkViewSettings s = SparkViewSettings.of(Map.of("spark.master", "spark://10.0.0.5:7077",
 *     "spark.checkpoint.dir", "hdfs://nn:8020/freshet/checkpoints"));
 * }</pre>
 *
 * @param master {@code spark.master}: {@code local[2]} unless given
 * @param checkpointDir {@code spark.checkpoint.dir}: a directory that the driver and every
 *     executor reach, under which each view's checkpoint is made; empty: in each view's own
 *     directory in Freshet's data directory (right for {@code local[...]} only)
 * @param conf every other {@code spark.*} setting, passed to the session
 */
record SparkViewSettings(String master, Optional<String> checkpointDir, Map<String, String> conf) {
  static final String MASTER = ViewEngines.SPARK_MASTER;
  static final String CHECKPOINT_DIR = ViewEngines.SPARK_CHECKPOINT_DIR;

  static SparkViewSettings of(Map<String, String> settings) throws SQLException {
    String master = SparkSessions.DEFAULT_MASTER;
    String checkpointDir = null;
    Map<String, String> conf = new TreeMap<>();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith("spark.")) {
        continue;
      }
      String value = nonEmpty(key, e.getValue());
      if (key.equals(MASTER)) {
        master = value;
      } else if (key.equals(CHECKPOINT_DIR)) {
        checkpointDir = value;
      } else {
        conf.put(key, value);
      }
    }
    return new SparkViewSettings(master, Optional.ofNullable(checkpointDir), Map.copyOf(conf));
  }

  private static String nonEmpty(String key, @Nullable String value) throws SQLException {
    if (value == null || value.isBlank()) {
      throw Errors.of(SqlState.INVALID_PARAMETER_VALUE, "Setting " + key + " is empty. Give it"
          + " a value (e.g. spark.master = spark://host:7077) or leave it out");
    }
    return value.trim();
  }
}

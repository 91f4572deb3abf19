package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import java.time.LocalDateTime;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Spark's physical plan of a translated aggregation: Spark's own state, in the query's mode. */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkExplainTest {
  private static SparkBench bench;

  @BeforeAll static void startSpark() throws Exception {
    bench = new SparkBench();
  }

  @AfterAll static void stopSpark() {
    bench.close();
  }

  @ParameterizedTest @EnumSource(EmitMode.class)
  void shouldShowStateStoreRestoreAndSaveInTheQuerysOutputMode(EmitMode mode) throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM"
        + " TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, k, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), k", mode, "EVENTS")) {
      spark.add(List.<Object[]>of(new Object[] {"a", LocalDateTime.of(1970, 1, 1, 0, 0, 1), 1}));
      String plan = spark.query().explain();
      String saveMode = mode.name().charAt(0) + mode.name().substring(1).toLowerCase();
      assertTrue(plan.startsWith("== Physical Plan =="), plan);
      assertTrue(plan.contains("StateStoreRestore ["), plan);
      // StateStoreSave [keys], state info [...], <output mode>, <watermark>, ...
      assertTrue(Pattern.compile("StateStoreSave \\[[^\\n]*\\], state info \\[[^\\n]*\\] [^\\n]*, "
          + saveMode + ", ").matcher(plan).find(), plan);
      // The event time is the watermark's, 5 s late (T5000ms), and the window is grouped on it.
      assertTrue(plan.contains("EventTimeWatermark"), plan);
      assertTrue(Pattern.compile("HashAggregate\\(keys=\\[f_\\d+#\\d+-T5000ms, ").matcher(plan)
          .find(), plan);
    }
  }
}

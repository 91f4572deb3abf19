package dev.freshet.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.engine.spi.BatchProgress;
import dev.freshet.sql.parser.EmitMode;
import dev.freshet.testkit.SparkTest;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The watermark's boundary on Spark as Freshet defines it (SEMANTICS.md): a window closes when
 * the watermark, the largest event time seen minus the delay, reaches its end; a row for a
 * closed window is late and dropped.
 */
@SparkTest
@ExtendWith(LocalSparkSession.class)
class SparkWatermarkTest {
  private static SparkBench bench;

  @BeforeAll static void startSpark() throws Exception {
    bench = new SparkBench();
  }

  @AfterAll static void stopSpark() {
    bench.close();
  }

  @Test void shouldCloseATumblingWindowWhenTheWatermarkReachesItsEndAndDropALateRow()
      throws Exception {
    try (SparkBench.Running spark = bench.start("SELECT STREAM"
        + " TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS n FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL '10' SECOND)", EmitMode.APPEND, "EVENTS")) {
      assertEquals(List.of(), rows(spark.add(List.<Object[]>of(event(2_000)))));
      // Watermark 14.999 - 5 = 9.999 s: [0, 10) may still get rows.
      assertEquals(List.of(), rows(spark.add(List.<Object[]>of(event(14_999)))));
      assertEquals(0, droppedByWatermark(spark));

      // Watermark 10 s: [0, 10) is final, emitted once.
      assertEquals(List.of(List.of(at(0), 1L)), rows(spark.add(List.<Object[]>of(event(15_000)))));

      // 2 s is in [0, 10), closed: dropped, and nothing is emitted for it.
      assertEquals(List.of(), rows(spark.add(List.<Object[]>of(event(2_000)))));
      assertEquals(1, droppedByWatermark(spark));

      // Watermark 25 s: [10, 20) with its two rows; the late row counted nowhere.
      assertEquals(List.of(List.of(at(10_000), 2L)), rows(spark.add(List.<Object[]>of(event(30_000)))));
      assertEquals(1, droppedByWatermark(spark));
    }
  }

  /** Rows dropped as late by the aggregation, over every batch the query ran. */
  private static long droppedByWatermark(SparkBench.Running spark) {
    long dropped = 0;
    for (BatchProgress progress : spark.query().recentProgress()) {
      for (BatchProgress.StateOperator operator : progress.stateOperators()) {
        dropped += operator.numRowsDroppedByWatermark();
      }
    }
    return dropped;
  }

  private static List<List<Object>> rows(List<SparkBench.Batch> batches) {
    List<List<Object>> rows = new ArrayList<>();
    batches.forEach(batch -> rows.addAll(batch.rows()));
    return rows;
  }

  private static LocalDateTime at(long millis) {
    return LocalDateTime.of(1970, 1, 1, 0, 0).plusNanos(millis * 1_000_000);
  }

  private static Object[] event(long millis) {
    return new Object[] {"a", at(millis), 1};
  }
}

package dev.freshet.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.testkit.SparkTest;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

/** The collector applies each batch id once: Spark's replay of a batch does not count twice. */
@SparkTest
class CountsCollectorTest {
  @Test void aReplayedBatchIdIsSkipped() {
    CountsCollector collector = new CountsCollector();
    collector.apply(0, List.of(RowFactory.create("u1", 2L), RowFactory.create("u2", 1L)));
    collector.apply(1, List.of(RowFactory.create("u1", 3L)));
    // A re-run of batch 1 (after a failure) whose rows would be wrong if applied again.
    collector.apply(1, List.of(RowFactory.create("u1", 99L)));

    assertEquals(Map.of("u1", 3L, "u2", 1L), collector.counts());
    assertEquals(1, collector.lastApplied());
    assertEquals(1, collector.replaysSkipped());
  }
}

package dev.freshet.executor.operators.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's StreamingDeduplicationSuite "deduplicate with watermark" at the operator, batch by
 * batch, as Spark runs it: {@code dropDuplicates()} over one event-time column {@code ts},
 * watermark delay 10 s. The key holds the event-time column, so a key leaves the state once the
 * watermark reaches it (no delay added), in the batch without data that the watermark's advance
 * runs; a row at or before the previous batch's watermark is late.
 */
class StreamDeduplicateByEventTimeKeyTest {
  @TempDir Path dir;

  /** Keys on ts (column 0), arrival order, ts the watermark column and the key's expiry. */
  private static final DeduplicateSpec ON_TS =
      new DeduplicateSpec(0, new int[] {0}, -1, false, 0, 0, 0);
  private static final long DELAY_MS = 10_000;

  private final CollectOperator out = new CollectOperator();
  private StreamDeduplicateOperator operator;
  private long batchId;
  private long previousWatermark;
  private long watermark;

  /** Runs a batch with Spark's watermarks (late: the previous batch's) and advances them. */
  private List<Long> run(long... seconds) {
    BatchContext batch = new BatchContext(batchId++, 0, previousWatermark, watermark);
    operator.startBatch(batch);
    long max = Long.MIN_VALUE;
    for (long s : seconds) {
      operator.push(new Object[] {s * 1000});
      max = Math.max(max, s * 1000);
    }
    operator.finishBatch(batch);
    previousWatermark = watermark;
    if (seconds.length > 0) {
      watermark = Math.max(watermark, max - DELAY_MS);
    }
    List<Long> emitted = new ArrayList<>();
    for (Object[] row : out.takeRows()) {
      emitted.add((Long) row[0] / 1000);
    }
    return emitted;
  }

  @Test void shouldAnswerAsSparksDeduplicateWithWatermark() {
    operator = new StreamDeduplicateOperator(ON_TS, new DeltaFileStateStoreProvider(
        new StateStoreSpec(new StateStoreId("q", 0, 0), dir.resolve("state/0/0"), 10, 100)),
        out);
    long[] input = new long[30];
    for (int i = 0; i < 30; i++) {
      input[i] = 10 + i % 6;
    }
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L, 15L), run(input));
    // numOutputRows, numTotalStateRows, numUpdatedStateRows, numRemovedStateRows, dropped
    assertEquals(new StateMetrics(6, 6, 6, 0, 0), operator.stateMetrics());
    // Watermark 5 s: nothing to evict, no batch without data.
    assertFalse(operator.needsNoDataBatch(watermark));

    assertEquals(List.of(25L), run(25));
    assertEquals(new StateMetrics(1, 7, 1, 0, 0), operator.stateMetrics());
    // Watermark 15 s passes 10..15: the batch without data drops them.
    assertEquals(15_000, watermark);
    assertTrue(operator.needsNoDataBatch(watermark));
    assertEquals(List.of(), run());
    assertEquals(new StateMetrics(0, 1, 0, 6, 0), operator.stateMetrics());
    assertFalse(operator.needsNoDataBatch(watermark));

    // Before the watermark: late, although its key left the state.
    assertEquals(List.of(), run(10));
    assertEquals(new StateMetrics(0, 1, 0, 0, 1), operator.stateMetrics());

    assertEquals(List.of(45L), run(45));
    assertEquals(new StateMetrics(1, 2, 1, 0, 0), operator.stateMetrics());
    // Watermark 35 s drops 25.
    assertTrue(operator.needsNoDataBatch(watermark));
    assertEquals(List.of(), run());
    assertEquals(new StateMetrics(0, 1, 0, 1, 0), operator.stateMetrics());
  }
}

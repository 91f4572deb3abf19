package dev.freshet.executor.operators.join;

import static dev.freshet.executor.operators.join.JoinHarness.batch;
import static dev.freshet.executor.operators.join.JoinHarness.out;
import static dev.freshet.executor.operators.join.JoinHarness.row;
import static dev.freshet.executor.operators.join.JoinHarness.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.limits.MemoryBudgetExceededException;
import dev.freshet.executor.limits.MemoryPool;
import dev.freshet.executor.limits.QueryResources;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.StateMetrics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests {@link StreamStreamJoinOperator} batch by batch, after Spark's StreamingInnerJoinSuite and
 * StreamingOuterJoinSuite: both inputs are {@code (k BIGINT, ts TIMESTAMP, v VARCHAR)} joined
 * {@code ON l.k = r.k AND l.ts BETWEEN r.ts - INTERVAL '10' SECOND AND r.ts + INTERVAL '5'
 * SECOND}, so the left state falls 10 s behind the watermark and the right state 5 s behind it.
 */
class StreamStreamJoinOperatorTest {
  private static final TimeRange MINUS_10_PLUS_5 = new TimeRange(-10_000, true, 5_000, true);

  @TempDir Path dir;

  private static StreamStreamJoinSpec spec(JoinKind kind) {
    return new StreamStreamJoinSpec(0, kind, new int[] {0}, new int[] {0}, 3, 3, 1, 1,
        MINUS_10_PLUS_5, null);
  }

  @Test void shouldJoinAcrossBatchesEvictStateAndDropLateRowsWhenInnerJoinWithRange() {
    try (JoinHarness h = new JoinHarness(dir, spec(JoinKind.INNER))) {
      assertEquals(List.of(), h.run(batch(0, 0, 0),
          rows(row(1L, 20_000L, "a")), rows(row(2L, 25_000L, "x"))));
      assertMetrics(h, 0, 2, 2, 0, 0);

      // A right row of a later batch meets the left row in state.
      assertEquals(List.of(out(1L, 20_000L, "a", 1L, 25_000L, "y")), h.run(batch(1, 0, 0),
          List.of(), rows(row(1L, 25_000L, "y"))));
      assertMetrics(h, 1, 3, 1, 0, 0);

      // And a left row meets the right rows in state; l.ts = r.ts + 5 s is in range.
      assertEquals(List.of(out(1L, 30_000L, "b", 1L, 25_000L, "y")), h.run(batch(2, 0, 16_000),
          rows(row(1L, 30_000L, "b")), List.of()));
      assertMetrics(h, 1, 4, 1, 0, 0);

      // Watermark 31 s: left rows at or before 21 s and right rows at or before 26 s fall, after
      // joining; the late left row (10 s <= 16 s) joins nothing and is counted.
      assertEquals(List.of(out(1L, 20_000L, "a", 1L, 17_000L, "z")),
          h.run(batch(3, 16_000, 31_000), rows(row(2L, 10_000L, "late")),
              rows(row(1L, 17_000L, "z"))));
      assertMetrics(h, 1, 1, 0, 3, 1);

      // A late left row (31 s <= 31 s) would match w (it is in range) but is dropped; the left
      // row at 30 s, still in state, matches it.
      assertEquals(List.of(out(1L, 30_000L, "b", 1L, 40_000L, "w")),
          h.run(batch(4, 31_000, 31_000), rows(row(1L, 31_000L, "late")),
              rows(row(1L, 40_000L, "w"))));
      assertMetrics(h, 1, 2, 1, 0, 1);
    }
  }

  @Test void shouldEmitUnmatchedLeftRowOnceWhenWatermarkPassesItsBoundWhenLeftOuter() {
    try (JoinHarness h = new JoinHarness(dir, spec(JoinKind.LEFT_OUTER))) {
      assertEquals(List.of(out(1L, 20_000L, "a", 1L, 30_000L, "x")), h.run(batch(0, 0, 0),
          rows(row(1L, 20_000L, "a"), row(2L, 20_000L, "b")), rows(row(1L, 30_000L, "x"))));
      // Left rows at 20 s are final once the watermark reaches 30 s, not at 25 s (and the right
      // row at 30 s at 35 s).
      assertFalse(h.operator.needsNoDataBatch(25_000));
      assertFalse(h.operator.needsNoDataBatch(29_999));
      assertTrue(h.operator.needsNoDataBatch(30_000));

      assertEquals(List.of(), h.run(batch(1, 0, 25_000),
          List.of(), rows(row(3L, 40_000L, "q"))));
      assertTrue(h.operator.left().needsNoDataBatch(30_000));

      // The no-data batch: b comes out padded; a, matched, does not.
      assertEquals(List.of(out(2L, 20_000L, "b", null, null, null)),
          h.runNoData(batch(2, 25_000, 30_000)));
      assertMetrics(h, 1, 2, 0, 2, 0);
      assertFalse(h.operator.needsNoDataBatch(30_000));
      assertTrue(h.operator.needsNoDataBatch(35_000));

      // Exactly once: later batches evict the rest (right rows) and emit nothing.
      assertEquals(List.of(), h.runNoData(batch(3, 30_000, 60_000)));
      assertMetrics(h, 0, 0, 0, 2, 0);
      assertFalse(h.operator.needsNoDataBatch(90_000));
      // A runtime may drive the join as one operator: both inputs start and finish at once.
      h.operator.startBatch(batch(4, 60_000, 90_000));
      h.operator.finishBatch(batch(4, 60_000, 90_000));
      assertEquals(List.of(), h.out.lastBatch);
      // Downstream saw each batch start and finish once.
      assertEquals(List.of(5, 5, 0), List.of(h.out.started, h.out.finished, h.out.aborted));
    }
  }

  @Test void shouldEmitUnmatchedRightRowOnceWhenWatermarkPassesItsBoundWhenRightOuter() {
    try (JoinHarness h = new JoinHarness(dir, spec(JoinKind.RIGHT_OUTER))) {
      assertEquals(List.of(out(1L, 20_000L, "a", 1L, 22_000L, "x")), h.run(batch(0, 0, 0),
          rows(row(1L, 20_000L, "a")), rows(row(1L, 22_000L, "x"), row(2L, 22_000L, "y"))));
      // Right rows at 22 s are final at watermark 27 s.
      assertFalse(h.operator.needsNoDataBatch(26_999));
      assertTrue(h.operator.needsNoDataBatch(27_000));

      // The right input finishes first this time: the join waits for the left one.
      assertEquals(List.of(), h.run(batch(1, 0, 26_000),
          rows(row(5L, 30_000L, "c")), List.of(), true));

      assertEquals(List.of(out(null, null, null, 2L, 22_000L, "y")),
          h.runNoData(batch(2, 26_000, 27_000)));
      assertEquals(List.of(), h.runNoData(batch(3, 27_000, 100_000)));
      assertMetrics(h, 0, 0, 0, 2, 0);
    }
  }

  @Test void shouldEvictByWindowKeyWhenKeysCarryEventTimeWithoutRange() {
    // ON l.k = r.k AND l.window_start = r.window_start: the key holds event time.
    StreamStreamJoinSpec spec = new StreamStreamJoinSpec(0, JoinKind.LEFT_OUTER,
        new int[] {0, 1}, new int[] {0, 1}, 3, 3, 1, 1, null, null);
    try (JoinHarness h = new JoinHarness(dir, spec)) {
      assertEquals(List.of(out(1L, 10_000L, "a", 1L, 10_000L, "x")), h.run(batch(0, 0, 0),
          rows(row(1L, 10_000L, "a"), row(2L, 10_000L, "b")),
          rows(row(1L, 10_000L, "x"), row(2L, 20_000L, "y"))));
      assertFalse(h.operator.needsNoDataBatch(9_999));
      assertTrue(h.operator.needsNoDataBatch(10_000));
      assertEquals(List.of(out(2L, 10_000L, "b", null, null, null)),
          h.runNoData(batch(1, 0, 10_000)));
      assertMetrics(h, 1, 1, 0, 3, 0);
    }
  }

  @Test void shouldKeepOuterRowsForeverWhenNoRange() {
    StreamStreamJoinSpec spec = new StreamStreamJoinSpec(0, JoinKind.LEFT_OUTER,
        new int[] {0}, new int[] {0}, 3, 3, 1, 1, null, null);
    try (JoinHarness h = new JoinHarness(dir, spec)) {
      assertEquals(List.of(), h.run(batch(0, 0, 0), rows(row(2L, 10_000L, "b")), List.of()));
      assertFalse(h.operator.needsNoDataBatch(Long.MAX_VALUE - 1));
      assertEquals(List.of(), h.runNoData(batch(1, 0, 1_000_000)));
      assertMetrics(h, 0, 1, 0, 0, 0);
    }
  }

  @Test void shouldApplyResidualAndEmitNullKeyRowAtOnceWhenLeftOuter() {
    // ... AND l.v <> r.v; a NULL key equals nothing.
    StreamStreamJoinSpec spec = new StreamStreamJoinSpec(0, JoinKind.LEFT_OUTER,
        new int[] {0}, new int[] {0}, 3, 3, 1, 1, MINUS_10_PLUS_5,
        joined -> !joined[2].equals(joined[5]));
    try (JoinHarness h = new JoinHarness(dir, spec)) {
      assertEquals(List.of(out(null, 20_000L, "n", null, null, null),
          out(1L, 20_000L, "a", 1L, 20_000L, "b")),
          h.run(batch(0, 0, 0), rows(row(1L, 20_000L, "a"), row(null, 20_000L, "n")),
              rows(row(1L, 20_000L, "a"), row(1L, 20_000L, "b"), row(null, 20_000L, "n"))));
      // Only a (matched) and the right rows (inner side) are kept.
      assertMetrics(h, 2, 3, 3, 0, 0);
    }
  }

  @Test void shouldContinueFromCheckpointedStateWhenRestarted() {
    try (JoinHarness h = new JoinHarness(dir, spec(JoinKind.LEFT_OUTER))) {
      assertEquals(List.of(), h.run(batch(0, 0, 0), rows(row(1L, 20_000L, "a"),
          row(2L, 20_000L, "b"), row(3L, 20_000L, "c")), List.of()));
      assertEquals(List.of(out(1L, 20_000L, "a", 1L, 25_000L, "x")),
          h.run(batch(1, 0, 0), List.of(), rows(row(1L, 25_000L, "x"))));

      h.restart();
      // The restored rows join (b), keep their matched flag (a: no NULL row) and are evicted
      // unmatched (c: its NULL row).
      assertTrue(h.operator.needsNoDataBatch(30_000));
      assertEquals(List.of(out(2L, 20_000L, "b", 2L, 28_000L, "y"),
          out(3L, 20_000L, "c", null, null, null)),
          h.run(batch(2, 0, 30_000), List.of(), rows(row(2L, 28_000L, "y"))));
      assertMetrics(h, 2, 1, 1, 4, 0);
    }
  }

  @Test void shouldGiveSameOutputWhenBatchAbortedThenRerun() {
    try (JoinHarness h = new JoinHarness(dir, spec(JoinKind.LEFT_OUTER))) {
      h.run(batch(0, 0, 0), rows(row(1L, 20_000L, "a"), row(3L, 20_000L, "c")), List.of());
      List<List<Object>> expected = List.of(out(1L, 20_000L, "a", 1L, 25_000L, "x"),
          out(1L, 21_000L, "d", 1L, 25_000L, "x"), out(3L, 20_000L, "c", null, null, null));

      // The right input fails while reading: both inputs abort, the batch once.
      h.operator.left().startBatch(batch(1, 0, 30_000));
      h.operator.right().startBatch(batch(1, 0, 30_000));
      h.operator.left().push(row(1L, 21_000L, "d"));
      h.operator.left().finishBatch(batch(1, 0, 30_000));
      h.operator.right().push(row(1L, 25_000L, "x"));
      h.operator.right().abortBatch(batch(1, 0, 30_000));
      h.operator.left().abortBatch(batch(1, 0, 30_000));
      assertEquals(1, h.out.aborted);

      List<Object[]> left = rows(row(1L, 21_000L, "d"));
      List<Object[]> right = rows(row(1L, 25_000L, "x"));
      assertEquals(expected, h.run(batch(1, 0, 30_000), left, right));
      assertMetrics(h, 3, 1, 1, 2, 0);

      // Batch 1 again from its committed input state, by an operator restarted after it
      // committed (its commit was not recorded): the same output.
      h.restart();
      assertEquals(expected, h.run(batch(1, 0, 30_000), left, right));
      assertMetrics(h, 3, 1, 1, 2, 0);

      // d matched in the batch it arrived in: no NULL row when it falls.
      assertEquals(List.of(), h.runNoData(batch(2, 30_000, 40_000)));
      assertMetrics(h, 0, 0, 0, 1, 0);
    }
  }

  @Test void shouldFailBatchBeforeCommitWhenStateOutgrowsMemoryBudget() {
    // 20 rows of 3 columns fit in 10 000 bytes (320 each); 40 do not.
    QueryResources resources = new QueryResources("q", 10_000,
        new MemoryPool(MemoryPool.UNLIMITED));
    try (JoinHarness h = new JoinHarness(dir, spec(JoinKind.INNER))) {
      List<Object[]> twenty = new ArrayList<>();
      for (long i = 0; i < 20; i++) {
        twenty.add(row(i, 20_000L, "l" + i));
      }
      h.run(new BatchContext(0, 0, 0, 0, resources), twenty, List.of());
      assertThrows(MemoryBudgetExceededException.class,
          () -> h.run(new BatchContext(1, 0, 0, 0, resources), twenty, List.of()));
      h.operator.right().abortBatch(new BatchContext(1, 0, 0, 0, resources));

      // Batch 1 re-run within budget sees the committed state of batch 0 only.
      assertEquals(List.of(out(3L, 20_000L, "l3", 3L, 21_000L, "r")),
          h.run(new BatchContext(1, 0, 0, 0, resources), List.of(),
              rows(row(3L, 21_000L, "r"))));
      assertMetrics(h, 1, 21, 1, 0, 0);
    }
  }

  private static void assertMetrics(JoinHarness h, long output, long total, long updated,
      long removed, long dropped) {
    assertEquals(new StateMetrics(output, total, updated, removed, dropped),
        h.operator.stateMetrics());
  }
}

package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.StatePartitions;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Tests {@link StatefulAggregateOperator} driven batch by batch, as the Update and Complete output
 * modes of SEMANTICS.md §4.1 and §4.3 describe.
 */
class StatefulAggregateOperatorTest {
  /** {@code SELECT k, COUNT(*), SUM(v) FROM (k VARCHAR, v DOUBLE) GROUP BY k}. */
  private static final List<AggregateCall> COUNT_AND_SUM_PARTIAL = List.of(
      new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
      new AggregateCall(AggregateFunction.SUM, 1, ValueKind.DOUBLE));
  /** Merges the partial row {@code (k, count, sum)}. */
  private static final List<AggregateCall> COUNT_AND_SUM_MERGE = List.of(
      new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
      new AggregateCall(AggregateFunction.SUM, 2, ValueKind.DOUBLE));

  @Test void shouldEmitOnlyTouchedKeysWhenUpdateMode() {
    Harness h = new Harness(countAndSum(OutputMode.UPDATE, 1));

    assertRows(h.runBatch(row("a", 1.0), row("b", 2.0), row("a", 3.0)),
        row("a", 2L, 4.0), row("b", 1L, 2.0));
    assertMetrics(h.operator.metrics(), 2, 2, 2);

    assertRows(h.runBatch(row("a", 5.0)), row("a", 3L, 9.0));
    assertMetrics(h.operator.metrics(), 1, 1, 2);

    assertRows(h.runBatch(row("c", -1.5), row("b", 0.5)), row("b", 2L, 2.5), row("c", 1L, -1.5));
    assertMetrics(h.operator.metrics(), 2, 2, 3);
  }

  @Test void shouldReportItsMetricsAsStatefulOperator() {
    Harness h = new Harness(countAndSum(OutputMode.UPDATE, 2));
    h.runBatch(row("a", 1.0), row("b", 2.0), row("a", 3.0));
    StatefulOperator op = h.operator;
    assertEquals("stateStoreSave", op.operatorName());
    assertEquals(2, op.numPartitions());
    assertEquals(new StateMetrics(2, 2, 2, 0, 0), op.stateMetrics());
  }

  @Test void shouldMarkNewUpdatedAndEvictedGroupsWhenAskedForGroupChanges() {
    // (t BIGINT event time, v BIGINT) GROUP BY t: COUNT(*), SUM(v); final at or before the watermark.
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 2, new EventTimeKey(0, 0), true);
    Harness h = new Harness(spec);
    h.operator.emitGroupChanges();
    BatchContext first = new BatchContext(0, 0, 0, 0);
    assertRows(h.run(first, row(1000L, 1L), row(2000L, 2L)),
        row(1000L, 1L, 1L, true, GroupChange.NEW), row(2000L, 1L, 2L, true, GroupChange.NEW));
    // The watermark passes 1000 in the second batch: group 1000 is updated, then evicted.
    BatchContext second = new BatchContext(1, 0, 0, 1500);
    assertRows(h.run(second, row(1000L, 5L), row(2000L, 1L)),
        row(1000L, 2L, 6L, false, GroupChange.UPDATED),
        row(1000L, 2L, 6L, false, GroupChange.EVICTED),
        row(2000L, 2L, 3L, false, GroupChange.UPDATED));
    AggregateRows rows = new AggregateRows(spec);
    Object[] saved = h.providers.get(StatePartitions.of(2000L, 2)).getReadStore(2).get(2000L);
    assertEquals(List.of(2000L, 2L, 3L), Arrays.asList(rows.row(2000L, saved)));
    assertEquals(null, h.providers.get(StatePartitions.of(1000L, 2)).getReadStore(2).get(1000L));
  }

  @Test void shouldRefuseGroupChangesWhenNotUpdateMode() {
    Harness h = new Harness(countAndSum(OutputMode.COMPLETE, 1));
    assertThrows(IllegalStateException.class, h.operator::emitGroupChanges);
  }

  @Test void shouldRouteAKeyObjectToThePartitionItsRowsGoTo() {
    Object[][] rows = {row(7L, "x"), row(null, "y"), row(-0.0d, null), row("a", 3)};
    for (int[] keyIndexes : new int[][] {{}, {0}, {0, 1}}) {
      KeyExtractor keys = new KeyExtractor(keyIndexes);
      for (Object[] r : rows) {
        for (int partitions : new int[] {1, 2, 5}) {
          assertEquals(StatePartitions.ofHash(keys.hashOf(r), partitions),
              StatePartitions.of(keys.keyOf(r), partitions), Arrays.toString(r));
        }
      }
    }
  }

  @Test void shouldEmitEveryKeyWhenCompleteMode() {
    Harness h = new Harness(countAndSum(OutputMode.COMPLETE, 1));

    assertRows(h.runBatch(row("a", 1.0), row("b", 2.0), row("a", 3.0)),
        row("a", 2L, 4.0), row("b", 1L, 2.0));
    assertRows(h.runBatch(row("a", 5.0)), row("a", 3L, 9.0), row("b", 1L, 2.0));
    assertMetrics(h.operator.metrics(), 2, 1, 2);
    assertRows(h.runBatch(row("c", 1.0)), row("a", 3L, 9.0), row("b", 1L, 2.0), row("c", 1L, 1.0));
  }

  @Test void shouldEmitNothingWhenBatchIsEmpty() {
    Harness update = new Harness(countAndSum(OutputMode.UPDATE, 1));
    update.runBatch(row("a", 1.0));
    assertRows(update.runBatch());
    assertRows(update.runBatch(row("a", 1.0)), row("a", 2L, 2.0));

    Harness complete = new Harness(countAndSum(OutputMode.COMPLETE, 1));
    complete.runBatch(row("a", 1.0));
    assertRows(complete.runBatch(), row("a", 1L, 1.0));
  }

  @Test void shouldGroupByBothColumnsWhenTwoGroupingColumns() {
    // Input (v BIGINT, region VARCHAR, day INTEGER); GROUP BY region, day; COUNT(*), SUM(v).
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {1, 2},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 0, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 3, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row(1L, "eu", 1), row(2L, "eu", 2), row(3L, "us", 1), row(4L, "eu", 1)),
        row("eu", 1, 2L, 5L), row("eu", 2, 1L, 2L), row("us", 1, 1L, 3L));
    assertRows(h.runBatch(row(10L, "us", 1), row(20L, "us", 2)),
        row("us", 1, 2L, 13L), row("us", 2, 1L, 20L));
  }

  @Test void shouldAggregateEveryGroupIntoOneRowWhenNoGroupingColumns() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[0],
        COUNT_AND_SUM_PARTIAL,
        List.of(new AggregateCall(AggregateFunction.SUM0, 0, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.DOUBLE)),
        OutputMode.UPDATE, 4);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", 1.0), row("b", 2.0)), row(2L, 3.0));
    assertRows(h.runBatch(row("c", 4.0)), row(3L, 7.0));
  }

  @Test void shouldKeepExtremesWhenMinAndMaxOfNumbersAndStrings() {
    // Input (k, d DOUBLE, s VARCHAR); MIN(d), MAX(d), MIN(s), MAX(s).
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.MIN, 1, ValueKind.DOUBLE),
            new AggregateCall(AggregateFunction.MAX, 1, ValueKind.DOUBLE),
            new AggregateCall(AggregateFunction.MIN, 2, ValueKind.STRING),
            new AggregateCall(AggregateFunction.MAX, 2, ValueKind.STRING)),
        List.of(new AggregateCall(AggregateFunction.MIN, 1, ValueKind.DOUBLE),
            new AggregateCall(AggregateFunction.MAX, 2, ValueKind.DOUBLE),
            new AggregateCall(AggregateFunction.MIN, 3, ValueKind.STRING),
            new AggregateCall(AggregateFunction.MAX, 4, ValueKind.STRING)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", 5.0, "m"), row("a", null, null), row("a", -2.0, "b"),
            row("a", 3.0, "z"), row("b", null, null)),
        row("a", -2.0, 5.0, "b", "z"), row("b", null, null, null, null));
    assertRows(h.runBatch(row("a", 0.0, "c"), row("b", 1.0, "Q"), row("a", 9.5, "a")),
        row("a", -2.0, 9.5, "a", "z"), row("b", 1.0, 1.0, "Q", "Q"));
    assertRows(h.runBatch(row("a", -7.0, "zz"), row("b", null, null)),
        row("a", -7.0, 9.5, "a", "zz"), row("b", 1.0, 1.0, "Q", "Q"));
  }

  @Test void shouldIgnoreNullsWhenCountingColumn() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", null), row("a", 1.0), row("b", null), row("a", "x")),
        row("a", 2L, 3L), row("b", 0L, 1L));
    assertRows(h.runBatch(row("b", null)), row("b", 0L, 2L));
    assertRows(h.runBatch(row("b", 0.0)), row("b", 1L, 3L));
  }

  @Test void shouldBeNullWhenSumOfLongsHasOnlyNulls() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", null), row("a", null), row("b", 4L)),
        row("a", null, 0L), row("b", 4L, 4L));
    assertRows(h.runBatch(row("a", null)), row("a", null, 0L));
    assertRows(h.runBatch(row("a", 5), row("a", null), row("b", null)),
        row("a", 5L, 5L), row("b", 4L, 4L));
    assertRows(h.runBatch(row("a", -7L)), row("a", -2L, -2L));
  }

  @Test void shouldFailTheBatchAndKeepStateWhenIntegerSumOverflows() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);
    assertRows(h.runBatch(row("a", 1L)), row("a", 1L, 1L));

    // Within one batch's partial sum, as SQL requires: an error, not a wrapped sum.
    BatchContext failing = new BatchContext(1, 1000);
    h.operator.startBatch(failing);
    h.operator.push(row("a", Long.MAX_VALUE));
    assertThrows(ArithmeticException.class, () -> h.operator.push(row("a", 1L)));
    h.operator.abortBatch(failing);

    // Across batches, in the merge.
    assertThrows(ArithmeticException.class, () -> h.runBatch(1, row("a", Long.MAX_VALUE)));
    h.operator.abortBatch(failing);

    assertRows(h.runBatch(1, row("a", 2L), row("b", 3L)), row("a", 2L, 3L), row("b", 1L, 3L));
  }

  @Test void shouldFormOwnGroupWhenGroupingKeyIsNull() {
    Harness h = new Harness(countAndSum(OutputMode.UPDATE, 1));

    assertRows(h.runBatch(row(null, 1.0), row("a", 2.0), row(null, 3.0)),
        row(null, 2L, 4.0), row("a", 1L, 2.0));
    assertRows(h.runBatch(row(null, 1.0)), row(null, 3L, 5.0));
  }

  @Test void shouldFormOwnGroupWhenOneOfTwoGroupingKeysIsNull() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0, 1},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG)),
        OutputMode.COMPLETE, 4);
    Harness h = new Harness(spec);

    h.runBatch(row("a", null), row(null, "a"), row(null, null), row("a", "a"), row("a", null));
    assertRows(h.runBatch(row(null, null)),
        row("a", null, 2L), row(null, "a", 1L), row(null, null, 2L), row("a", "a", 1L));
  }

  @Test void shouldFormOneGroupWhenKeysAreNegativeAndPositiveZero() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG)),
        OutputMode.UPDATE, 4);
    Harness h = new Harness(spec);

    // Row equality uses Double.equals, which tells -0.0 from 0.0: the key must come out as 0.0.
    assertRows(h.runBatch(row(-0.0), row(0.0), row(-0.0), row(1.0)), row(0.0, 3L), row(1.0, 1L));
    assertRows(h.runBatch(row(-0.0)), row(0.0, 4L));
    assertRows(h.runBatch(row(0.0)), row(0.0, 5L));
  }

  @Test void shouldFormOneGroupWhenCompositeKeysHaveNegativeAndPositiveZero() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0, 1},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 4);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", -0.0f), row("a", 0.0f), row("b", -0.0d)),
        row("a", 0.0f, 2L), row("b", 0.0d, 1L));
    assertRows(h.runBatch(row("a", -0.0f), row("b", 0.0d)), row("a", 0.0f, 3L), row("b", 0.0d, 2L));
  }

  @Test void shouldMatchSinglePartitionWhenStateHasFourPartitions() {
    long seed = Long.getLong("freshet.test.seed", System.nanoTime());
    for (OutputMode mode : List.of(OutputMode.UPDATE, OutputMode.COMPLETE)) {
      Random random = new Random(seed);
      Harness one = new Harness(mixedAggregates(mode, 1));
      Harness four = new Harness(mixedAggregates(mode, 4));
      Map<List<Object>, long[]> model = new HashMap<>();
      for (int batch = 0; batch < 20; batch++) {
        String where = "seed=" + seed + " (set -Dfreshet.test.seed), mode=" + mode
            + ", batchId=" + batch;
        Object[][] rows = new Object[random.nextInt(30)][];
        for (int i = 0; i < rows.length; i++) {
          String k1 = random.nextInt(8) == 0 ? null : "k" + random.nextInt(6);
          Integer k2 = random.nextInt(3);
          Long v = random.nextInt(6) == 0 ? null : (long) random.nextInt(200) - 100;
          rows[i] = row(k1, k2, v);
          long[] m = model.computeIfAbsent(Arrays.asList(k1, k2), k -> new long[] {0, 0, 0});
          m[0]++;
          if (v != null) {
            m[1]++;
            m[2] += v;
          }
        }
        List<List<Object>> expected = sorted(one.runBatch(rows));
        assertEquals(expected, sorted(four.runBatch(rows)), where);
        assertEquals(one.operator.metrics().numOutputRows(),
            four.operator.metrics().numOutputRows(), where);
        assertEquals(model.size(), four.operator.metrics().numTotalStateRows(), where);
        if (mode == OutputMode.COMPLETE) {
          assertEquals(model.size(), expected.size(), where);
          for (List<Object> r : expected) {
            long[] m = model.get(r.subList(0, 2));
            assertEquals(Arrays.asList(r.get(0), r.get(1), m[0], m[1], m[1] == 0 ? null : m[2]),
                r.subList(0, 5), where);
          }
        }
      }
      int used = 0;
      for (StateStoreProvider<Object, Object[]> p : four.providers) {
        StateStore<Object, Object[]> store = p.getStore(20);
        used += store.numKeys() > 0 ? 1 : 0;
        store.abort();
      }
      assertTrue(used > 1, "keys should spread over the partitions; seed=" + seed);
    }
  }

  @Test void shouldContinueFromPreviousVersionWhenBatchAbortedDuringFinish() {
    FailingOperator failing = new FailingOperator();
    StatefulAggregateSpec spec = countAndSum(OutputMode.UPDATE, 4);
    Harness h = new Harness(spec, failing);
    assertRows(h.runBatch(row("a", 1.0), row("b", 2.0), row("a", 3.0), row("c", 1.0)),
        row("a", 2L, 4.0), row("b", 1L, 2.0), row("c", 1L, 1.0));

    BatchContext batch1 = new BatchContext(1, 2000);
    h.operator.startBatch(batch1);
    for (String k : List.of("a", "b", "c", "d", "e", "f", "g", "h")) {
      h.operator.push(row(k, 100.0));
    }
    failing.failAfter = 2;
    RuntimeException e = assertThrows(RuntimeException.class, () -> h.operator.finishBatch(batch1));
    assertEquals("downstream failed", e.getMessage());
    h.operator.abortBatch(batch1);

    for (StateStoreProvider<Object, Object[]> p : h.providers) {
      assertThrows(StateStoreException.class, () -> p.getStore(2));
      p.getStore(1).abort();
    }
    assertRows(h.runBatch(1, row("a", 5.0)), row("a", 3L, 9.0));
    assertRows(h.runBatch(2, row("b", 5.0), row("d", 1.0)), row("b", 2L, 7.0), row("d", 1L, 1.0));
  }

  @Test void shouldContinueFromPreviousVersionWhenBatchAbortedBeforeFinish() {
    Harness h = new Harness(countAndSum(OutputMode.COMPLETE, 2));
    h.runBatch(row("a", 1.0));

    BatchContext batch1 = new BatchContext(1, 2000);
    h.operator.startBatch(batch1);
    h.operator.push(row("a", 100.0));
    h.operator.push(row("z", 100.0));
    h.operator.abortBatch(batch1);

    assertRows(h.runBatch(1, row("b", 2.0)), row("a", 1L, 1.0), row("b", 1L, 2.0));
  }

  @Test void shouldRejectAppendModeWithoutEventTimeKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Harness(countAndSum(OutputMode.APPEND, 1)));

    assertTrue(e.getMessage().contains("watermark"), e.getMessage());
    assertEquals(
        "Append output mode needs a watermark on a grouping column; this aggregation has none",
        e.getMessage());
  }

  @Test void shouldRejectPartitionsWhenCountDiffersFromSpec() {
    StatefulAggregateSpec spec = countAndSum(OutputMode.UPDATE, 2);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new StatefulAggregateOperator(spec, providers(3), new CollectOperator()));
    assertEquals("expected 2 state partitions, got 3", e.getMessage());
  }

  @Test void shouldCountAndSumDistinctValuesAcrossBatchesWhenUpdateMode() {
    Harness h = new Harness(countAndSumDistinct(OutputMode.UPDATE, 1));

    assertRows(h.runBatch(row("a", 1L), row("a", 1L), row("a", 2L), row("a", null),
            row("b", null)),
        row("a", 2L, 3L), row("b", 0L, null));
    // Values already seen leave the aggregates as they are, but the key was touched.
    assertRows(h.runBatch(row("a", 2L), row("a", 1L)), row("a", 2L, 3L));
    assertRows(h.runBatch(row("a", 3L), row("a", 2L), row("b", 1L), row("b", 1L)),
        row("a", 3L, 6L), row("b", 1L, 1L));
    assertMetrics(h.operator.metrics(), 2, 2, 2);
  }

  @Test void shouldEmitDistinctAggregatesOfEveryKeyWhenCompleteMode() {
    Harness h = new Harness(countAndSumDistinct(OutputMode.COMPLETE, 4));

    assertRows(h.runBatch(row("a", 5L), row("b", 5L), row("a", 5L)),
        row("a", 1L, 5L), row("b", 1L, 5L));
    assertRows(h.runBatch(row("a", 7L)), row("a", 2L, 12L), row("b", 1L, 5L));
    assertRows(h.runBatch(), row("a", 2L, 12L), row("b", 1L, 5L));
  }

  @Test void shouldLeaveSavedVersionsUnchangedWhenDistinctValuesAreAdded() {
    Harness h = new Harness(countAndSumDistinct(OutputMode.UPDATE, 1));
    h.runBatch(row("a", 1L), row("a", 2L));
    Object version1 = savedSet(h, 1, "a");
    h.runBatch(row("a", 2L));
    Object version2 = savedSet(h, 2, "a");
    h.runBatch(row("a", 3L));

    // State keeps sets; a set once saved still holds the values it was committed with.
    assertEquals(List.of(Set.of(1L, 2L), Set.of(1L, 2L), Set.of(1L, 2L, 3L)),
        List.of(version1, version2, savedSet(h, 3, "a")));
  }

  @Test void shouldContinueFromPreviousDistinctValuesWhenBatchAborted() {
    FailingOperator failing = new FailingOperator();
    Harness h = new Harness(countAndSumDistinct(OutputMode.UPDATE, 1), failing);
    assertRows(h.runBatch(row("a", 1L), row("b", 1L)), row("a", 1L, 1L), row("b", 1L, 1L));

    BatchContext batch1 = new BatchContext(1, 2000);
    h.operator.startBatch(batch1);
    h.operator.push(row("a", 10L));
    h.operator.push(row("b", 20L));
    failing.failAfter = 1;
    assertThrows(RuntimeException.class, () -> h.operator.finishBatch(batch1));
    h.operator.abortBatch(batch1);

    assertRows(h.runBatch(1, row("a", 2L), row("b", 1L)), row("a", 2L, 3L), row("b", 1L, 1L));
  }

  @Test void shouldTreatValuesThatSqlCallsEqualAsOneWhenDistinct() {
    // Input (k, d DOUBLE, m DECIMAL); COUNT(DISTINCT d), COUNT(DISTINCT m), SUM(DISTINCT m).
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(distinct(AggregateFunction.COUNT, 1, ValueKind.LONG),
            distinct(AggregateFunction.COUNT, 2, ValueKind.LONG),
            distinct(AggregateFunction.SUM, 2, ValueKind.DECIMAL)),
        List.of(distinct(AggregateFunction.COUNT, 1, ValueKind.LONG),
            distinct(AggregateFunction.COUNT, 2, ValueKind.LONG),
            distinct(AggregateFunction.SUM, 3, ValueKind.DECIMAL)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", -0.0, new BigDecimal("1.50")), row("a", 0.0,
            new BigDecimal("1.5")), row("a", 0.0, new BigDecimal("2.00"))),
        row("a", 1L, 2L, new BigDecimal("3.50")));
    assertRows(h.runBatch(row("a", -0.0, new BigDecimal("2")), row("a", 1.0,
            new BigDecimal("0.25"))),
        row("a", 2L, 3L, new BigDecimal("3.75")));
  }

  @Test void shouldSumDistinctIntegersIntoALongWhenArgumentIsInteger() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(distinct(AggregateFunction.SUM, 1, ValueKind.LONG),
            distinct(AggregateFunction.SUM, 2, ValueKind.DOUBLE)),
        List.of(distinct(AggregateFunction.SUM, 1, ValueKind.LONG),
            distinct(AggregateFunction.SUM, 2, ValueKind.DOUBLE)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", Integer.MAX_VALUE, 0.5), row("a", Integer.MAX_VALUE, 0.5),
            row("a", 1, 0.25)),
        row("a", Integer.MAX_VALUE + 1L, 0.75));
  }

  @Test void shouldMatchModelOfDistinctValuesWhenBatchesAreRandom() {
    long seed = Long.getLong("freshet.test.seed", System.nanoTime());
    for (OutputMode mode : List.of(OutputMode.UPDATE, OutputMode.COMPLETE)) {
      Random random = new Random(seed);
      Harness h = new Harness(countAndSumDistinct(mode, 4));
      Map<String, Set<Long>> model = new HashMap<>();
      for (int batch = 0; batch < 20; batch++) {
        String where = "seed=" + seed + " (set -Dfreshet.test.seed), mode=" + mode
            + ", batchId=" + batch;
        Object[][] rows = new Object[random.nextInt(30)][];
        Set<String> touched = new HashSet<>();
        for (int i = 0; i < rows.length; i++) {
          String k = "k" + random.nextInt(6);
          Long v = random.nextInt(6) == 0 ? null : (long) random.nextInt(20) - 10;
          rows[i] = row(k, v);
          touched.add(k);
          Set<Long> values = model.computeIfAbsent(k, key -> new HashSet<>());
          if (v != null) {
            values.add(v);
          }
        }
        List<Object[]> expected = new ArrayList<>();
        for (Map.Entry<String, Set<Long>> e : model.entrySet()) {
          if (mode == OutputMode.COMPLETE || touched.contains(e.getKey())) {
            Long sum = e.getValue().isEmpty() ? null
                : e.getValue().stream().mapToLong(Long::longValue).sum();
            expected.add(row(e.getKey(), (long) e.getValue().size(), sum));
          }
        }
        assertEquals(sorted(expected), sorted(h.runBatch(rows)), where);
      }
    }
  }

  @Test void shouldSkipRowsWhoseFilterIsNotTrueWhenCallHasFilter() {
    // Input (k, v BIGINT, big BOOLEAN): COUNT(*) FILTER (WHERE big), SUM(v) FILTER (WHERE big),
    // COUNT(DISTINCT v) FILTER (WHERE big), COUNT(*).
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG, false, 2),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG, false, 2),
            new AggregateCall(AggregateFunction.COUNT, 1, ValueKind.LONG, true, 2),
            new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG),
            distinct(AggregateFunction.COUNT, 3, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM0, 4, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", 1L, false), row("a", 2L, null), row("b", 3L, false)),
        row("a", 0L, null, 0L, 2L), row("b", 0L, null, 0L, 1L));
    assertRows(h.runBatch(row("a", 5L, true), row("a", 1L, false), row("a", 5L, true)),
        row("a", 2L, 10L, 1L, 5L));
  }

  @Test void shouldEmitTheGlobalRowEveryBatchWhenNoRowReachesAGlobalAggregate() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[0],
        COUNT_AND_SUM_PARTIAL,
        List.of(new AggregateCall(AggregateFunction.SUM0, 0, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.DOUBLE)),
        OutputMode.UPDATE, 4);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(), row(0L, null));
    assertRows(h.runBatch(row("a", 1.0), row("b", 2.0), row("c", 3.0)), row(3L, 6.0));
    // Not reset: the empty partial aggregate merges into the saved value.
    assertRows(h.runBatch(), row(3L, 6.0));
    assertMetrics(h.operator.metrics(), 1, 1, 1);
    assertRows(h.runBatch(row("d", 4.0)), row(4L, 10.0));
  }

  @Test void shouldEmitTheGlobalRowOnceWhenCompleteModeHasSeveralPartitions() {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[0],
        List.of(distinct(AggregateFunction.COUNT, 1, ValueKind.LONG)),
        List.of(distinct(AggregateFunction.COUNT, 0, ValueKind.LONG)),
        OutputMode.COMPLETE, 4);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(), row(0L));
    assertRows(h.runBatch(row("a", 1.0), row("b", 1.0)), row(1L));
    assertRows(h.runBatch(row("c", 2.0)), row(2L));
  }

  @Test void shouldEmitTouchedKeysWhenAggregateHasNoCalls() {
    // SELECT DISTINCT k: an aggregate without calls.
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0}, List.of(), List.of(),
        OutputMode.UPDATE, 2);
    Harness h = new Harness(spec);

    assertRows(h.runBatch(row("a", 1.0), row("b", 2.0), row("a", 3.0)), row("a"), row("b"));
    assertRows(h.runBatch(row("a", 1.0), row("c", 2.0)), row("a"), row("c"));
    assertMetrics(h.operator.metrics(), 2, 2, 3);
  }

  @Test void shouldRejectCallsThatDoNotFitWhenSpecIsCreated() {
    AggregateCall countDistinct = distinct(AggregateFunction.COUNT, 1, ValueKind.LONG);
    AggregateCall sumDistinct = distinct(AggregateFunction.SUM, 1, ValueKind.LONG);
    AggregateCall sum0 = new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG);
    AggregateCall filteredSum0 = new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG,
        false, 2);

    assertEquals("partial call COUNT(DISTINCT $1) and merge call SUM0($1) do not fit: a distinct"
            + " call merges with the same distinct function",
        assertThrows(IllegalArgumentException.class, () -> new StatefulAggregateSpec(0,
            new int[] {0}, List.of(countDistinct), List.of(sum0), OutputMode.UPDATE, 1))
            .getMessage());
    assertEquals("partial call COUNT(DISTINCT $1) and merge call SUM(DISTINCT $1) do not fit: a"
            + " distinct call merges with the same distinct function",
        assertThrows(IllegalArgumentException.class, () -> new StatefulAggregateSpec(0,
            new int[] {0}, List.of(countDistinct), List.of(sumDistinct), OutputMode.UPDATE, 1))
            .getMessage());
    assertEquals("merge call SUM0($1) FILTER $2 cannot have a filter: only input rows are filtered",
        assertThrows(IllegalArgumentException.class, () -> new StatefulAggregateSpec(0,
            new int[] {0}, List.of(sum0), List.of(filteredSum0), OutputMode.UPDATE, 1))
            .getMessage());
    assertEquals("MAX cannot be distinct", assertThrows(IllegalArgumentException.class,
        () -> distinct(AggregateFunction.MAX, 1, ValueKind.LONG)).getMessage());
    assertEquals("filterArg must be a column or -1: -2", assertThrows(
        IllegalArgumentException.class,
        () -> new AggregateCall(AggregateFunction.COUNT, 1, ValueKind.LONG, false, -2))
        .getMessage());
  }

  private static StatefulAggregateSpec countAndSum(OutputMode mode, int numPartitions) {
    return new StatefulAggregateSpec(0, new int[] {0}, COUNT_AND_SUM_PARTIAL, COUNT_AND_SUM_MERGE,
        mode, numPartitions);
  }

  /** Input (k, v BIGINT); GROUP BY k; COUNT(DISTINCT v), SUM(DISTINCT v). */
  private static StatefulAggregateSpec countAndSumDistinct(OutputMode mode, int numPartitions) {
    return new StatefulAggregateSpec(0, new int[] {0},
        List.of(distinct(AggregateFunction.COUNT, 1, ValueKind.LONG),
            distinct(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(distinct(AggregateFunction.COUNT, 1, ValueKind.LONG),
            distinct(AggregateFunction.SUM, 2, ValueKind.LONG)),
        mode, numPartitions);
  }

  private static AggregateCall distinct(AggregateFunction function, int arg, ValueKind kind) {
    return new AggregateCall(function, arg, kind, true, -1);
  }

  /** The set that state version {@code version} keeps for the first call of {@code key}. */
  private static Object savedSet(Harness h, long version, Object key) {
    return h.providers.get(0).getReadStore(version).get(key)[1];
  }

  /** Input (k1, k2, v BIGINT); GROUP BY k1, k2; COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v). */
  private static StatefulAggregateSpec mixedAggregates(OutputMode mode, int numPartitions) {
    return new StatefulAggregateSpec(0, new int[] {0, 1},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.COUNT, 2, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MIN, 2, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MAX, 2, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 2, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM0, 3, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 4, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MIN, 5, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MAX, 6, ValueKind.LONG)),
        mode, numPartitions);
  }

  private static List<StateStoreProvider<Object, Object[]>> providers(int n) {
    List<StateStoreProvider<Object, Object[]>> result = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      result.add(new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, p)));
    }
    return result;
  }

  private static Object[] row(Object... values) {
    return values;
  }

  private static void assertMetrics(AggregateMetrics m, long output, long updated, long total) {
    assertEquals(List.of(output, updated, total),
        List.of(m.numOutputRows(), m.numUpdatedStateRows(), m.numTotalStateRows()),
        "numOutputRows, numUpdatedStateRows, numTotalStateRows");
  }

  /** Asserts that {@code actual} holds exactly {@code expected}, in any order, duplicates counted. */
  private static void assertRows(List<Object[]> actual, Object[]... expected) {
    List<List<Object>> want = new ArrayList<>();
    for (Object[] r : expected) {
      want.add(Arrays.asList(r));
    }
    assertEquals(sortedLists(want), sorted(actual));
  }

  private static List<List<Object>> sorted(List<Object[]> rows) {
    List<List<Object>> lists = new ArrayList<>();
    for (Object[] r : rows) {
      lists.add(Arrays.asList(r));
    }
    return sortedLists(lists);
  }

  private static List<List<Object>> sortedLists(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(StatefulAggregateOperatorTest::describe));
    return copy;
  }

  /** A sort key that tells apart values whose {@code toString} agree (1 and 1L, 0.0 and -0.0). */
  private static String describe(List<Object> row) {
    StringBuilder b = new StringBuilder();
    for (Object v : row) {
      b.append(v == null ? "null" : v.getClass().getSimpleName() + ":" + v).append('|');
    }
    return b.toString();
  }

  /** Runs batches against fresh in-memory providers and collects the output. */
  private static final class Harness {
    final List<StateStoreProvider<Object, Object[]>> providers;
    final CollectOperator collect = new CollectOperator();
    final StatefulAggregateOperator operator;
    long nextBatchId;

    Harness(StatefulAggregateSpec spec) {
      this(spec, null);
    }

    Harness(StatefulAggregateSpec spec, FailingOperator failing) {
      providers = providers(spec.numPartitions());
      Operator downstream = collect;
      if (failing != null) {
        failing.downstream = collect;
        downstream = failing;
      }
      operator = new StatefulAggregateOperator(spec, providers, downstream);
    }

    List<Object[]> runBatch(Object[]... rows) {
      return runBatch(nextBatchId, rows);
    }

    List<Object[]> runBatch(long batchId, Object[]... rows) {
      return run(new BatchContext(batchId, 1000 * batchId), rows);
    }

    List<Object[]> run(BatchContext batch, Object[]... rows) {
      long batchId = batch.batchId();
      operator.startBatch(batch);
      for (Object[] r : rows) {
        operator.push(r);
      }
      operator.finishBatch(batch);
      nextBatchId = batchId + 1;
      return collect.takeRows();
    }
  }

  /** Passes rows on, but throws on the push after {@code failAfter} rows once armed. */
  private static final class FailingOperator implements Operator {
    Operator downstream;
    int failAfter = -1;

    @Override public void startBatch(BatchContext batch) {
      downstream.startBatch(batch);
    }

    @Override public void push(Object[] row) {
      if (failAfter == 0) {
        failAfter = -1;
        throw new IllegalStateException("downstream failed");
      }
      if (failAfter > 0) {
        failAfter--;
      }
      downstream.push(row);
    }

    @Override public void finishBatch(BatchContext batch) {
      downstream.finishBatch(batch);
    }

    @Override public void abortBatch(BatchContext batch) {
      downstream.abortBatch(batch);
    }
  }
}

package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.state.StateCodec;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tests an aggregation over a retracting input ({@link StatefulAggregateSpec#retracting()}),
 * driven through a {@link ChangelogInput} batch by batch: COUNT and SUM invert, MIN and MAX keep
 * a count per value, an emptied group is deleted.
 */
class RetractingAggregateTest {
  private static final Boolean ADD = ChangelogInput.ADD;
  private static final Boolean RETRACT = ChangelogInput.RETRACT;

  /** {@code SELECT k, COUNT(*), SUM(v), MIN(v), MAX(v) FROM (k VARCHAR, v BIGINT) GROUP BY k}. */
  private static StatefulAggregateSpec spec(OutputMode mode, boolean newKeyFlag) {
    return new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MIN, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MAX, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MIN, 3, ValueKind.LONG),
            new AggregateCall(AggregateFunction.MAX, 4, ValueKind.LONG)),
        mode, 2, null, newKeyFlag).withRetractingInput();
  }

  @Test void shouldFallBackToTheNextMinimumAndDeleteAnEmptiedGroup() {
    Harness h = new Harness(spec(OutputMode.UPDATE, true));
    assertRows(h.run(row("a", 3L, ADD), row("a", 5L, ADD), row("b", 7L, ADD)),
        row("a", 2L, 8L, 3L, 5L, true), row("b", 1L, 7L, 7L, 7L, true));
    // The minimum 3 is retracted: MIN falls back to 5.
    assertRows(h.run(row("a", 3L, RETRACT)), row("a", 1L, 5L, 5L, 5L, false));
    // b's last row goes: the group is deleted, its row as it was, with a null new-key flag.
    assertRows(h.run(row("b", 7L, RETRACT), row("a", 1L, ADD)),
        row("a", 2L, 6L, 1L, 5L, false), row("b", 1L, 7L, 7L, 7L, null));
    assertEquals(1, h.operator.metrics().numRemovedStateRows());
    // Added and taken back in one batch: no trace.
    assertRows(h.run(row("c", 2L, ADD), row("c", 2L, RETRACT)));
    assertEquals(1, h.operator.metrics().numTotalStateRows());
    // The maximum 5 goes, then the rest.
    assertRows(h.run(row("a", 5L, RETRACT)), row("a", 1L, 1L, 1L, 1L, false));
    assertRows(h.run(row("a", 1L, RETRACT)), row("a", 1L, 1L, 1L, 1L, null));
    assertEquals(0, h.operator.metrics().numTotalStateRows());
    // A group deleted comes back as new.
    assertRows(h.run(row("a", 9L, ADD)), row("a", 1L, 9L, 9L, 9L, true));
  }

  @Test void shouldKeepACountPerValueForDuplicatesAndNulls() {
    Harness h = new Harness(spec(OutputMode.UPDATE, false));
    h.run(row("a", 4L, ADD), row("a", 4L, ADD), row("a", null, ADD), row("a", 6L, ADD));
    // One of the two 4s goes: 4 is still the minimum.
    assertRows(h.run(row("a", 4L, RETRACT)), row("a", 3L, 10L, 4L, 6L));
    // The values go, the null row stays: SUM, MIN and MAX of no values are NULL, COUNT(*) is 1.
    assertRows(h.run(row("a", 4L, RETRACT), row("a", 6L, RETRACT)),
        row("a", 1L, null, null, null));
  }

  @Test void shouldMarkADeletedGroupWhenAskedForGroupChanges() {
    Harness h = new Harness(spec(OutputMode.UPDATE, true));
    h.operator.emitGroupChanges();
    assertRows(h.run(row("a", 3L, ADD)), row("a", 1L, 3L, 3L, 3L, true, GroupChange.NEW));
    assertRows(h.run(row("a", 3L, RETRACT)),
        row("a", 1L, 3L, 3L, 3L, null, GroupChange.DELETED));
  }

  @Test void shouldLeaveADeletedGroupOutOfTheCompleteResult() {
    Harness h = new Harness(spec(OutputMode.COMPLETE, false));
    h.run(row("a", 3L, ADD), row("b", 1L, ADD));
    assertRows(h.run(row("b", 1L, RETRACT)), row("a", 1L, 3L, 3L, 3L));
  }

  @Test void shouldKeepTheGlobalGroupWhenEverythingIsRetracted() {
    StatefulAggregateSpec global = new StatefulAggregateSpec(0, new int[0],
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 0, ValueKind.LONG)),
        OutputMode.UPDATE, 1, null, false).withRetractingInput();
    Harness h = new Harness(global);
    assertRows(h.run(row("a", 3L, ADD)), row(1L));
    assertRows(h.run(row("a", 3L, RETRACT)), row(0L));
  }

  @Test void shouldFailWhenARowIsRetractedThatWasNeverAdded() {
    Harness h = new Harness(spec(OutputMode.UPDATE, false));
    h.run(row("a", 3L, ADD));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> h.run(row("a", 4L, RETRACT), row("a", 5L, ADD)));
    assertEquals("a group retracted value 4 more often than it was given", e.getMessage());
  }

  @Test void shouldRefuseRetractionsWhenTheInputIsNotRetracting() {
    StatefulAggregateSpec appending = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    Harness h = new Harness(appending);
    assertThrows(UnsupportedOperationException.class, () -> h.run(row("a", 3L, RETRACT)));
    assertFalse(new StatefulAggregateOperator(spec(OutputMode.UPDATE, false),
        providers(2), new CollectOperator()).acceptsVectors(
            new dev.freshet.executor.vector.VectorType[] {
                dev.freshet.executor.vector.VectorType.LONG,
                dev.freshet.executor.vector.VectorType.LONG}));
  }

  @Test void shouldForwardARetractionThroughACalc() {
    Harness h = new Harness(spec(OutputMode.UPDATE, false));
    // A calc doubling v: its output of the retracted row is retracted.
    RowCalc doubled = (in, out) -> {
      out[0] = in[0];
      out[1] = in[1] == null ? null : (Long) in[1] * 2;
      return !"skip".equals(in[0]);
    };
    Operator head = new ChangelogInput(2, new CalcOperator(doubled, 2, h.operator));
    h.runThrough(head, row("a", 3L, ADD), row("a", 4L, ADD), row("skip", 1L, ADD));
    assertRows(h.runThrough(head, row("a", 3L, RETRACT), row("skip", 1L, RETRACT)),
        row("a", 1L, 8L, 8L, 8L));
  }

  @Test void shouldSaveValuesTheStateCodecReadsBack() throws IOException {
    Harness h = new Harness(spec(OutputMode.UPDATE, false));
    h.run(row("a", 3L, ADD), row("a", 3L, ADD), row("a", 5L, ADD), row("a", 5L, RETRACT));
    Object[] saved = h.providers.get(StatefulAggregateOperatorTestAccess.partitionOf(h, "a"))
        .getReadStore(1).get("a");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StateCodec.write(new DataOutputStream(bytes), saved);
    Object[] read = (Object[]) StateCodec.read(new DataInputStream(
        new ByteArrayInputStream(bytes.toByteArray())));
    assertEquals(Arrays.deepToString(saved), Arrays.deepToString(read));
    assertArrayEquals(new Object[] {"a", 2L, 6L, 3L, 3L},
        new AggregateRows(spec(OutputMode.UPDATE, false)).row("a", read));
  }

  /** Finds the partition of a key as the operator does. */
  private static final class StatefulAggregateOperatorTestAccess {
    static int partitionOf(Harness h, Object key) {
      return h.operator.partitionOf(key.hashCode());
    }
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

  private static void assertRows(List<Object[]> actual, Object[]... expected) {
    List<String> want = new ArrayList<>();
    for (Object[] r : expected) {
      want.add(describe(r));
    }
    List<String> got = new ArrayList<>();
    for (Object[] r : actual) {
      got.add(describe(r));
    }
    want.sort(Comparator.naturalOrder());
    got.sort(Comparator.naturalOrder());
    assertEquals(want, got);
  }

  /** Tells apart values whose {@code toString} agree (1 and 1L). */
  private static String describe(Object[] row) {
    StringBuilder b = new StringBuilder();
    for (Object v : row) {
      b.append(v == null ? "null" : v.getClass().getSimpleName() + ":" + v).append('|');
    }
    return b.toString();
  }

  /** Runs batches through a changelog input against fresh in-memory providers. */
  private static final class Harness {
    final List<StateStoreProvider<Object, Object[]>> providers;
    final CollectOperator collect = new CollectOperator();
    final StatefulAggregateOperator operator;
    final Operator input;
    long nextBatchId;

    Harness(StatefulAggregateSpec spec) {
      providers = providers(spec.numPartitions());
      operator = new StatefulAggregateOperator(spec, providers, collect);
      input = new ChangelogInput(2, operator);
    }

    List<Object[]> run(Object[]... rows) {
      return runThrough(input, rows);
    }

    List<Object[]> runThrough(Operator head, Object[]... rows) {
      BatchContext batch = new BatchContext(nextBatchId, 1000 * nextBatchId);
      head.startBatch(batch);
      try {
        for (Object[] r : rows) {
          head.push(r);
        }
        head.finishBatch(batch);
      } catch (RuntimeException e) {
        head.abortBatch(batch);
        throw e;
      }
      nextBatchId++;
      return collect.takeRows();
    }
  }
}

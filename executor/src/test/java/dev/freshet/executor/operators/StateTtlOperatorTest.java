package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The state TTL of {@link StatefulAggregateOperator} ({@link StateExpiry}): a group no batch
 * wrote for the TTL is dropped in the first batch at or after its expiry, by the batch's time;
 * a later row of it counts from 1; a rebuilt operator (a restart) expires the same groups.
 */
class StateTtlOperatorTest {
  /** {@code SELECT k, COUNT(*) FROM (k VARCHAR) GROUP BY k}. */
  private static final StatefulAggregateSpec COUNT = new StatefulAggregateSpec(0, new int[] {0},
      List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
      List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG)),
      OutputMode.UPDATE, 2);
  private static final long TTL = 1_500;

  private final List<StateStoreProvider<Object, Object[]>> providers = List.of(
      new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 0)),
      new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 1)));

  @Test void shouldDropAGroupNotWrittenForTheTtlAndCountItAfresh() {
    CollectOperator out = new CollectOperator();
    StatefulAggregateOperator op = operator(out);
    assertEquals(StateBound.BOUNDED_BY_TTL, op.stateBound());
    assertEquals(List.of(List.of("a", 1L), List.of("b", 1L)), run(op, out, 0, 1_000, "a", "b"));
    assertEquals(1_000 + TTL, op.nextExpiryMs());
    assertEquals(List.of(List.of("a", 2L)), run(op, out, 1, 2_000, "a"));
    // At 2,499 nothing has expired; at 2,500 b (written at 1,000) has, a (at 2,000) has not.
    run(op, out, 2, 2_499);
    assertEquals(new StateMetrics(0, 2, 0, 0, 0), op.stateMetrics());
    run(op, out, 3, 2_500);
    assertEquals(new StateMetrics(0, 1, 0, 1, 0), op.stateMetrics());
    assertEquals(2_000 + TTL, op.nextExpiryMs());
    assertEquals(List.of(List.of("a", 3L), List.of("b", 1L)), run(op, out, 4, 2_600, "b", "a"));
    run(op, out, 5, 10_000);
    assertEquals(new StateMetrics(0, 0, 0, 2, 0), op.stateMetrics());
    assertEquals(Long.MAX_VALUE, op.nextExpiryMs());
  }

  @Test void shouldEmitAnExpiredGroupAsDeletedToAView() {
    CollectOperator out = new CollectOperator();
    StatefulAggregateOperator op = operator(out).emitGroupChanges();
    assertEquals(List.of(List.of("a", 1L, GroupChange.NEW)), run(op, out, 0, 0, "a"));
    assertEquals(List.of(List.of("a", 1L, GroupChange.DELETED)), run(op, out, 1, TTL));
  }

  @Test void shouldCountARowOfAGroupThatExpiresInItsOwnBatchFromOne() {
    CollectOperator out = new CollectOperator();
    StatefulAggregateOperator op = operator(out).emitGroupChanges();
    run(op, out, 0, 0, "a", "a");
    // No batch ran between the group's expiry and its next row: the row still starts afresh,
    // and a view hears the old row leave before the new one comes.
    List<Object[]> rows = new ArrayList<>();
    BatchContext batch = new BatchContext(1, TTL + 5);
    op.startBatch(batch);
    op.push(new Object[] {"a"});
    op.finishBatch(batch);
    rows.addAll(out.takeRows());
    assertEquals(List.of(List.of("a", 2L, GroupChange.DELETED), List.of("a", 1L, GroupChange.NEW)),
        rows.stream().map(Arrays::asList).toList());
  }

  @Test void shouldExpireTheSameGroupsAfterARestart() {
    CollectOperator out = new CollectOperator();
    StatefulAggregateOperator op = operator(out);
    run(op, out, 0, 1_000, "a", "b");
    run(op, out, 1, 2_000, "a");
    // Restarted: a new operator on the committed state does not know its write times yet, so a
    // batch is due at once; it keeps a and b at 2,100, and expires b at 2,500 as the first did.
    CollectOperator restartedOut = new CollectOperator();
    StatefulAggregateOperator restarted = operator(restartedOut);
    assertEquals(Long.MIN_VALUE, restarted.nextExpiryMs());
    run(restarted, restartedOut, 2, 2_100);
    assertEquals(new StateMetrics(0, 2, 0, 0, 0), restarted.stateMetrics());
    assertEquals(1_000 + TTL, restarted.nextExpiryMs());
    run(restarted, restartedOut, 3, 2_500);
    assertEquals(new StateMetrics(0, 1, 0, 1, 0), restarted.stateMetrics());
    assertEquals(List.of(List.of("b", 1L)), run(restarted, restartedOut, 4, 2_600, "b"));
  }

  @Test void shouldExpireTheSameGroupsWhetherOrNotAnEarlierBatchScanned() {
    // The state a batch commits depends on its time and input, not on when the operator last
    // scanned: a run without the batch at 2,100 (nor a restart) commits the same at 2,500.
    List<StateStoreProvider<Object, Object[]>> fresh = List.of(
        new InMemoryStateStoreProvider<>(new StateStoreId("r", 0, 0)),
        new InMemoryStateStoreProvider<>(new StateStoreId("r", 0, 1)));
    CollectOperator out = new CollectOperator();
    StatefulAggregateOperator op = new StatefulAggregateOperator(COUNT, fresh, out);
    op.expireStateAfter(TTL);
    run(op, out, 0, 1_000, "a", "b");
    run(op, out, 1, 2_000, "a");
    run(op, out, 2, 2_500);
    assertEquals(new StateMetrics(0, 1, 0, 1, 0), op.stateMetrics());
    assertEquals(List.of(List.of("a", 3L)), run(op, out, 3, 2_600, "a"));
  }

  @Test void shouldScanOnlyWhenAKeyMayBeDue() {
    StateExpiry expiry = StateExpiry.after(100);
    assertEquals(true, expiry.due(0), "unknown state is scanned");
    expiry.scanned(Long.MAX_VALUE);
    assertEquals(false, expiry.due(1_000_000));
    assertEquals(Long.MAX_VALUE, expiry.nextExpiryMs());
    expiry.wrote(50);
    assertEquals(150, expiry.nextExpiryMs());
    assertEquals(false, expiry.due(149));
    assertEquals(true, expiry.due(150));
    expiry.forget();
    assertEquals(Long.MIN_VALUE, expiry.nextExpiryMs());
    assertEquals(Long.MAX_VALUE, StateExpiry.after(0).nextExpiryMs());
    assertEquals(false, StateExpiry.after(0).due(Long.MAX_VALUE / 2));
  }

  private StatefulAggregateOperator operator(Operator downstream) {
    StatefulAggregateOperator op = new StatefulAggregateOperator(COUNT, providers, downstream);
    op.expireStateAfter(TTL);
    return op;
  }

  /** Runs batch {@code id} at time {@code nowMs} over one row per key; returns its rows. */
  private static List<List<Object>> run(StatefulAggregateOperator op, CollectOperator out,
      long id, long nowMs, String... keys) {
    BatchContext batch = new BatchContext(id, nowMs);
    op.startBatch(batch);
    for (String key : keys) {
      op.push(new Object[] {key});
    }
    op.finishBatch(batch);
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : out.takeRows()) {
      rows.add(Arrays.asList(row));
    }
    rows.sort(Comparator.comparing(r -> (String) r.get(0)));
    return rows;
  }
}

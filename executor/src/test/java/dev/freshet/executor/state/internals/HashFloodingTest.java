package dev.freshet.executor.state.internals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.state.GroupKey;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys that share a {@code hashCode()} (hash flooding) cost the aggregation's hash tables work
 * linear in the keys, as any keys do: counted in probes, since a test cannot time work.
 */
class HashFloodingTest {
  /** Distinct keys in the batch. */
  private static final int KEYS = 100_000;
  /**
   * Probes allowed per key in the batch's partial aggregate, whose table is at most half full:
   * 100,000 ordinary distinct keys take about 1.7 each. Keys that collide take about KEYS / 2.
   */
  private static final int PARTIAL_PROBES_PER_KEY = 4;
  /**
   * The same for the state map, filled up to 0.75 of its slots, grown and trimmed on commit:
   * 100,000 ordinary distinct keys take about 6.2 each.
   */
  private static final int STATE_PROBES_PER_KEY = 8;

  @TempDir Path dir;

  /**
   * Key {@code i}: 17 two-character blocks, "Aa" or "BB" by the bits of {@code i}. "Aa" and "BB"
   * have the same {@code String.hashCode}, and so have all strings of such blocks of one length.
   */
  static String collidingKey(int i) {
    StringBuilder key = new StringBuilder(34);
    for (int bit = 0; bit < 17; bit++) {
      key.append((i >>> bit & 1) == 0 ? "Aa" : "BB");
    }
    return key.toString();
  }

  @Test void shouldMakeKeysThatShareOneHashCode() {
    int hash = collidingKey(0).hashCode();
    for (int i = 1; i < KEYS; i += 997) {
      assertEquals(hash, collidingKey(i).hashCode(), collidingKey(i));
    }
  }

  @Test void shouldProbeLinearlyWhenABatchOfKeysSharesOneStringHashCode() {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      rows.add(new Object[] {collidingKey(i), 1L});
    }
    aggregateIntoState(new int[] {0}, rows);
  }

  @Test void shouldProbeLinearlyWhenABatchOfCompositeKeysSharesOneHashCode() {
    // (s, n) with one String.hashCode for every s and one n: one Arrays.hashCode for all.
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      rows.add(new Object[] {collidingKey(i), 1L, 7});
    }
    assertEquals(GroupKey.of(collidingKey(0), 7).hashCode(),
        GroupKey.of(collidingKey(KEYS - 1), 7).hashCode());
    aggregateIntoState(new int[] {0, 2}, rows);
  }

  /**
   * Runs {@code SELECT keys, SUM(v) ... GROUP BY keys} over {@code rows} (v in column 1) as one
   * batch into a checkpointed state store, and checks the probes of the batch's partial
   * aggregate and of the state map it commits.
   */
  private void aggregateIntoState(int[] keys, List<Object[]> rows) {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, keys,
        List.of(new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM, keys.length, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    DeltaFileStateStoreProvider store = new DeltaFileStateStoreProvider(new StateStoreSpec(
        new StateStoreId("flood", 0, 0), dir, StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT,
        StateStoreSpec.DEFAULT_MIN_VERSIONS_TO_RETAIN));
    List<StateStoreProvider<Object, Object[]>> partitions = List.of(store);
    CollectOperator output = new CollectOperator();
    StatefulAggregateOperator aggregate =
        new StatefulAggregateOperator(spec, partitions, output);
    try {
      BatchContext batch = new BatchContext(0, 0);
      aggregate.startBatch(batch);
      for (Object[] row : rows) {
        aggregate.push(row);
      }
      aggregate.finishBatch(batch);

      assertEquals(KEYS, output.takeRows().size());
      assertEquals(KEYS, aggregate.metrics().numTotalStateRows());
      long partial = aggregate.metrics().partialAggregateProbes();
      assertTrue(partial <= (long) PARTIAL_PROBES_PER_KEY * KEYS,
          "partial aggregation probed " + partial + " slots for " + KEYS + " keys");
      long state = store.probesOfLatestVersion();
      assertTrue(state <= (long) STATE_PROBES_PER_KEY * KEYS,
          "the state map probed " + state + " slots for " + KEYS + " keys");
    } finally {
      aggregate.closeStores();
    }
  }
}

package dev.freshet.executor.operators.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.SortKey;
import dev.freshet.executor.operators.StateBound;
import dev.freshet.executor.operators.StateMetrics;
import dev.freshet.executor.operators.StatefulOperator;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.DeltaFileStateStoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state TTL of deduplication and top-N, batch by batch over delta files, by the batches'
 * times: a key (a group) not written for the TTL is forgotten, its next row starts afresh, and an
 * operator rebuilt on the same directory (a restart) expires on the same schedule.
 */
class RankStateTtlTest {
  private static final long TTL = 1_000;
  /** First row per k (k VARCHAR, v INTEGER), in arrival order, kept forever without a TTL. */
  private static final DeduplicateSpec FIRST =
      new DeduplicateSpec(0, new int[] {0}, -1, false, -1, -1, 0);
  /** The 2 largest v per k, COMPLETE mode. */
  private static final TopNSpec TOP2 = new TopNSpec(0, new int[] {0},
      List.of(new SortKey(1, true, false)), 2, OutputMode.COMPLETE, false);

  @TempDir Path dir;
  private final CollectOperator out = new CollectOperator();

  private DeltaFileStateStoreProvider provider() {
    return new DeltaFileStateStoreProvider(
        new StateStoreSpec(new StateStoreId("q", 0, 0), dir.resolve("state/0/0"), 10, 100));
  }

  private List<List<Object>> run(StatefulOperator op, long id, long nowMs, Object[]... rows) {
    BatchContext batch = new BatchContext(id, nowMs);
    op.startBatch(batch);
    for (Object[] row : rows) {
      op.push(row);
    }
    op.finishBatch(batch);
    List<List<Object>> emitted = new ArrayList<>();
    for (Object[] row : out.takeRows()) {
      emitted.add(Arrays.asList(row));
    }
    // The order of groups in a complete result is the store's.
    emitted.sort(java.util.Comparator.comparing((List<Object> r) -> (String) r.get(0))
        .thenComparing(r -> r.size() > 2 ? (Long) r.get(2) : 0L));
    return emitted;
  }

  private static Object[] row(String k, int v) {
    return new Object[] {k, v};
  }

  @Test void shouldForgetADeduplicationKeyAfterTheTtlEvenAcrossARestart() {
    StreamDeduplicateOperator dedup = new StreamDeduplicateOperator(FIRST, provider(), out);
    assertEquals(StateBound.UNBOUNDED, dedup.stateBound());
    dedup.expireStateAfter(TTL);
    assertEquals(StateBound.BOUNDED_BY_TTL, dedup.stateBound());
    assertEquals(List.of(List.of("a", 1)), run(dedup, 0, 1_000, row("a", 1)));
    // A duplicate does not renew the key (Flink's keep-first-row deduplication).
    assertEquals(List.of(List.of("b", 1)), run(dedup, 1, 1_500, row("a", 2), row("b", 1)));
    dedup.closeStores();

    StreamDeduplicateOperator restarted = new StreamDeduplicateOperator(FIRST, provider(), out);
    restarted.expireStateAfter(TTL);
    assertEquals(Long.MIN_VALUE, restarted.nextExpiryMs());
    // At 2,000 a (kept at 1,000) has expired, b (kept at 1,500) has not.
    assertEquals(List.of(List.of("a", 3)), run(restarted, 2, 2_000, row("a", 3), row("b", 2)));
    assertEquals(new StateMetrics(1, 2, 1, 1, 0), restarted.stateMetrics());
    assertEquals(2_500, restarted.nextExpiryMs());
    run(restarted, 3, 3_000);
    assertEquals(new StateMetrics(0, 0, 0, 2, 0), restarted.stateMetrics());
    restarted.closeStores();
  }

  @Test void shouldDropATopNGroupNotWrittenForTheTtlEvenAcrossARestart() {
    StreamTopNOperator topN = new StreamTopNOperator(TOP2, provider(), out);
    topN.expireStateAfter(TTL);
    assertEquals(List.of(List.of("a", 3, 1L), List.of("a", 1, 2L)),
        run(topN, 0, 1_000, row("a", 1), row("a", 3)));
    assertEquals(List.of(List.of("a", 3, 1L), List.of("a", 1, 2L), List.of("b", 5, 1L)),
        run(topN, 1, 1_500, row("b", 5)));
    topN.closeStores();

    StreamTopNOperator restarted = new StreamTopNOperator(TOP2, provider(), out);
    restarted.expireStateAfter(TTL);
    // Group a expires at 2,000 and leaves the complete result; a new row of it ranks alone.
    assertEquals(List.of(List.of("b", 5, 1L)), run(restarted, 2, 2_000));
    assertEquals(List.of(List.of("a", 0, 1L), List.of("b", 5, 1L)),
        run(restarted, 3, 2_100, row("a", 0)));
    assertEquals(List.of(List.of("a", 0, 1L)), run(restarted, 4, 2_500));
    restarted.closeStores();
  }
}

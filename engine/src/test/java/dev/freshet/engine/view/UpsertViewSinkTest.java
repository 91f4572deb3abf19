package dev.freshet.engine.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.CommittedMapStateStoreProvider;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The result of a view another engine runs in UPDATE or COMPLETE mode: keyed rows upserted per
 * batch, a group HAVING rejects removed, a batch delivered again applied once, a batch beyond the
 * next refused; subscribers get each batch's changes once with their kinds.
 */
class UpsertViewSinkTest {
  private final StateStoreProvider<Object, Object[]> store = new CommittedMapStateStoreProvider(
      new StateStoreSpec(new StateStoreId("q", 0, 0), Path.of("memory"),
          StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, 5));

  /** {@code SELECT COUNT(*) AS n FROM s GROUP BY k [HAVING ...]}: rows [n, k, admitted]. */
  private StateViewResult result() {
    return StateViewResult.open("V", List.of(store), GroupRows.SAVED_ROW, 1, -1, null, null,
        Long.MAX_VALUE);
  }

  @Test void shouldUpsertEachGroupAndRemoveOneThatHavingRejects() throws Exception {
    StateViewResult result = result();
    UpsertViewSink sink = new UpsertViewSink("V", result, store, 1, false);
    List<String> seen = new ArrayList<>();
    result.subscribe(-1, (batchId, changes) -> changes.forEach(c -> seen.add(describe(c))));

    sink.addBatch(0, List.<Object[]>of(row(1L, "a", true), row(2L, "b", true)));
    sink.addBatch(1, List.<Object[]>of(row(3L, "a", true), row(5L, "b", false)));
    // Delivered again after a failure: applied already, nothing changes, nobody hears of it.
    sink.addBatch(1, List.<Object[]>of(row(99L, "a", true)));
    // Unchanged row: no change for subscribers.
    sink.addBatch(2, List.<Object[]>of(row(3L, "a", true)));

    assertEquals(2, result.batchId());
    assertEquals(Map.of("a", 3L), rows(result));
    assertEquals(List.of("0 INSERT [1]", "0 INSERT [2]", "1 UPDATE [3]", "1 DELETE [2]"), seen);
  }

  @Test void shouldDropTheGroupsACompleteBatchLeavesOut() throws Exception {
    StateViewResult result = result();
    UpsertViewSink sink = new UpsertViewSink("V", result, store, 1, true);
    sink.addBatch(0, List.<Object[]>of(row(1L, "a", true), row(2L, "b", true)));
    sink.addBatch(1, List.<Object[]>of(row(4L, "b", true)));
    assertEquals(Map.of("b", 4L), rows(result));
  }

  @Test void shouldKeyByAllKeyColumnsAndTheNullGroup() throws Exception {
    StateViewResult result = result();
    UpsertViewSink sink = new UpsertViewSink("V", result, store, 1, false);
    sink.addBatch(0, List.<Object[]>of(new Object[] {1L, "a", 1, true}, new Object[] {2L, "a", 2, true},
        new Object[] {3L, null, true}));
    sink.addBatch(1, List.<Object[]>of(new Object[] {5L, "a", 2, true}));
    List<Long> counts = new ArrayList<>(rows(result).values());
    counts.sort(null);
    assertEquals(List.of(1L, 3L, 5L), counts);
  }

  @Test void shouldRefuseABatchBeyondTheNextAndChangeNothing() throws Exception {
    StateViewResult result = result();
    UpsertViewSink sink = new UpsertViewSink("V", result, store, 1, false);
    sink.addBatch(0, List.<Object[]>of(row(1L, "a", true)));
    SQLException e = assertThrows(SQLException.class,
        () -> sink.addBatch(2, List.<Object[]>of(row(7L, "a", true))));
    assertEquals("55000", e.getSQLState());
    assertTrue(e.getMessage().contains("applied its batches up to 0, but its engine delivered"
        + " batch 2"), e.getMessage());
    assertEquals(Map.of("a", 1L), rows(result));
  }

  @Test void shouldResumeAfterTheLastBatchItAppliedWhenOpenedAgain() throws Exception {
    UpsertViewSink sink = new UpsertViewSink("V", result(), store, 1, false);
    sink.addBatch(0, List.<Object[]>of(row(1L, "a", true)));
    sink.addBatch(1, List.<Object[]>of(row(2L, "a", true)));
    // The engine restarts: a result opened over the same store shows batch 1.
    StateViewResult reopened = result();
    assertEquals(1, reopened.batchId());
    UpsertViewSink again = new UpsertViewSink("V", reopened, store, 1, false);
    again.addBatch(1, List.<Object[]>of(row(2L, "a", true)));
    again.addBatch(2, List.<Object[]>of(row(3L, "a", true)));
    assertEquals(Map.of("a", 3L), rows(reopened));
  }

  private static Object[] row(long n, String key, boolean admitted) {
    return new Object[] {n, key, admitted};
  }

  private static String describe(Object[] change) {
    return change[1] + " " + change[2] + " " + Arrays.toString(Arrays.copyOf(change, 1));
  }

  /** The view's rows by key column (its only visible column is n; the key is in the state). */
  private static Map<String, Long> rows(StateViewResult result) throws SQLException {
    Map<String, Long> rows = new TreeMap<>();
    ViewVersion v = result.pin();
    try {
      for (int p = 0; p < v.partitions(); p++) {
        for (Map.Entry<Object, Object[]> e : v.partition(p).entries()) {
          rows.put(String.valueOf(e.getKey()), (Long) e.getValue()[0]);
        }
      }
    } finally {
      v.release();
    }
    return rows;
  }

}

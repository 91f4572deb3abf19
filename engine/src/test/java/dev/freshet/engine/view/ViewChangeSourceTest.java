package dev.freshet.engine.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.RowErrors;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.state.StateStore;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.StateStoreSpec;
import dev.freshet.executor.state.internals.CommittedMapStateStoreProvider;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * The source of an UPDATE view's changes that a continuous query over the view reads: offsets
 * are the view's state versions; a range is the rows taken back and added; a version's changes
 * that the state no longer keeps are compared from the version the source pinned, or fail the
 * reader, never skipped.
 */
class ViewChangeSourceTest {
  /** {@code SELECT k, COUNT(*) AS n FROM s GROUP BY k}: the state is {@code [k, n]}. */
  private static final StatefulAggregateSpec SPEC = new StatefulAggregateSpec(0, new int[] {0},
      List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
      List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG)),
      OutputMode.UPDATE, 1);

  private final StateStoreProvider<Object, Object[]> state = new CommittedMapStateStoreProvider(
      new StateStoreSpec(new StateStoreId("q", 0, 0), Path.of("memory"),
          StateStoreSpec.DEFAULT_MIN_DELTAS_FOR_SNAPSHOT, 2));
  private final StateViewResult view = StateViewResult.open("V", List.of(state),
      new ViewFinalizer(SPEC, List.of(), 2, RowErrors.failing()), 2, 0, SqlTypeName.VARCHAR,
      null, Long.MAX_VALUE);
  private long nextBatch;

  @Test void shouldReadTheRowsOfAVersionThenTheChangesOfEachLaterOne() {
    commit(Map.of("a", 1L, "b", 1L));
    Source source = view.newChangeSource().orElseThrow();
    assertEquals(1, source.latestOffset());
    assertEquals(List.of("[a, 1, false]", "[b, 1, false]"), read(source, 0, 1));
    commit(Map.of("a", 2L));
    commit(Map.of("c", 1L));
    assertEquals(3, source.latestOffset());
    // a's old row is taken back, its new one added; c is new.
    assertEquals(List.of("[a, 1, true]", "[a, 2, false]", "[c, 1, false]"),
        read(source, 1, 3));
    // The same range again (a batch re-run after a crash): the same rows.
    assertEquals(List.of("[a, 1, true]", "[a, 2, false]", "[c, 1, false]"),
        read(source, 1, 3));
  }

  @Test void shouldCompareWithThePinnedVersionWhenTheChangesAreNoLongerKept() {
    commit(Map.of("a", 1L, "b", 1L));
    Source source = view.newChangeSource().orElseThrow();
    read(source, 0, 1);
    // Four more versions: the state keeps the changes of the last two only.
    commit(Map.of("a", 2L));
    commit(Map.of("a", 3L));
    commit(Map.of("b", 2L));
    commit(Map.of("c", 1L));
    assertEquals(List.of("[a, 1, true]", "[a, 3, false]", "[b, 1, true]", "[b, 2, false]",
        "[c, 1, false]"), read(source, 1, 5));
  }

  @Test void shouldFailWhenNeitherTheChangesNorThePinnedVersionAreThere() {
    commit(Map.of("a", 1L));
    commit(Map.of("a", 2L));
    commit(Map.of("a", 3L));
    commit(Map.of("a", 4L));
    // A reader restarted after offset 1, whose pin went with its engine.
    Source source = view.newChangeSource().orElseThrow();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> read(source, 1, 4));
    SQLException cause = (SQLException) e.getCause();
    assertEquals("55000", cause.getSQLState());
    assertEquals("Materialized view V no longer keeps its changes after version 0, which a"
        + " continuous query reading it has not read yet. Drop that query's view (or stop the"
        + " query) and create it again to read V from its current rows, and keep more versions"
        + " with SET 'min.batches.to.retain' so that a reader that falls behind can catch up",
        cause.getMessage());
  }

  @Test void shouldTellItsReaderWhenTheViewPublishes() throws Exception {
    Source source = view.newChangeSource().orElseThrow();
    int[] calls = new int[1];
    try (AutoCloseable registration = source.onNewData(() -> calls[0]++)) {
      commit(Map.of("a", 1L));
      assertEquals(1, calls[0]);
    }
    commit(Map.of("a", 2L));
    assertEquals(1, calls[0]);
  }

  /** Commits the next batch, setting each group's count, and publishes it. */
  private void commit(Map<String, Long> counts) {
    StateStore<Object, Object[]> store = state.getStore(nextBatch);
    counts.forEach((k, n) -> store.put(k, new Object[] {k, n}));
    store.commit();
    view.publish(nextBatch, List.of(), List.of(), List.of());
    view.publishStaged();
    nextBatch++;
  }

  /** The rows of offsets {@code (start, end]}, as text, sorted. */
  private static List<String> read(Source source, long start, long end) {
    List<String> rows = new ArrayList<>();
    // The last element is the marker: true (ChangelogInput.RETRACT) takes a row back.
    source.readRange(start, end, row -> rows.add(Arrays.toString(row)));
    rows.sort(Comparator.naturalOrder());
    return rows;
  }
}

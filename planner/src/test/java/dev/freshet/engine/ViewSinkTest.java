package dev.freshet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.freshet.executor.runtime.OutputMode;
import dev.freshet.planner.catalog.ViewSnapshot;
import dev.freshet.planner.catalog.ViewTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** How each output mode folds batches into a view's published snapshots. */
class ViewSinkTest {
  private static ViewTable view(OutputMode mode) {
    JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    return new ViewTable("V", RelDataTypeImpl.proto(types.builder()
        .add("K", SqlTypeName.VARCHAR).add("N", SqlTypeName.BIGINT).build()), mode, "q", "sql",
        List.of("S"));
  }

  private static List<List<Object>> rows(ViewSnapshot snapshot) {
    return snapshot.rows().stream().map(Arrays::asList).toList();
  }

  private static List<Object[]> batch(Object[]... rows) {
    return new ArrayList<>(List.of(rows));
  }

  @Test void shouldUpsertByTheHiddenKeyAndDropIt() {
    ViewTable view = view(OutputMode.UPDATE);
    // Rows are (visible k, n, hidden key): two groups look alike once upper-cased.
    ViewSink sink = ViewSink.upsert(view, 2, new int[] {2});
    sink.addBatch(0, batch(new Object[] {"A", 1L, "a"}, new Object[] {"A", 1L, "A"}));
    ViewSnapshot first = view.snapshot();
    sink.addBatch(1, batch(new Object[] {"A", 2L, "a"}));
    assertEquals(List.of(List.of("A", 2L), List.of("A", 1L)), rows(view.snapshot()));
    assertEquals(1, view.snapshot().batchId());
    // A published snapshot never changes.
    assertEquals(List.of(List.of("A", 1L), List.of("A", 1L)), rows(first));
    assertEquals(0, first.batchId());
  }

  @Test void shouldReplaceTheResultInCompleteMode() {
    ViewTable view = view(OutputMode.COMPLETE);
    ViewSink sink = ViewSink.replace(view);
    sink.addBatch(0, batch(new Object[] {"a", 1L}, new Object[] {"b", 1L}));
    sink.addBatch(1, batch(new Object[] {"a", 2L}));
    assertEquals(List.of(List.of("a", 2L)), rows(view.snapshot()));
  }

  @Test void shouldAppendWithoutChangingEarlierSnapshotsWhenTheArrayGrows() {
    ViewTable view = view(OutputMode.APPEND);
    ViewSink sink = ViewSink.append(view);
    List<ViewSnapshot> snapshots = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (int b = 0; b < 40; b++) {
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < b % 5; i++) {
        rows.add(new Object[] {"k" + b, (long) i});
        expected.add(List.of("k" + b, (long) i));
      }
      sink.addBatch(b, rows);
      snapshots.add(view.snapshot());
      assertEquals(expected, rows(view.snapshot()), "batch " + b);
    }
    int size = 0;
    for (int b = 0; b < 40; b++) {
      size += b % 5;
      assertEquals(expected.subList(0, size), rows(snapshots.get(b)), "snapshot of batch " + b);
    }
    assertThrows(UnsupportedOperationException.class,
        () -> view.snapshot().rows().add(new Object[0]));
  }

  /** A batch re-run after a crash reaches the sink again; exactly once means it is skipped. */
  @Test void shouldIgnoreABatchItHasAlready() {
    ViewTable view = view(OutputMode.APPEND);
    ViewSink sink = ViewSink.append(view);
    sink.addBatch(3, batch(new Object[] {"a", 1L}));
    sink.addBatch(3, batch(new Object[] {"a", 1L}));
    sink.addBatch(2, batch(new Object[] {"b", 1L}));
    assertEquals(3, view.snapshot().batchId());
    assertEquals(1, view.snapshot().rows().size());
  }
}

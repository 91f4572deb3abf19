package dev.freshet.engine.push;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PushQuery}'s UPSERT buffer, fed batch by batch and read row by row on one thread: what
 * coalesces and what a reader that has begun a batch keeps.
 */
class PushQueryTest {
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach void stopScheduler() {
    scheduler.shutdownNow();
  }

  /** Rows as the aggregation emits them: (k, c, group key, new-key flag). */
  private final PushQuery push =
      new PushQuery(new PushPolicy.Upsert(new int[] {2}, 3), 2, false, scheduler);

  private static List<Object[]> batch(long count, boolean newKeys, String... keys) {
    List<Object[]> rows = new ArrayList<>();
    for (String k : keys) {
      rows.add(new Object[] {k, count, k, newKeys});
    }
    return rows;
  }

  private List<List<Object>> read(int n) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(List.of(push.next(Duration.ofSeconds(5))));
    }
    return rows;
  }

  @Test void shouldCoalesceABatchTheReaderHasNotBegun() throws SQLException {
    push.sink().addBatch(1, batch(1, true, "a", "b"));
    push.sink().addBatch(2, batch(2, false, "a", "b"));
    // Never read: each group's latest row, still new to the reader.
    assertEquals(List.of(List.of("a", 2L, 2L, "INSERT"), List.of("b", 2L, 2L, "INSERT")),
        read(2));
  }

  @Test void shouldFinishABatchTheReaderHasBegunBeforeLaterChanges() throws SQLException {
    push.sink().addBatch(1, batch(1, true, "a", "b", "c"));
    assertEquals(List.of(List.of("a", 1L, 1L, "INSERT")), read(1));
    push.sink().addBatch(2, batch(2, false, "a", "b", "c"));
    // b and c of batch 1 are read as batch 1 had them, then batch 2 whole.
    assertEquals(List.of(List.of("b", 1L, 1L, "INSERT"), List.of("c", 1L, 1L, "INSERT"),
        List.of("a", 2L, 2L, "UPDATE"), List.of("b", 2L, 2L, "UPDATE"),
        List.of("c", 2L, 2L, "UPDATE")), read(5));
  }

  /**
   * A view hands the same change rows to each of its subscribers; each reader gets the kind's
   * text in a row of its own, and the view's row keeps its {@link RowKind}.
   */
  @Test void shouldHandEachSubscriberOfAViewItsOwnRows() throws SQLException {
    PushQuery first = new PushQuery(new PushPolicy.Changes(100), 1, false, scheduler);
    PushQuery second = new PushQuery(new PushPolicy.Changes(100), 1, false, scheduler);
    Object[] change = {"a", 7L, RowKind.DELETE};
    first.sink().addBatch(7, List.<Object[]>of(change));
    second.sink().addBatch(7, List.<Object[]>of(change));
    assertEquals(List.of("a", 7L, "DELETE"), List.of(first.next(Duration.ofSeconds(5))));
    assertEquals(List.of("a", 7L, "DELETE"), List.of(second.next(Duration.ofSeconds(5))));
    assertEquals(RowKind.DELETE, change[2]);
  }

  /** A COMPLETE result's rows are compared by kind, and read with the kind's text. */
  @Test void shouldDeleteTheGroupsATableNoLongerHas() throws SQLException {
    PushQuery table = new PushQuery(new PushPolicy.Table(new int[] {0}), 2, true, scheduler);
    table.sink().addBatch(1, List.of(new Object[] {"a", 1L}, new Object[] {"b", 1L}));
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      rows.add(java.util.Arrays.asList(table.next(Duration.ofSeconds(5))));
    }
    table.sink().addBatch(2, List.<Object[]>of(new Object[] {"b", 2L}));
    for (int i = 0; i < 3; i++) {
      rows.add(java.util.Arrays.asList(table.next(Duration.ofSeconds(5))));
    }
    assertEquals(List.of(List.of("a", 1L, 1L, "INSERT"), List.of("b", 1L, 1L, "INSERT"),
        java.util.Arrays.asList(null, null, 1L, "BATCH_END"),
        List.of("a", 1L, 2L, "DELETE"), List.of("b", 2L, 2L, "UPDATE"),
        java.util.Arrays.asList(null, null, 2L, "BATCH_END")), rows);
  }
}

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
}

package dev.freshet.spark.cluster;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.sql.Row;

/**
 * The driver-side end of an APPEND-mode query: keeps every row of each batch id once (a batch
 * Spark re-runs after a failure arrives again with the same id and is skipped), timestamps as
 * UTC {@link LocalDateTime}s.
 *
 * <pre>{@code
 * RowsCollector windows = new RowsCollector();
 * SparkContinuousQuery.start(query, checkpoint, windows::apply);
 * windows.await(rows -> rows.size() == 3, Duration.ofSeconds(60));
 * }</pre>
 */
final class RowsCollector {
  private final List<List<Object>> rows = new ArrayList<>();
  private long lastApplied = -1;

  /** Appends the rows of batch {@code batchId} unless that batch was applied. */
  synchronized void apply(long batchId, List<Row> batch) {
    if (batchId <= lastApplied) {
      return;
    }
    for (Row row : batch) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < row.length(); i++) {
        Object v = row.get(i);
        values.add(v instanceof Timestamp t
            ? LocalDateTime.ofInstant(t.toInstant(), ZoneOffset.UTC) : v);
      }
      rows.add(values);
    }
    lastApplied = batchId;
    notifyAll();
  }

  /** Waits until the rows satisfy {@code condition}, and returns them; fails at the deadline. */
  synchronized List<List<Object>> await(Predicate<List<List<Object>>> condition,
      Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.test(rows)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("after " + timeout + " and batch " + lastApplied
            + " the rows are " + rows);
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return List.copyOf(rows);
  }
}

package dev.freshet.spark.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.spark.sql.Row;

/**
 * The driver-side end of an UPDATE-mode {@code GROUP BY key COUNT(*)}: foreachBatch hands it each
 * batch's rows and id, and it applies a batch id at most once, so a batch Spark re-runs after a
 * failure (same id, same offsets) does not count twice.
 *
 * <pre>{@code
 * CountsCollector counts = new CountsCollector();
 * stream.writeStream().foreachBatch((batch, id) -> counts.apply(id, batch.collectAsList()));
 * counts.await(c -> c.equals(expected), Duration.ofSeconds(60));
 * }</pre>
 */
final class CountsCollector {
  private final Map<String, Long> counts = new HashMap<>();
  private long lastApplied = -1;
  private int replaysSkipped;

  /** Applies the rows (key, count) of batch {@code batchId} unless that batch was applied. */
  synchronized void apply(long batchId, List<Row> rows) {
    if (batchId <= lastApplied) {
      replaysSkipped++;
      return;
    }
    for (Row row : rows) {
      counts.put(row.getString(0), row.getLong(1)); // UPDATE mode: a key's new total
    }
    lastApplied = batchId;
    notifyAll();
  }

  synchronized long lastApplied() {
    return lastApplied;
  }

  synchronized int replaysSkipped() {
    return replaysSkipped;
  }

  synchronized Map<String, Long> counts() {
    return Map.copyOf(counts);
  }

  /** Waits until the counts satisfy {@code condition}, and returns them; fails at the deadline. */
  synchronized Map<String, Long> await(Predicate<Map<String, Long>> condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.test(counts)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("after " + timeout + " and batch " + lastApplied
            + " the counts are " + counts);
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return Map.copyOf(counts);
  }

  /** Waits until a batch after {@code batchId} was applied; fails at the deadline. */
  synchronized long awaitBatchAfter(long batchId, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (lastApplied <= batchId) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("no batch after " + batchId + " within " + timeout);
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return lastApplied;
  }
}

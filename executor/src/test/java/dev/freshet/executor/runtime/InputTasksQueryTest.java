package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.SequenceSource;
import dev.freshet.executor.source.SequenceSpec;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MicroBatchExecution} reading a batch as one slice of offsets per input task: each task's
 * copy of the pipeline gets exactly its slice, the aggregate is that of the whole batch, small
 * batches stay on the batch thread, and a task's failure fails the batch without a commit.
 */
class InputTasksQueryTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final long KEYS = 7;

  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  /** Per batch, the rows the sink received: key, COUNT(*), SUM(n). */
  private final List<List<Object[]>> sunk = new ArrayList<>();
  private MicroBatchExecution query;

  @AfterEach void stop() {
    if (query != null) {
      query.stop();
    }
    pool.shutdownNow();
  }

  /** Passes rows on and counts them; fails on the row whose value is {@code failAt}. */
  private static final class Counting implements Operator {
    private final Operator downstream;
    private final long failAt;
    final AtomicLong rows = new AtomicLong();

    Counting(Operator downstream, long failAt) {
      this.downstream = downstream;
      this.failAt = failAt;
    }

    @Override public void startBatch(BatchContext batch) {
      downstream.startBatch(batch);
    }

    @Override public void push(Object[] row) {
      long n = (Long) row[0];
      if (n == failAt) {
        throw new IllegalStateException("row " + n + " is bad");
      }
      rows.incrementAndGet();
      // Key n % KEYS, then n.
      downstream.push(new Object[] {n % KEYS, n});
    }

    @Override public void finishBatch(BatchContext batch) {
      downstream.finishBatch(batch);
    }

    @Override public void abortBatch(BatchContext batch) {
      downstream.abortBatch(batch);
    }
  }

  private Counting head;
  private Counting task1;

  /** Starts {@code SELECT n % 7, COUNT(*), SUM(n) GROUP BY n % 7} with two input tasks. */
  private void start(Source source, long failAt) {
    CollectOperator output = new CollectOperator();
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.LONG)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.LONG)),
        OutputMode.UPDATE, 1);
    StatefulAggregateOperator aggregate = new StatefulAggregateOperator(spec,
        List.of(new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 0))), output, pool, 2);
    head = new Counting(aggregate, failAt);
    task1 = new Counting(aggregate.inputTask(1), failAt);
    StreamingPipeline pipeline = new StreamingPipeline(source, head, output, List.of(),
        List.of(aggregate), List.of(task1), pool);
    assertEquals(2, pipeline.inputTasks());
    query = MicroBatchExecution.builder("q", "tasks", pipeline, (batchId, rows) -> {
      synchronized (sunk) {
        sunk.add(rows);
      }
    }).trigger(Trigger.AVAILABLE_NOW).build();
    query.start();
  }

  /** The totals per key after every batch the sink received: COUNT(*) and SUM(n). */
  private Map<Long, List<Long>> totals() {
    Map<Long, List<Long>> totals = new TreeMap<>();
    synchronized (sunk) {
      for (List<Object[]> batch : sunk) {
        for (Object[] row : batch) {
          totals.put((Long) row[0], List.of((Long) row[1], (Long) row[2]));
        }
      }
    }
    return totals;
  }

  /** COUNT(*) and SUM(n) per {@code n % 7} over rows {@code 0..rows-1}. */
  private static Map<Long, List<Long>> expected(long rows) {
    Map<Long, List<Long>> expected = new TreeMap<>();
    for (long k = 0; k < KEYS; k++) {
      long count = 0;
      long sum = 0;
      for (long n = k; n < rows; n += KEYS) {
        count++;
        sum += n;
      }
      expected.put(k, List.of(count, sum));
    }
    return expected;
  }

  @Test void shouldReadEachBatchAsOneSlicePerTask() throws Exception {
    start(new SequenceSource(SequenceSpec.bounded("NUMS", 300_001).withRowsPerBatch(100_000)),
        -1);
    assertTrue(query.awaitTermination(TIMEOUT));
    assertFalse(query.exception().isPresent());
    assertEquals(expected(300_001), totals());
    // Batches of 100 000, 100 000, 100 000 and 1 rows: the three large ones in halves, the
    // last (fewer rows than a task's minimum) on the batch thread alone.
    assertEquals(150_001, head.rows.get());
    assertEquals(150_000, task1.rows.get());
    assertEquals(List.of(100_000L, 100_000L, 100_000L, 1L), query.recentProgress().stream()
        .map(StreamingQueryProgress::numInputRows).toList());
  }

  @Test void shouldReadOnTheBatchThreadWhenTheSourceCannotBeReadInSlices() throws Exception {
    MemoryStream stream = new MemoryStream("S", 1);
    List<Object[]> rows = new ArrayList<>();
    for (long n = 0; n < 100_000; n++) {
      rows.add(new Object[] {n});
    }
    stream.addData(rows);
    start(stream, -1);
    assertTrue(query.awaitTermination(TIMEOUT));
    assertEquals(expected(100_000), totals());
    assertEquals(100_000, head.rows.get());
    assertEquals(0, task1.rows.get());
  }

  @Test void shouldFailTheBatchWithoutACommitWhenATaskFails() throws Exception {
    // Row 90 000 is in the second slice of the first batch, read by task 1.
    start(new SequenceSource(SequenceSpec.bounded("NUMS", 100_000)), 90_000);
    assertTrue(query.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.FAILED, query.status());
    Throwable error = query.exception().orElseThrow();
    assertEquals("row 90000 is bad", error.getMessage());
    assertSame(IllegalStateException.class, error.getClass());
    assertEquals(-1, query.lastBatchId());
    assertTrue(totals().isEmpty());
    // Task 0 read its whole slice: the batch ended only once every task had.
    assertEquals(50_000, head.rows.get());
  }
}

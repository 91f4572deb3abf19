package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CalcOperator;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.Operator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.RowCalc;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.source.MemoryStream;
import dev.freshet.executor.source.Source;
import dev.freshet.executor.state.StateStoreException;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.StateStoreProvider;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tests {@link MicroBatchExecution} end to end: MemoryStream, optional calc, stateful aggregation in
 * Update mode, collect, and a recording sink. Waits use {@code processAllAvailable} or latches with
 * generous deadlines; nothing sleeps.
 */
class MicroBatchExecutionTest {
  /** Generous, for a loaded machine; waits normally end within milliseconds. */
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final AtomicInteger QUERY_NUMBER = new AtomicInteger();

  private final MemoryStream stream = new MemoryStream("clicks", 2);
  private final RecordingSink sink = new RecordingSink();
  private final List<StateStoreProvider<Object, Object[]>> providers = List.of(
      new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 0)),
      new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 1)));
  private MicroBatchExecution query;

  @AfterEach void stopQuery() {
    if (query != null) {
      query.stop();
    }
  }

  @Test void shouldHandEachBatchToSinkWhenDataIsAdded() throws Exception {
    query = countAndSum(stream, null);
    query.start();
    assertEquals(QueryStatus.ACTIVE, query.status());
    assertEquals(-1, query.lastBatchId());

    stream.addData(data(row("a", 1.0), row("b", 2.0), row("a", 3.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(0, query.lastBatchId());

    stream.addData(data(row("a", 5.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));

    stream.addData(data(row("c", 1.0), row("b", 1.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(2, query.lastBatchId());

    assertEquals(List.of(
            new Batch(0, rows(row("a", 2L, 4.0), row("b", 1L, 2.0))),
            new Batch(1, rows(row("a", 3L, 9.0))),
            new Batch(2, rows(row("b", 2L, 3.0), row("c", 1L, 1.0)))),
        sink.batches());
    assertEquals(QueryStatus.ACTIVE, query.status());
    assertTrue(query.exception().isEmpty());
  }

  @Test void shouldReadEveryOffsetInOneBatchWhenDataPrecedesStart() throws Exception {
    stream.addData(data(row("a", 1.0)));
    stream.addData(data(row("a", 2.0), row("b", 4.0)));
    query = countAndSum(stream, null);

    query.start();
    assertTrue(query.processAllAvailable(TIMEOUT));

    assertEquals(List.of(new Batch(0, rows(row("a", 2L, 3.0), row("b", 1L, 4.0)))),
        sink.batches());
  }

  @Test void shouldFilterAndProjectWhenPipelineStartsWithCalc() throws Exception {
    // SELECT UPPER(k), v * 10 FROM clicks WHERE v > 0, then the aggregate.
    RowCalc calc = (in, out) -> {
      if ((Double) in[1] <= 0) {
        return false;
      }
      out[0] = ((String) in[0]).toUpperCase(Locale.ROOT);
      out[1] = (Double) in[1] * 10;
      return true;
    };
    query = countAndSum(stream, calc);
    query.start();

    stream.addData(data(row("a", 1.0), row("b", -2.0), row("a", 0.5)));
    assertTrue(query.processAllAvailable(TIMEOUT));
    stream.addData(data(row("b", 0.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));
    stream.addData(data(row("b", 0.25)));
    assertTrue(query.processAllAvailable(TIMEOUT));

    assertEquals(List.of(
            new Batch(0, rows(row("A", 2L, 15.0))),
            new Batch(1, rows()),
            new Batch(2, rows(row("B", 1L, 2.5)))),
        sink.batches());
  }

  @Test void shouldRunNoBatchWhenThereIsNoNewData() throws Exception {
    SignallingSource source = new SignallingSource(stream);
    query = countAndSum(source, null);
    query.start();
    stream.addData(data(row("a", 1.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(0, query.lastBatchId());

    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(1, stream.addData(List.of()));
    assertTrue(query.processAllAvailable(TIMEOUT));
    for (int i = 0; i < 3; i++) {
      assertTrue(source.signalWithoutDataAndAwaitCheck(TIMEOUT),
          "the batch thread did not look at the source after a new-data signal");
    }
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(0, query.lastBatchId());

    // Had a spurious signal run a batch, it would show up as an empty batch with its own id.
    stream.addData(data(row("a", 2.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));
    assertEquals(1, query.lastBatchId());
    assertEquals(List.of(
            new Batch(0, rows(row("a", 1L, 1.0))),
            new Batch(1, rows(row("a", 2L, 3.0)))),
        sink.batches());
    assertEquals(List.of("(0, 1]", "(1, 2]"), source.reads);
  }

  @Test void shouldEndThreadAndReportStoppedWhenStopped() throws Exception {
    query = countAndSum(stream, null);
    query.start();
    stream.addData(data(row("a", 1.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));

    query.stop();

    assertEquals(QueryStatus.STOPPED, query.status());
    assertTrue(query.exception().isEmpty());
    assertFalse(queryThreadAlive(query.name()), "batch thread still alive after stop()");
    assertEquals(1, sink.terminations.get());
    assertTrue(sink.terminated.await(0, TimeUnit.SECONDS));
    assertNull(sink.terminationError);

    query.stop();
    assertEquals(1, sink.terminations.get(), "stop() is idempotent");
    assertEquals(QueryStatus.STOPPED, query.status());

    stream.addData(data(row("a", 2.0)));
    assertFalse(query.processAllAvailable(TIMEOUT), "a stopped query processes nothing");
    assertEquals(List.of(new Batch(0, rows(row("a", 1L, 1.0)))), sink.batches());
  }

  @Test void shouldStopWhenIdleBeforeAnyData() throws Exception {
    query = countAndSum(stream, null);
    query.start();

    query.stop();

    assertEquals(QueryStatus.STOPPED, query.status());
    assertEquals(-1, query.lastBatchId());
    assertFalse(queryThreadAlive(query.name()), "batch thread still alive after stop()");
    assertEquals(1, sink.terminations.get());
    assertNull(sink.terminationError);
    assertEquals(List.of(), sink.batches());
  }

  @Test void shouldRejectSecondStartWhenAlreadyStarted() {
    query = countAndSum(stream, null);
    query.start();

    IllegalStateException e = assertThrows(IllegalStateException.class, query::start);
    assertEquals("query " + query.name() + " was already started", e.getMessage());
  }

  @Test void shouldFailWhenRowCalcThrows() throws Exception {
    IllegalStateException boom = new IllegalStateException("boom");
    RowCalc calc = (in, out) -> {
      if ("bad".equals(in[0])) {
        throw boom;
      }
      out[0] = in[0];
      out[1] = in[1];
      return true;
    };
    query = countAndSum(stream, calc);
    query.start();
    stream.addData(data(row("a", 1.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));

    stream.addData(data(row("a", 2.0), row("bad", 0.0), row("b", 1.0)));
    assertFalse(query.processAllAvailable(TIMEOUT), "the batch with the bad row cannot complete");
    assertTrue(sink.terminated.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS),
        "queryTerminated not called");

    assertEquals(QueryStatus.FAILED, query.status());
    assertSame(boom, query.exception().orElseThrow());
    assertSame(boom, sink.terminationError);
    assertEquals(1, sink.terminations.get());
    assertEquals(0, query.lastBatchId());
    assertEquals(List.of(new Batch(0, rows(row("a", 1L, 1.0)))), sink.batches());

    query.stop();
    assertFalse(queryThreadAlive(query.name()), "batch thread still alive after failure and stop()");
    assertEquals(QueryStatus.FAILED, query.status());
    assertEquals(1, sink.terminations.get());
    // The failed batch 1 was aborted: every partition still holds version 1, the output of batch 0.
    for (StateStoreProvider<Object, Object[]> p : providers) {
      assertThrows(StateStoreException.class, () -> p.getStore(2));
      p.getStore(1).abort();
    }
  }

  @Test void shouldFailWhenFirstBatchThrows() throws Exception {
    RuntimeException boom = new ArithmeticException("overflow");
    query = countAndSum(stream, (in, out) -> {
      throw boom;
    });
    query.start();

    stream.addData(data(row("a", 1.0)));
    assertFalse(query.processAllAvailable(TIMEOUT));
    assertTrue(sink.terminated.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS),
        "queryTerminated not called");

    assertEquals(QueryStatus.FAILED, query.status());
    assertSame(boom, query.exception().orElseThrow());
    assertSame(boom, sink.terminationError);
    assertEquals(-1, query.lastBatchId());
    assertEquals(List.of(), sink.batches());
  }

  @Test void shouldAbortStateWhenBatchFailsWhileStoresAreOpen() throws Exception {
    IllegalStateException boom = new IllegalStateException("cannot emit bad");
    query = countAndSum(stream, null, collect -> new FailOnKey("bad", boom, collect));
    query.start();
    stream.addData(data(row("a", 1.0), row("b", 1.0)));
    assertTrue(query.processAllAvailable(TIMEOUT));

    stream.addData(data(row("a", 2.0), row("bad", 0.0), row("b", 1.0), row("c", 1.0)));
    assertFalse(query.processAllAvailable(TIMEOUT));
    assertTrue(sink.terminated.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS),
        "queryTerminated not called");
    query.stop();

    assertEquals(QueryStatus.FAILED, query.status());
    assertSame(boom, query.exception().orElseThrow());
    assertSame(boom, sink.terminationError);
    assertEquals(List.of(new Batch(0, rows(row("a", 1L, 1.0), row("b", 1L, 1.0)))),
        sink.batches());
    // Batch 1 failed after opening the stores; had they not been aborted, reopening would throw.
    for (StateStoreProvider<Object, Object[]> p : providers) {
      assertThrows(StateStoreException.class, () -> p.getStore(2));
      p.getStore(1).abort();
    }
  }

  /**
   * {@code SELECT k, COUNT(*), SUM(v) FROM clicks GROUP BY k EMIT UPDATE}, with an optional calc
   * producing {@code (k, v)} in front of the aggregate.
   */
  private MicroBatchExecution countAndSum(Source source, RowCalc calc) {
    return countAndSum(source, calc, downstream -> downstream);
  }

  /** As above, with {@code between} wrapping the collect operator below the aggregate. */
  private MicroBatchExecution countAndSum(Source source, RowCalc calc,
      UnaryOperator<Operator> between) {
    StatefulAggregateSpec spec = new StatefulAggregateSpec(0, new int[] {0},
        List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 1, ValueKind.DOUBLE)),
        List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG),
            new AggregateCall(AggregateFunction.SUM, 2, ValueKind.DOUBLE)),
        OutputMode.UPDATE, providers.size());
    CollectOperator collect = new CollectOperator();
    Operator pipeline = new StatefulAggregateOperator(spec, providers, between.apply(collect));
    if (calc != null) {
      pipeline = new CalcOperator(calc, 2, pipeline);
    }
    String name = "test-" + QUERY_NUMBER.incrementAndGet();
    return MicroBatchExecution.builder("id-" + name, name,
        StreamingPipeline.of(source, pipeline, collect), sink).clock(() -> 1000L).build();
  }

  private static boolean queryThreadAlive(String queryName) {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("freshet-query-" + queryName) && t.isAlive()) {
        return true;
      }
    }
    return false;
  }

  private static List<Object[]> data(Object[]... rows) {
    return List.of(rows);
  }

  private static Object[] row(Object... values) {
    return values;
  }

  /** Rows in a canonical order, so that batches compare regardless of partition order. */
  private static List<List<Object>> rows(Object[]... rows) {
    List<List<Object>> result = new ArrayList<>();
    for (Object[] r : rows) {
      result.add(Arrays.asList(r));
    }
    result.sort(Comparator.comparing(Object::toString));
    return result;
  }

  /** One batch as the sink saw it. */
  private record Batch(long batchId, List<List<Object>> rows) {
  }

  /** Records every batch and the termination; called from the query thread. */
  private static final class RecordingSink implements Sink {
    private final CopyOnWriteArrayList<Batch> batches = new CopyOnWriteArrayList<>();
    final CountDownLatch terminated = new CountDownLatch(1);
    final AtomicInteger terminations = new AtomicInteger();
    volatile Throwable terminationError;

    @Override public void addBatch(long batchId, List<Object[]> rows) {
      batches.add(new Batch(batchId, rows(rows.toArray(new Object[0][]))));
    }

    @Override public void queryTerminated(Throwable error) {
      terminationError = error;
      terminations.incrementAndGet();
      terminated.countDown();
    }

    List<Batch> batches() {
      return List.copyOf(batches);
    }
  }

  /** Passes rows on, throwing {@code error} instead for a row whose first column is {@code key}. */
  private static final class FailOnKey implements Operator {
    private final Object key;
    private final RuntimeException error;
    private final Operator downstream;

    FailOnKey(Object key, RuntimeException error, Operator downstream) {
      this.key = key;
      this.error = error;
      this.downstream = downstream;
    }

    @Override public void startBatch(BatchContext batch) {
      downstream.startBatch(batch);
    }

    @Override public void push(Object[] row) {
      if (key.equals(row[0])) {
        throw error;
      }
      downstream.push(row);
    }

    @Override public void finishBatch(BatchContext batch) {
      downstream.finishBatch(batch);
    }

    @Override public void abortBatch(BatchContext batch) {
      downstream.abortBatch(batch);
    }
  }

  /** Delegates to a stream, records the ranges read, and can signal new data that is not there. */
  private static final class SignallingSource implements Source {
    private final Source delegate;
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();
    final List<String> reads = new CopyOnWriteArrayList<>();

    SignallingSource(Source delegate) {
      this.delegate = delegate;
    }

    /** Offset queries made by the query's batch thread; guarded by {@code this}. */
    private long batchThreadChecks;

    /**
     * Signals new data without adding any, then waits until the batch thread has looked at the
     * latest offset twice: once to read the batch's end offset, once to decide whether to wait
     * again. (One look may predate the signal, made as the thread went idle after the previous
     * batch.) A batch that the signal might wrongly start therefore begins before any later data
     * exists, and cannot merge into a later batch unseen.
     */
    boolean signalWithoutDataAndAwaitCheck(Duration timeout) throws InterruptedException {
      long before;
      synchronized (this) {
        before = batchThreadChecks;
      }
      for (Runnable l : listeners) {
        l.run();
      }
      long deadline = System.nanoTime() + timeout.toNanos();
      synchronized (this) {
        while (batchThreadChecks < before + 2) {
          long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (leftMs <= 0) {
            return false;
          }
          wait(leftMs);
        }
        return true;
      }
    }

    @Override public String description() {
      return delegate.description();
    }

    @Override public long latestOffset() {
      long latest = delegate.latestOffset();
      if (Thread.currentThread().getName().startsWith("freshet-query-")) {
        synchronized (this) {
          batchThreadChecks++;
          notifyAll();
        }
      }
      return latest;
    }

    @Override public void readRange(long start, long end, Consumer<Object[]> rows) {
      reads.add("(" + start + ", " + end + "]");
      delegate.readRange(start, end, rows);
    }

    @Override public AutoCloseable onNewData(Runnable listener) {
      listeners.add(listener);
      AutoCloseable inner = delegate.onNewData(listener);
      return () -> {
        listeners.remove(listener);
        inner.close();
      };
    }
  }
}

package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.AggregateCall;
import dev.freshet.executor.operators.AggregateFunction;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeKey;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import dev.freshet.executor.operators.OutputMode;
import dev.freshet.executor.operators.StatefulAggregateOperator;
import dev.freshet.executor.operators.StatefulAggregateSpec;
import dev.freshet.executor.operators.TimeWindowOperator;
import dev.freshet.executor.operators.ValueKind;
import dev.freshet.executor.state.StateStoreId;
import dev.freshet.executor.state.internals.InMemoryStateStoreProvider;
import java.util.Arrays;
import dev.freshet.executor.source.MemoryStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A processing-time trigger starts batches at multiples of its interval, on a manual clock. */
class TriggerTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Test void shouldNextAfterRoundUpToTheNextMultipleOfTheInterval() {
    Trigger.ProcessingTime trigger = (Trigger.ProcessingTime) Trigger.processingTime(1000);
    assertEquals(1000, trigger.nextAfter(0));
    assertEquals(2000, trigger.nextAfter(1999));
    assertEquals(3000, trigger.nextAfter(2000));
    assertEquals(Trigger.DEFAULT, Trigger.processingTime(0));
  }

  @Test void shouldPutEverythingThatArrivedBeforeTheNextTriggerTimeIntoOneBatch()
      throws Exception {
    AtomicLong clock = new AtomicLong(5_000);
    MemoryStream stream = new MemoryStream("s", 1);
    Map<Long, List<Object[]>> batches = new TreeMap<>();
    Sink sink = (batchId, rows) -> {
      synchronized (batches) {
        batches.put(batchId, rows);
      }
    };
    CollectOperator output = new CollectOperator();
    MicroBatchExecution query = MicroBatchExecution.builder("q", "q",
        StreamingPipeline.of(stream, output, output), sink).clock(clock::get)
        .trigger(Trigger.processingTime(1000)).build();
    query.start();
    try {
      stream.addData(List.<Object[]>of(new Object[] {"a"}));
      assertTrue(query.processAllAvailable(TIMEOUT));
      assertEquals(0, query.lastBatchId());

      // The clock stands still: the next batch may not start before 6000.
      stream.addData(List.<Object[]>of(new Object[] {"b"}));
      stream.addData(List.<Object[]>of(new Object[] {"c"}));
      assertEquals(0, query.lastBatchId());

      clock.set(6_000);
      assertTrue(query.processAllAvailable(TIMEOUT));
      assertEquals(1, query.lastBatchId());
      synchronized (batches) {
        assertEquals(2, batches.get(1L).size(), "b and c arrived before 6000: one batch");
      }
      assertEquals(6_000, query.recentProgress().get(1).timestampMs());
    } finally {
      query.stop();
    }
  }

  @Test void shouldRunOneBatchOverWhatIsThereAndStopWhenTriggeredOnce() throws Exception {
    MemoryStream stream = new MemoryStream("s", 1);
    stream.addData(List.<Object[]>of(new Object[] {"a"}));
    stream.addData(List.<Object[]>of(new Object[] {"b"}));
    Map<Long, List<Object[]>> batches = new TreeMap<>();
    CollectOperator output = new CollectOperator();
    MicroBatchExecution query = MicroBatchExecution.builder("q", "q",
        StreamingPipeline.of(stream, output, output), recording(batches)).clock(() -> 0L)
        .trigger(Trigger.ONCE).build();
    query.start();
    assertTrue(query.awaitTermination(TIMEOUT));
    assertEquals(QueryStatus.STOPPED, query.status());
    synchronized (batches) {
      assertEquals(List.of(0L), List.copyOf(batches.keySet()));
      assertEquals(2, batches.get(0L).size());
    }
  }

  @Test void shouldProcessWhatIsThereIncludingNoDataBatchesWhenAvailableNow() throws Exception {
    MemoryStream stream = new MemoryStream("events", 1);
    // Event times 10 s and 25 s; windows of 5 s; watermark delay 10 s.
    stream.addData(List.<Object[]>of(new Object[] {10_000L}));
    Map<Long, List<Object[]>> batches = new TreeMap<>();
    CollectOperator output = new CollectOperator();
    StatefulAggregateOperator count = new StatefulAggregateOperator(
        new StatefulAggregateSpec(0, new int[] {1},
            List.of(new AggregateCall(AggregateFunction.COUNT_STAR, -1, ValueKind.LONG)),
            List.of(new AggregateCall(AggregateFunction.SUM0, 1, ValueKind.LONG)),
            OutputMode.APPEND, 1, new EventTimeKey(0, 5_000)),
        List.of(new InMemoryStateStoreProvider<>(new StateStoreId("q", 0, 0))), output);
    TimeWindowOperator window = new TimeWindowOperator(0, 5_000, 5_000, 1, count);
    EventTimeWatermarkOperator watermark = new EventTimeWatermarkOperator(0, 10_000, window);
    MicroBatchExecution first = MicroBatchExecution.builder("q", "q",
        new StreamingPipeline(stream, watermark, output, List.of(watermark), List.of(count)),
        recording(batches)).clock(() -> 0L).trigger(Trigger.AVAILABLE_NOW).build();
    stream.addData(List.<Object[]>of(new Object[] {25_000L}));
    first.start();
    assertTrue(first.awaitTermination(TIMEOUT));
    synchronized (batches) {
      // Batch 0 reads both rows (watermark 0: nothing final); batch 1 runs without data at
      // watermark 15 s and emits window [10 s, 15 s); then nothing is due and the query stops.
      assertEquals(List.of(0L, 1L), List.copyOf(batches.keySet()));
      assertEquals(0, batches.get(0L).size());
      assertEquals(List.of(List.of(10_000L, 1L)),
          batches.get(1L).stream().map(Arrays::asList).toList());
    }
    assertEquals(QueryStatus.STOPPED, first.status());
  }

  private static Sink recording(Map<Long, List<Object[]>> batches) {
    return (batchId, rows) -> {
      synchronized (batches) {
        batches.put(batchId, rows);
      }
    };
  }
}

package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.CollectOperator;
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
    MicroBatchExecution query = new MicroBatchExecution("q", "q",
        StreamingPipeline.of(stream, output, output), sink, clock::get,
        Trigger.processingTime(1000));
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
}

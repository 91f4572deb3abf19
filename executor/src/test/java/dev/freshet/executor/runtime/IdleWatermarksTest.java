package dev.freshet.executor.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.freshet.executor.operators.BatchContext;
import dev.freshet.executor.operators.CollectOperator;
import dev.freshet.executor.operators.EventTimeWatermarkOperator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link IdleWatermarks} on a clock the test moves: when the watermark of an idle stream may
 * follow the clock, the step between advances, the sleep once the state is drained, how long the
 * batch loop waits, and that rows, a bounded trigger or a stream without a timeout hold it back.
 */
class IdleWatermarksTest {
  private final EventTimeWatermarkOperator idle =
      new EventTimeWatermarkOperator(0, 5_000, 1_000, new CollectOperator());
  private final EventTimeWatermarkOperator plain =
      new EventTimeWatermarkOperator(0, 5_000, new CollectOperator());

  private static void rows(EventTimeWatermarkOperator w, long atMs, long eventTimeMs) {
    BatchContext batch = new BatchContext(0, atMs);
    w.startBatch(batch);
    w.push(new Object[] {eventTimeMs});
    w.finishBatch(batch);
  }

  @Test void shouldAdvanceOnceIdleThenInStepsUntilTheStateIsDrained() {
    IdleWatermarks watermarks = new IdleWatermarks(List.of(idle), Trigger.processingTime(200));
    watermarks.startClocks(0);
    rows(idle, 10_000, 20_000);
    watermarks.batchCommitted(true, false, 3);
    long current = idle.watermarkMs();
    assertEquals(15_000, current);
    // Idle at 11 s: until then the loop waits for it, and nothing is due.
    assertEquals(1_000, watermarks.millisUntilCheck(10_000));
    assertFalse(watermarks.batchDue(10_999, current, w -> true));
    assertTrue(watermarks.batchDue(30_000, current, w -> w == 25_000));
    watermarks.advance(30_000);
    assertEquals(25_000, idle.watermarkMs());
    // State remains: the next advance comes a step (the timeout) later, not at the next trigger.
    watermarks.batchCommitted(false, true, 1);
    current = idle.watermarkMs();
    assertEquals(current, watermarks.watermarkAt(30_999, current));
    assertEquals(800, watermarks.millisUntilCheck(30_200));
    assertEquals(26_000, watermarks.watermarkAt(31_000, current));
    watermarks.advance(31_000);
    // The state is empty: no advance, no wake-up, until rows come.
    watermarks.batchCommitted(false, true, 0);
    current = idle.watermarkMs();
    assertEquals(current, watermarks.watermarkAt(100_000, current));
    assertEquals(Long.MAX_VALUE, watermarks.millisUntilCheck(100_000));
    rows(idle, 100_000, 99_000);
    watermarks.batchCommitted(true, false, 1);
    assertEquals(1_000, watermarks.millisUntilCheck(100_000));
    assertEquals(96_000, watermarks.watermarkAt(101_000, idle.watermarkMs()));
  }

  @Test void shouldWaitForTheStreamWithoutATimeout() {
    IdleWatermarks watermarks = new IdleWatermarks(List.of(idle, plain), Trigger.DEFAULT);
    watermarks.startClocks(0);
    rows(idle, 0, 20_000);
    rows(plain, 0, 10_000);
    long current = Math.min(idle.watermarkMs(), plain.watermarkMs());
    assertEquals(5_000, current);
    // The query's watermark is the minimum: the stream without a timeout holds it.
    assertEquals(5_000, watermarks.watermarkAt(60_000, current));
    assertFalse(watermarks.batchDue(60_000, current, w -> true));
    // Without a trigger interval, the step is the timeout.
    assertEquals(1_000, watermarks.stepMs());
  }

  @Test void shouldBeOffWithoutATimeoutOrUnderABoundedTrigger() {
    IdleWatermarks none = new IdleWatermarks(List.of(plain), Trigger.DEFAULT);
    none.startClocks(0);
    assertEquals(0, none.watermarkAt(1_000_000, 0));
    assertEquals(Long.MAX_VALUE, none.millisUntilCheck(0));
    IdleWatermarks once = new IdleWatermarks(List.of(idle), Trigger.ONCE);
    once.startClocks(0);
    assertEquals(0, once.watermarkAt(1_000_000, 0));
    assertEquals(Long.MAX_VALUE, once.millisUntilCheck(0));
  }
}

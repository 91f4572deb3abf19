package dev.freshet.executor.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The idle timeout of {@link EventTimeWatermarkOperator}: once no row has come for the timeout,
 * the watermark a batch would have follows the clock (minus the delay), never backwards; rows
 * restart the timeout; without a timeout the clock never moves it.
 */
class EventTimeWatermarkIdleTest {
  private final CollectOperator out = new CollectOperator();

  private static void batch(EventTimeWatermarkOperator w, long atMs, Object[]... rows) {
    BatchContext batch = new BatchContext(0, atMs);
    w.startBatch(batch);
    for (Object[] row : rows) {
      w.push(row);
    }
    w.finishBatch(batch);
  }

  @Test void shouldFollowTheClockOnceNoRowCameForTheTimeout() {
    EventTimeWatermarkOperator w = new EventTimeWatermarkOperator(0, 5_000, 1_000, out);
    w.startIdleClock(100_000);
    batch(w, 100_000, new Object[] {50_000L});
    assertEquals(45_000, w.watermarkMs());
    // Not idle yet: the rows' watermark.
    assertEquals(45_000, w.watermarkAt(100_999));
    assertEquals(1, w.millisUntilIdle(100_999));
    // Idle: processing time minus the delay.
    assertEquals(0, w.millisUntilIdle(101_000));
    assertEquals(96_000, w.watermarkAt(101_000));
    // Only a recorded batch moves it.
    assertEquals(45_000, w.watermarkMs());
    w.advanceIdle(101_000);
    assertEquals(96_000, w.watermarkMs());
    // Rows restart the timeout; their older event times do not move it back.
    batch(w, 102_000, new Object[] {60_000L});
    assertEquals(96_000, w.watermarkMs());
    assertEquals(96_000, w.watermarkAt(102_500));
    assertEquals(98_000, w.watermarkAt(103_000));
  }

  @Test void shouldNeverMoveBackWhenTheClockIsBehindTheRows() {
    EventTimeWatermarkOperator w = new EventTimeWatermarkOperator(0, 5_000, 1_000, out);
    w.startIdleClock(0);
    batch(w, 0, new Object[] {1_000_000L});
    assertEquals(995_000, w.watermarkAt(10_000));
    w.advanceIdle(10_000);
    assertEquals(995_000, w.watermarkMs());
  }

  @Test void shouldCountFromTheStartOfTheRunAndIgnoreTheClockWithoutATimeout() {
    EventTimeWatermarkOperator idle = new EventTimeWatermarkOperator(0, 5_000, 1_000, out);
    idle.startIdleClock(50_000);
    assertEquals(0, idle.watermarkAt(50_500));
    assertEquals(46_100, idle.watermarkAt(51_100));
    EventTimeWatermarkOperator plain = new EventTimeWatermarkOperator(0, 5_000, out);
    plain.startIdleClock(0);
    assertEquals(0, plain.watermarkAt(Long.MAX_VALUE / 2));
    assertEquals(Long.MAX_VALUE, plain.millisUntilIdle(0));
    assertThrows(IllegalArgumentException.class,
        () -> new EventTimeWatermarkOperator(0, 5_000, -1, out));
  }

  @Test void shouldShareTheIdleClockWithItsInputTaskCopies() {
    EventTimeWatermarkOperator w = new EventTimeWatermarkOperator(0, 5_000, 1_000, out);
    EventTimeWatermarkOperator copy = w.copy(new CollectOperator());
    w.startIdleClock(0);
    // Only the copy's task read rows: the stream was not idle.
    batch(copy, 10_000, new Object[] {1L});
    batch(w, 10_000);
    assertEquals(1, w.millisUntilIdle(10_999));
  }
}

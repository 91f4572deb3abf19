package dev.freshet.executor.operators.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Tests {@link TimeRange}: matching and the state watermarks it derives. */
class TimeRangeTest {
  @Test void shouldMatchBoundsInclusiveOrStrict() {
    TimeRange inclusive = new TimeRange(-10, true, 5, true);
    assertTrue(inclusive.contains(90, 100));
    assertTrue(inclusive.contains(105, 100));
    assertFalse(inclusive.contains(89, 100));
    assertFalse(inclusive.contains(106, 100));
    TimeRange strict = new TimeRange(-10, false, 5, false);
    assertFalse(strict.contains(90, 100));
    assertFalse(strict.contains(105, 100));
    assertTrue(strict.contains(91, 100));
    assertTrue(strict.contains(104, 100));
    assertTrue(TimeRange.UNBOUNDED.contains(Long.MAX_VALUE / 2, 0));
  }

  /**
   * A side's row is evicted exactly when no later row of the other side (event time above the
   * watermark) can match it: never too early (a lost pair), never later than needed (a late
   * NULL row). Checked exhaustively over small times for every kind of bound of a range that is
   * not empty.
   */
  @Test void shouldEvictExactlyRowsNoLaterRowCanMatch() {
    for (boolean lowerInclusive : new boolean[] {true, false}) {
      for (boolean upperInclusive : new boolean[] {true, false}) {
        for (long lower : new long[] {-7, 0, 3}) {
          for (long upper : new long[] {3, 8}) {
            TimeRange range = new TimeRange(lower, lowerInclusive, upper, upperInclusive);
            if (upper == lower && !(lowerInclusive && upperInclusive)) {
              continue;   // an empty range matches nothing, so any eviction is right
            }
            for (long w = -5; w <= 5; w++) {
              for (long ts = -30; ts <= 30; ts++) {
                boolean leftCanMatch = false;
                boolean rightCanMatch = false;
                for (long other = w + 1; other <= w + 60; other++) {
                  leftCanMatch |= range.contains(ts, other);
                  rightCanMatch |= range.contains(other, ts);
                }
                String at = range + " w=" + w + " ts=" + ts;
                assertEquals(!leftCanMatch, ts <= range.leftStateWatermark(w), "left " + at);
                assertEquals(!rightCanMatch, ts <= range.rightStateWatermark(w), "right " + at);
              }
            }
          }
        }
      }
    }
  }

  @Test void shouldEvictNothingWithoutBoundOrWatermark() {
    assertEquals(Long.MIN_VALUE, new TimeRange(TimeRange.NO_LOWER, true, 5, true)
        .leftStateWatermark(1_000));
    assertEquals(Long.MIN_VALUE, new TimeRange(-5, true, TimeRange.NO_UPPER, true)
        .rightStateWatermark(1_000));
    assertEquals(Long.MIN_VALUE, new TimeRange(-5, true, 5, true)
        .leftStateWatermark(Long.MIN_VALUE));
  }

  @Test void shouldIntersectToStricterBounds() {
    assertEquals(new TimeRange(0, false, 0, true),
        new TimeRange(-5, true, 0, true).intersect(new TimeRange(0, false, 3, true)));
    assertEquals(new TimeRange(0, true, 0, true),
        TimeRange.UNBOUNDED.intersect(new TimeRange(0, true, 0, true)));
  }
}

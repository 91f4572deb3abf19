package dev.freshet.planner.rules;

import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Size and slide, in milliseconds, of a TUMBLE or HOP window, read from the interval arguments of
 * either form (group function or table function).
 *
 * @param sizeMs window size
 * @param slideMs distance between window starts; the size for a tumbling window
 */
record WindowIntervals(long sizeMs, long slideMs) {
  /** {@code TUMBLE(..., size)}; null unless the size is a positive interval literal. */
  static @Nullable WindowIntervals tumble(RexNode size) {
    return of(millis(size), millis(size));
  }

  /** {@code HOP(..., slide, size)}; null unless both are literals with 0 < slide <= size. */
  static @Nullable WindowIntervals hop(RexNode slide, RexNode size) {
    return of(millis(size), millis(slide));
  }

  private static @Nullable WindowIntervals of(long size, long slide) {
    return size > 0 && slide > 0 && slide <= size ? new WindowIntervals(size, slide) : null;
  }

  /** An interval literal's length in milliseconds, or -1 if it is not a literal. */
  private static long millis(RexNode interval) {
    if (interval instanceof RexLiteral) {
      Long value = ((RexLiteral) interval).getValueAs(Long.class);
      return value == null ? -1 : value;
    }
    return -1;
  }
}

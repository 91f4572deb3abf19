package dev.freshet.executor.source;

/**
 * The checks every source makes of a batch's offset range {@code (start, end]} before it reads:
 * offsets are positions in the source, so a range may not start below 0 nor end before it
 * starts, and a source with a last offset has no rows after it.
 *
 * <pre>{@code
 * OffsetRanges.check(start, end);                        // "bad offset range (5, 3]"
 * OffsetRanges.checkWithin(description(), start, end, this.end);
 * }</pre>
 */
public final class OffsetRanges {
  private OffsetRanges() {
  }

  /** Refuses a range that starts below 0 or ends before it starts. */
  public static void check(long start, long end) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad offset range (" + start + ", " + end + "]");
    }
  }

  /**
   * As {@link #check}, and refuses a range past {@code last}, the last offset of the source
   * {@code description} names (a generator's end).
   */
  public static void checkWithin(String description, long start, long end, long last) {
    check(start, end);
    if (end > last) {
      throw new IllegalArgumentException(description + " has no offset " + end + ": it ends"
          + " after " + last + " rows");
    }
  }
}

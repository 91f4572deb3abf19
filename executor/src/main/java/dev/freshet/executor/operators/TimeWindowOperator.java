package dev.freshet.executor.operators;

import dev.freshet.executor.limits.QueryResources;

/**
 * Assigns each row to its event-time windows, appending {@code window_start} and
 * {@code window_end} (TIMESTAMP milliseconds) to it: Spark's {@code TimeWindowing}.
 *
 * <p>Windows are aligned to the epoch and end-exclusive: with size 10 s a row at 12:00:07 belongs
 * to {@code [12:00:00, 12:00:10)}. A hopping window (slide smaller than size) emits the row once per
 * window that contains it, newest window first. Rows without event time belong to no window and
 * are dropped, as in Spark.
 *
 * <p>A row in many windows is many rows: every {@value #CANCEL_CHECK_EVERY} rows it emits, the
 * operator checks whether its query was stopped, so that a stop ends even a batch busy with a
 * large HOP.
 *
 * <pre>{@code
 * new TimeWindowOperator(2, 10_000, 5_000, inputWidth, downstream);   // HOP(ts, 5 s, 10 s)
 * }</pre>
 */
public final class TimeWindowOperator extends ForwardingOperator {
  /** The most windows per row whose bounds are cached; a larger HOP boxes them per row. */
  static final int MAX_CACHED_WINDOWS = 4096;
  /** Emitted rows between two checks of the query's cancellation flag (a power of two). */
  static final int CANCEL_CHECK_EVERY = 4096;

  /** The resources of the batch being run; its cancellation flag is checked while emitting. */
  private QueryResources resources;
  /** Rows emitted, to check the flag every {@link #CANCEL_CHECK_EVERY}; wraps harmlessly. */
  private int emitted;
  private final int eventTimeIndex;
  private final long sizeMs;
  private final long slideMs;
  private final int inputWidth;
  /** The output array of the current batch, allocated by its first row (see {@link Operator}). */
  private Object[] out;
  /** Start and end of each window of the last row's windows, boxed; see {@link #cacheBounds}. */
  private Object[] cachedBounds;
  private int windowCount;
  private long cachedFirstStart = Long.MIN_VALUE;
  private long cachedTime;
  private final boolean sizeIsMultipleOfSlide;
  /** The most windows a row is in: {@code ceil(size / slide)}. */
  private final long windowsPerRow;

  /**
   * Creates the operator.
   *
   * @param eventTimeIndex the TIMESTAMP column the windows are computed from
   * @param sizeMs window size
   * @param slideMs distance between window starts; equal to the size for tumbling windows
   * @param inputWidth number of input columns
   * @param downstream receives the input columns followed by window start and end
   */
  public TimeWindowOperator(int eventTimeIndex, long sizeMs, long slideMs, int inputWidth,
      Operator downstream) {
    super(downstream);
    if (sizeMs <= 0 || slideMs <= 0 || slideMs > sizeMs) {
      throw new IllegalArgumentException("window size " + sizeMs + " ms and slide " + slideMs
          + " ms: both must be positive and the slide at most the size");
    }
    this.eventTimeIndex = eventTimeIndex;
    this.sizeMs = sizeMs;
    this.slideMs = slideMs;
    this.inputWidth = inputWidth;
    this.sizeIsMultipleOfSlide = sizeMs % slideMs == 0;
    this.windowsPerRow = (sizeMs + slideMs - 1) / slideMs;
    // A row is in at most ceil(size / slide) windows; the cache grows to that many if needed.
    this.cachedBounds = new Object[2 * (int) Math.min(16, (sizeMs + slideMs - 1) / slideMs)];
  }

  @Override public void startBatch(BatchContext batch) {
    out = null;
    resources = batch.resources();
    downstream.startBatch(batch);
  }

  @Override public void push(Object[] row) {
    Object ts = row[eventTimeIndex];
    if (ts == null) {
      return;
    }
    long t = (Long) ts;
    Object[] out = this.out;
    if (out == null) {
      out = this.out = new Object[inputWidth + 2];
    }
    System.arraycopy(row, 0, out, 0, inputWidth);
    long first = t - Math.floorMod(t, slideMs);
    // With a size that is not a multiple of the slide, rows sharing the newest window can
    // differ in how many older windows they are in, so only the same time reuses the windows.
    if (windowsPerRow > MAX_CACHED_WINDOWS) {
      pushUncached(out, first, t);
      return;
    }
    if (first != cachedFirstStart || !sizeIsMultipleOfSlide && t != cachedTime) {
      cacheBounds(first, t);
    }
    for (int w = 0; w < windowCount; w++) {
      out[inputWidth] = cachedBounds[2 * w];
      out[inputWidth + 1] = cachedBounds[2 * w + 1];
      downstream.push(out);
      if ((++emitted & (CANCEL_CHECK_EVERY - 1)) == 0) {
        resources.throwIfCancelled();
      }
    }
  }

  /**
   * Pushes the row once per window, boxing each window's bounds: a row in more than
   * {@link #MAX_CACHED_WINDOWS} windows would make the cache a heap of its own.
   */
  private void pushUncached(Object[] out, long first, long t) {
    for (long start = first; start > t - sizeMs; start -= slideMs) {
      out[inputWidth] = start;
      out[inputWidth + 1] = start + sizeMs;
      downstream.push(out);
      if ((++emitted & (CANCEL_CHECK_EVERY - 1)) == 0) {
        resources.throwIfCancelled();
      }
    }
  }

  /**
   * Boxes the bounds of the windows of a row at {@code t}, whose newest window starts at
   * {@code first}. Event time mostly moves forward, so consecutive rows share their windows and
   * reuse these boxes instead of allocating two per row and window.
   */
  private void cacheBounds(long first, long t) {
    int w = 0;
    for (long start = first; start > t - sizeMs; start -= slideMs) {
      if (2 * w == cachedBounds.length) {
        cachedBounds = java.util.Arrays.copyOf(cachedBounds, 2 * cachedBounds.length);
      }
      cachedBounds[2 * w] = start;
      cachedBounds[2 * w + 1] = start + sizeMs;
      w++;
    }
    windowCount = w;
    cachedFirstStart = first;
    cachedTime = t;
  }
}

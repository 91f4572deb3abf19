package dev.freshet.executor.source;

/**
 * Source whose {@link #readRange} may run on several threads at once, over disjoint ranges, and
 * whose offsets count rows: so that a batch can be read as slices, one per input task, as Spark
 * reads a batch as one task per input partition.
 *
 * <pre>{@code
 * long mid = start + (end - start) / 2;
 * pool.submit(() -> source.readRange(mid, end, task1));   // rows (mid, end] on another thread
 * source.readRange(start, mid, task0);                      // rows (start, mid] on this one
 * }</pre>
 *
 * <p>A source is splittable when reading is pure: a generator whose row {@code i} is a function of
 * {@code i}, or a log whose range reads share no cursor.
 */
public interface SupportsParallelReads extends Source {
}

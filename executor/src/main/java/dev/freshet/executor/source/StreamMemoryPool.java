package dev.freshet.executor.source;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes (estimated) of rows that all of an engine's streams keep in memory together, and
 * their bound: each stream's own {@code 'memory.max'} caps one stream, this caps their sum, so
 * that many streams whose readers lag cannot together fill the heap. A durable stream over the
 * bound lets its oldest rows leave memory (they are in its log); a stream kept in memory only
 * refuses the {@code INSERT} that would need rows a query has not read
 * ({@link StreamMemoryFullException}).
 *
 * <pre>{@code
 * StreamMemoryPool pool = new StreamMemoryPool(StreamMemoryPool.defaultMax()); // a fifth of -Xmx
 * MemoryStream.open("CLICKS", columns, directory, StreamRetention.defaults(), pool);
 * }</pre>
 *
 * <p>Streams only add and release under their own lock, never waiting on the pool: the sum may
 * pass the bound by one statement of each stream writing at that instant, no more.
 */
public final class StreamMemoryPool {
  /** The default bound, in percent of the maximum heap; see {@link #defaultMax()}. */
  public static final int DEFAULT_PERCENT = 20;

  private final long maxBytes;
  private final AtomicLong used = new AtomicLong();

  /**
   * Creates a pool of {@code maxBytes}.
   *
   * @throws IllegalArgumentException if {@code maxBytes} is less than 1
   */
  public StreamMemoryPool(long maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("A stream memory pool needs at least 1 byte, not "
          + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /**
   * {@value #DEFAULT_PERCENT}% of the maximum heap ({@link Runtime#maxMemory}): what the query
   * budgets ({@code HeapBudgets}, 60%) leave, less results being sent and the collector's room.
   */
  public static long defaultMax() {
    long max = Runtime.getRuntime().maxMemory();
    return max == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1L << 20, max / 100 * DEFAULT_PERCENT);
  }

  /** A pool that never bounds: a stream's own {@code 'memory.max'} alone applies. */
  static StreamMemoryPool unbounded() {
    return new StreamMemoryPool(Long.MAX_VALUE);
  }

  /** The bound. */
  public long maxBytes() {
    return maxBytes;
  }

  /** The bytes all streams keep in memory now. */
  public long usedBytes() {
    return used.get();
  }

  /** Whether {@code incoming} more bytes would pass the bound. */
  boolean wouldExceed(long incoming) {
    long now = used.get();
    return incoming > maxBytes - now;
  }

  void add(long bytes) {
    used.addAndGet(bytes);
  }

  void release(long bytes) {
    used.addAndGet(-bytes);
  }
}

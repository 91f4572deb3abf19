package dev.freshet.executor.limits;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory that all queries of one engine may use together, as the sum of their estimates
 * ({@link QueryResources}); a query whose estimate would take the sum past the limit fails.
 *
 * <pre>{@code
 * MemoryPool pool = new MemoryPool(512L << 20);          // 512 MB for every query together
 * QueryResources q = new QueryResources("push-1", 64L << 20, pool);
 * }</pre>
 *
 * <p>Thread-safe: queries reserve from their own batch threads.
 */
public final class MemoryPool {
  /** A limit that no estimate reaches. */
  public static final long UNLIMITED = Long.MAX_VALUE;

  private final long limitBytes;
  /** The sum of the estimates of the queries that use this pool. */
  private final AtomicLong usedBytes = new AtomicLong();

  /** A pool of {@code limitBytes}, or {@link #UNLIMITED}. */
  public MemoryPool(long limitBytes) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("limitBytes must be positive: " + limitBytes);
    }
    this.limitBytes = limitBytes;
  }

  /** The most bytes all queries may use together. */
  public long limitBytes() {
    return limitBytes;
  }

  /** The sum of the queries' estimates now. */
  public long usedBytes() {
    return usedBytes.get();
  }

  /**
   * Adds {@code delta} (negative to give back) and returns the new sum; a growth that passes the
   * limit is not kept.
   *
   * @return the sum with {@code delta}, or -1 if it would pass the limit (then nothing changed)
   */
  long add(long delta) {
    while (true) {
      long used = usedBytes.get();
      long next = used + delta;
      if (delta > 0 && next > limitBytes) {
        return -1;
      }
      if (usedBytes.compareAndSet(used, next)) {
        return next;
      }
    }
  }
}

package dev.freshet.executor.limits;

import static java.util.Objects.requireNonNull;


/**
 * What one query may use and whether it must stop: its cancellation flag, which its busy loops
 * read every so many rows, and its memory budget, which its operators' {@link MemoryAccount}s
 * check every so many groups or rows.
 *
 * <pre>{@code
 * QueryResources resources = new QueryResources("push-1", 64L << 20, enginePool);
 * // the batch thread, every 1024 rows:
 * resources.throwIfCancelled();
 * // another thread, to stop the query:
 * resources.cancel();
 * }</pre>
 *
 * <p>The estimate is the sum of the accounts: counts of state entries and buffered rows times an
 * estimated size each, not a measure of the heap. It is what one query can grow without bound
 * (groups, rows of a batch) that it bounds.
 */
public final class QueryResources {
  private final String query;
  private final long budgetBytes;
  private final MemoryPool pool;
  /** Set by {@link #cancel}; read by the query's threads every so many rows. */
  private volatile boolean cancelled;
  /** Guarded by {@code this}: the sum of the accounts, the query's part of the pool. */
  private long estimatedBytes;
  private boolean released;

  /**
   * Resources of query {@code query}.
   *
   * @param query the query's name, in errors
   * @param budgetBytes the most the query's estimate may reach, or {@link MemoryPool#UNLIMITED}
   * @param pool the engine's memory, which the estimate also takes from
   */
  public QueryResources(String query, long budgetBytes, MemoryPool pool) {
    if (budgetBytes <= 0) {
      throw new IllegalArgumentException("budgetBytes must be positive: " + budgetBytes);
    }
    this.query = requireNonNull(query, "query");
    this.budgetBytes = budgetBytes;
    this.pool = requireNonNull(pool, "pool");
  }

  /** Resources without limits, of a query that nothing cancels but {@link #cancel}. */
  public static QueryResources unlimited(String query) {
    return new QueryResources(query, MemoryPool.UNLIMITED, new MemoryPool(MemoryPool.UNLIMITED));
  }

  /** Asks the query's running batch to end at its next check. Idempotent, any thread. */
  public void cancel() {
    cancelled = true;
  }

  public boolean isCancelled() {
    return cancelled;
  }

  /**
   * Ends the running batch if the query was cancelled.
   *
   * @throws QueryCancelledException if {@link #cancel} was called
   */
  public void throwIfCancelled() {
    if (cancelled) {
      throw new QueryCancelledException(query);
    }
  }

  /** A new account of this query's, holding nothing. */
  public MemoryAccount newAccount() {
    return new MemoryAccount(this);
  }

  /** The query's estimate: what its accounts hold. */
  public synchronized long estimatedBytes() {
    return estimatedBytes;
  }

  /** The most the query's estimate may reach. */
  public long budgetBytes() {
    return budgetBytes;
  }

  /** Gives the query's part of the pool back, when the query has stopped. Idempotent. */
  public synchronized void release() {
    if (!released) {
      released = true;
      pool.add(-estimatedBytes);
      estimatedBytes = 0;
    }
  }

  synchronized void update(MemoryAccount account, long bytes) {
    if (released) {
      // A stopped query's last batch winding down: it no longer holds any of the pool.
      return;
    }
    long delta = bytes - account.bytes;
    long next = estimatedBytes + delta;
    if (delta > 0 && next > budgetBytes) {
      throw new MemoryBudgetExceededException(query, MemoryBudgetExceededException.Scope.QUERY,
          budgetBytes, next);
    }
    if (pool.add(delta) < 0) {
      throw new MemoryBudgetExceededException(query, MemoryBudgetExceededException.Scope.ENGINE,
          pool.limitBytes(), pool.usedBytes() + delta);
    }
    account.bytes = bytes;
    estimatedBytes = next;
  }
}

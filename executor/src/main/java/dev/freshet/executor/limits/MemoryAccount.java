package dev.freshet.executor.limits;

/**
 * The estimated bytes that one operator (or one input task of it) holds, part of its query's
 * estimate. The operator counts in plain fields and sets its account every so many rows, so that
 * the check costs nothing per row.
 *
 * <pre>{@code
 * MemoryAccount groups = resources.newAccount();
 * if ((size & 1023) == 0) {
 *   groups.set(size * bytesPerGroup);   // throws MemoryBudgetExceededException if over budget
 * }
 * }</pre>
 *
 * <p>Used by one thread at a time; the query sums its accounts under its own lock.
 */
public final class MemoryAccount {
  private final QueryResources owner;
  /** What this account holds in its query's estimate; written under the owner's lock. */
  long bytes;

  MemoryAccount(QueryResources owner) {
    this.owner = owner;
  }

  /**
   * Sets what the operator holds now, and checks its query's budget and the engine's.
   *
   * @throws MemoryBudgetExceededException if the query's estimate is then over either; the
   *     account keeps its former value
   */
  public void set(long bytes) {
    owner.update(this, Math.max(0, bytes));
  }

  /** What the operator holds, as it last said. */
  public long bytes() {
    synchronized (owner) {
      return bytes;
    }
  }
}
